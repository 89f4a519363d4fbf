/**
 * The expiry worker's lookup must use the partial index payments_expiring (expires_at, for the
 * statuses that can still expire), or every pass scans the whole payments table. SQLite only: EXPLAIN QUERY PLAN is SQLite's, and PostgreSQL's
 * planner picks by table statistics, so a plan there says little on a small test table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { paymentStatuses } from '../../src/core/payments/payment.js';
import { finalStatuses, nonFinalStatuses } from '../../src/core/payments/payment-state-machine.js';
import { dueForExpiryQuery } from '../../src/storage/repositories/payment-repository.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const sqlite = testDatabases().find((target) => target.name === 'sqlite')!;

describe('payment expiry query on sqlite', () => {
  let opened: OpenTestDatabase;

  before(async () => {
    opened = await sqlite.open();
  });
  after(() => opened.close());

  it('looks up due payments through the index payments_expiring instead of scanning payments', async () => {
    // The exact query expireDue runs (SQLite has no SKIP LOCKED, so nothing is added to it there).
    const compiled = dueForExpiryQuery(opened.database.db, new Date().toISOString(), 100).compile();
    const plan = await opened.database.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    const details = plan.rows.map((row) => row.detail);
    assert.ok(
      details.some((detail) => /^SEARCH payments USING INDEX payments_expiring \(expires_at<\?\)/.test(detail)),
      `an index search on payments_expiring, got: ${details.join(' | ')}`,
    );
    assert.ok(!details.some((detail) => /^SCAN payments\b/.test(detail)), `no full scan of payments, got: ${details.join(' | ')}`);
  });

  it('asks for exactly the non-final statuses, so no payment that can still expire is missed', () => {
    assert.deepEqual([...nonFinalStatuses, ...finalStatuses].sort(), [...paymentStatuses].sort());
    assert.ok(!nonFinalStatuses.some((status) => finalStatuses.includes(status)));
    // The statuses are literals, in the same order as the index's condition (migration 0020).
    const { sql } = dueForExpiryQuery(opened.database.db, new Date().toISOString(), 100).compile();
    assert.match(sql, new RegExp(`"status" in \\(${nonFinalStatuses.map((status) => `'${status}'`).join(', ')}\\)`));
    for (const status of finalStatuses) assert.ok(!sql.includes(`'${status}'`), status);
  });
});
