/**
 * Helpers of the settlement suites: settlement accounts written straight into their table (as
 * their service would write them), and the check that a statement sums to the centime, read
 * through the API of an in-process app or of a real server alike.
 */
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import type { Environment } from '../../src/core/shared/environment.js';
import { newId } from '../../src/core/shared/ids.js';
import type { Database } from '../../src/storage/schema.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SettlementAccountOptions {
  kind?: 'wallet' | 'bank';
  environment?: Environment;
  /** A wallet's number (MTN Benin); +2290197000000 unless given. */
  phone?: string;
  usableFrom?: string;
  removed?: boolean;
  /** XOF unless given (a test of another currency's refusal). */
  currency?: string;
  /** When it was written (a fake clock's now); the wall clock otherwise. */
  now?: Date;
}

/** A usable XOF settlement account in Benin, written as its service would; returns its id. */
export async function insertSettlementAccount(db: Kysely<Database>, merchantId: string, options: SettlementAccountOptions = {}): Promise<string> {
  const id = newId();
  const now = (options.now ?? new Date()).toISOString();
  const wallet = (options.kind ?? 'wallet') === 'wallet';
  await db
    .insertInto('settlement_accounts')
    .values({
      id,
      merchant_id: merchantId,
      environment: options.environment ?? 'test',
      kind: wallet ? 'wallet' : 'bank',
      currency: options.currency ?? 'XOF',
      country: 'BJ',
      holder_name: 'Boutique Adjoa',
      operator: wallet ? 'mtn_bj' : null,
      phone: wallet ? (options.phone ?? '+2290197000000') : null,
      iban: wallet ? null : 'BJ66BJ0610100100144139400182',
      bank_name: wallet ? null : 'Banque Atlantique',
      description: null,
      metadata: '{}',
      usable_from: options.usableFrom ?? now,
      removed_at: options.removed ? now : null,
      created_at: now,
      updated_at: now,
      version: 1,
    })
    .execute();
  return id;
}

/** One GET under /api/v1 as the merchant, through app.inject or fetch. */
export type ApiReader = (path: string) => Promise<{ status: number; contentType: string; body: string }>;

async function readJson(read: ApiReader, path: string): Promise<Wire> {
  const res = await read(path);
  assert.equal(res.status, 200, `GET ${path}: ${res.body}`);
  return JSON.parse(res.body) as Wire;
}

/** Every line of a statement through the list (GET /balance-transactions?settlement=), page by page. */
export async function statementLines(read: ApiReader, settlementId: string): Promise<Wire[]> {
  const lines: Wire[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await readJson(read, `/balance-transactions?settlement=${settlementId}&limit=2${after ? `&starting_after=${after}` : ''}`);
    lines.push(...page.data);
    if (!page.has_more) return lines;
    after = page.data.at(-1).id;
  }
}

/** opening + every line = closing, in the JSON summary, the list of lines and the CSV alike; returns the statement. */
export async function assertStatementSums(read: ApiReader, settlementId: string): Promise<Wire> {
  const statement = await readJson(read, `/settlements/${settlementId}/statement`);
  assert.equal(statement.object, 'settlement_statement');
  assert.equal(statement.opening_available_minor + statement.available_change_minor, statement.closing_available_minor, 'available: opening + lines = closing');
  assert.equal(statement.opening_reserved_minor + statement.reserved_change_minor, statement.closing_reserved_minor, 'reserved: opening + lines = closing');
  const lines = await statementLines(read, settlementId);
  assert.equal(lines.length, statement.line_count);
  assert.ok(lines.every((line) => line.settlement === settlementId));
  assert.equal(
    lines.reduce((sum, line) => sum + line.available_change_minor, 0),
    statement.available_change_minor,
  );
  const res = await read(`/settlements/${settlementId}/statement.csv`);
  assert.equal(res.status, 200, res.body);
  assert.match(res.contentType, /^text\/csv/);
  const csv = parse(res.body, { columns: true }) as Array<Record<string, string>>;
  assert.equal(csv.length, statement.line_count);
  assert.equal(
    csv.reduce((sum, row) => sum + Number(row.available_change_minor), 0),
    statement.available_change_minor,
  );
  assert.equal(
    csv.reduce((sum, row) => sum + Number(row.reserved_change_minor), 0),
    statement.reserved_change_minor,
  );
  assert.deepEqual(new Set(csv.map((row) => row.id)), new Set(lines.map((line) => line.id)));
  return statement;
}
