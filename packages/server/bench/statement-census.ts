/**
 * Counts the SQL statements (round trips, on PostgreSQL) and their time per payment creation, on
 * each test database: builds the real app in this process (as the tests do), creates a few hundred
 * sandbox direct payments through HTTP injection at a concurrency of 10, and prints every SQL text
 * run with its count per creation and its time. The workers do not run, so only the request's own
 * statements are counted.
 *
 *   npx tsx bench/statement-census.ts                # SQLite, and PostgreSQL when AKWE_TEST_POSTGRES_URL is set
 *   CENSUS_CREATIONS=1000 CENSUS_DATABASES=postgres npx tsx bench/statement-census.ts
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { buildTestApp } from '../test/support/test-app.js';
import { inProcessDatabases } from './in-process-databases.js';

const creations = Number(process.env.CENSUS_CREATIONS ?? 500);
const concurrency = 10;

interface Tally {
  count: number;
  ms: number;
}
const tallies = new Map<string, Tally>();
let counting = false;

function note(text: string, ms: number): void {
  if (!counting) return;
  const key = text.replace(/\s+/g, ' ').slice(0, 160);
  const tally = tallies.get(key) ?? { count: 0, ms: 0 };
  tally.count += 1;
  tally.ms += ms;
  tallies.set(key, tally);
}

// PostgreSQL: every query a pooled client sends is one round trip (pg does not pipeline).
const pgQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
  const started = performance.now();
  const result = pgQuery.apply(this, args);
  if (text !== undefined && result instanceof Promise)
    void result.then(
      () => note(text, performance.now() - started),
      () => note(text, performance.now() - started),
    );
  return result;
} as typeof pg.Client.prototype.query;

// SQLite: time each run of a prepared statement.
const probe = new BetterSqlite3(':memory:');
const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
probe.close();
for (const method of ['run', 'all', 'get'] as const) {
  const original = statementPrototype[method]!;
  statementPrototype[method] = function (this: { source: string }, ...args: unknown[]) {
    const started = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      note(this.source, performance.now() - started);
    }
  };
}

for (const target of inProcessDatabases('CENSUS_DATABASES')) {
  const test = await buildTestApp(target, { env: { AKWE_RUN_WORKERS: 'false' } });
  const { testKey } = await test.newMerchant();
  const run = randomBytes(4).toString('hex');
  let next = 0;
  const create = async (index: number) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/v1/collect/payments',
      headers: { authorization: `Bearer ${testKey}`, 'idempotency-key': `census-${run}-${index}`, 'content-type': 'application/json' },
      payload: { reference: `census-${run}-${index}`, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } },
    });
    if (response.statusCode !== 201) throw new Error(`creation answered ${response.statusCode}: ${response.body}`);
  };
  // Warm-up: the ledger accounts open, statements get prepared and named.
  for (let i = 0; i < 20; i++) await create(next++);
  tallies.clear();
  counting = true;
  const started = performance.now();
  const end = next + creations;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < end) await create(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  counting = false;
  const rows = [...tallies.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((sum, [, t]) => sum + t.count, 0);
  const totalMs = rows.reduce((sum, [, t]) => sum + t.ms, 0);
  console.log(`\n${target.name}: ${creations} creations in ${seconds.toFixed(2)} s (${(creations / seconds).toFixed(0)}/s in-process, concurrency ${concurrency})`);
  console.log(
    `  ${(total / creations).toFixed(2)} statements per creation, ${((totalMs / creations) * 1000).toFixed(0)} µs of statement time per creation (wall time of each, overlapping on PostgreSQL)`,
  );
  for (const [text, tally] of rows) console.log(`  ${(tally.count / creations).toFixed(2).padStart(6)} × ${((tally.ms / tally.count) * 1000).toFixed(0).padStart(6)} µs  ${text}`);
  await test.close();
}
