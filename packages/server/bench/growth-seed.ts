/**
 * Seeds a merchant's history for the growth phase, directly in the database and in one statement
 * per table: `rows` payments and `rows` payouts copied from a real one of each (the newest, made
 * through the API just before), so every column holds what the server writes. Per row, the copy
 * gets its own id (UUIDv7-shaped, from its creation time, so lists order it as the server's own
 * ids), reference, creation time (spread evenly over the last SEED_SPAN_DAYS days, oldest first)
 * and a final status, mixed (a failure code on the failed ones). No row is left for the workers
 * (nothing pending, nothing to check), and no ledger rows are written: no list reads them.
 *
 * PostgreSQL: INSERT … SELECT over generate_series, then ANALYZE (what autovacuum does after such a
 * load). SQLite: INSERT … SELECT over a recursive CTE in one IMMEDIATE transaction, then a WAL
 * checkpoint; no ANALYZE, as the server never runs one.
 */
import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { round } from './load.js';

const SEED_SPAN_DAYS = 180;
/** The newest seeded row is this much older than the seeding. */
const SEED_NEWEST_AGE_MS = 60_000;

export type SeedTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface SeedResult {
  rows: number;
  seconds: number;
  /** Creation time of the oldest and newest seeded rows. */
  from: string;
  to: string;
  paymentStatuses: Record<string, number>;
  payoutStatuses: Record<string, number>;
}

/** SQL pieces that differ between the two databases. */
interface Dialect {
  /** 12 (or `width`) lowercase hex digits of an integer expression. */
  hex(expression: string, width: number): string;
  /** ISO 8601 UTC text with milliseconds, of an epoch-milliseconds expression. */
  iso(msExpression: string): string;
}

const sqliteDialect: Dialect = {
  hex: (e, width) => `printf('%0${width}x', ${e})`,
  iso: (ms) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`,
};

const postgresDialect: Dialect = {
  hex: (e, width) => `lpad(to_hex(${e}), ${width}, '0')`,
  iso: (ms) => `to_char(to_timestamp((${ms}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};

/** Status by row number: out of 20 rows, how many get each status. */
const PAYMENT_MIX: [string, number][] = [
  ['completed', 15],
  ['failed', 3],
  ['expired', 1],
  ['cancelled', 1],
];
const PAYOUT_MIX: [string, number][] = [
  ['COMPLETED', 17],
  ['FAILED', 2],
  ['CANCELLED', 1],
];

function statusCase(mix: [string, number][]): string {
  const total = mix.reduce((n, [, share]) => n + share, 0);
  let upTo = 0;
  const branches = mix.map(([status, share]) => {
    upTo += share;
    return `when n % ${total} < ${upTo} then '${status}'`;
  });
  return `case ${branches.join(' ')} end`;
}

function statusCounts(mix: [string, number][], rows: number): Record<string, number> {
  const total = mix.reduce((n, [, share]) => n + share, 0);
  const byRemainder: string[] = mix.flatMap(([status, share]) => Array.from({ length: share }, () => status));
  const counts: Record<string, number> = {};
  for (let n = 1; n <= rows; n++) counts[byRemainder[n % total]!] = (counts[byRemainder[n % total]!] ?? 0) + 1;
  return counts;
}

/** The column expressions of one seeded row, by column name; other columns copy the template `t`. */
function overrides(table: 'payments' | 'payouts', d: Dialect, runId: string, firstMs: number, stepMs: number): Record<string, string> {
  const ms = `(${firstMs} + (n - 1) * ${stepMs})`;
  const h = d.hex(ms, 12);
  const id = `substr(${h}, 1, 8) || '-' || substr(${h}, 9, 4) || '-7' || ${d.hex('n % 4096', 3)} || '-8' || ${d.hex('(n / 4096) % 4096', 3)} || '-' || ${d.hex('n', 12)}`;
  const common: Record<string, string> = {
    id,
    reference: `'seed-${runId}-' || n`,
    created_at: d.iso(ms),
    updated_at: d.iso(`${ms} + 30000`),
    next_check_at: 'null',
  };
  if (table === 'payments') {
    return {
      ...common,
      status: statusCase(PAYMENT_MIX),
      failure_code: `case when ${statusCase(PAYMENT_MIX)} = 'failed' then 'payer_declined' else null end`,
      expires_at: d.iso(`${ms} + 900000`),
      refunded_minor: '0',
      operator_call_started_at: 'null',
      operator_call: 'null',
      checkout_token: 'null',
    };
  }
  return {
    ...common,
    status: statusCase(PAYOUT_MIX),
    failure_code: `case when ${statusCase(PAYOUT_MIX)} = 'FAILED' then 'operator_declined' else null end`,
    handed_off: '1',
    handoff_started_at: 'null',
  };
}

function insertStatement(table: 'payments' | 'payouts', columns: string[], d: Dialect, runId: string, firstMs: number, stepMs: number, series: string): string {
  const exprs = overrides(table, d, runId, firstMs, stepMs);
  const select = columns.map((c) => exprs[c] ?? `t."${c}"`).join(', ');
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) select ${select} from "${table}" t ${series} where t.id = (select id from "${table}" order by id desc limit 1)`;
}

export async function seedHistory(target: SeedTarget, rows: number): Promise<SeedResult> {
  const runId = randomBytes(3).toString('hex');
  const newestMs = Date.now() - SEED_NEWEST_AGE_MS;
  const stepMs = Math.max(1, Math.floor((SEED_SPAN_DAYS * 86_400_000) / rows));
  const firstMs = newestMs - (rows - 1) * stepMs;
  const started = performance.now();
  if (target.kind === 'postgres') {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      for (const table of ['payments', 'payouts'] as const) {
        const { rows: found } = await client.query<{ column_name: string }>(
          'select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1 order by ordinal_position',
          [table],
        );
        await client.query(
          insertStatement(
            table,
            found.map((r) => r.column_name),
            postgresDialect,
            runId,
            firstMs,
            stepMs,
            `cross join generate_series(1::bigint, ${rows}::bigint) as g(n)`,
          ),
        );
        await client.query(`analyze "${table}"`);
      }
    } finally {
      await client.end();
    }
  } else {
    const db = new BetterSqlite3(target.file);
    try {
      db.pragma('busy_timeout = 30000');
      db.transaction(() => {
        for (const table of ['payments', 'payouts'] as const) {
          const columns = (db.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);
          const statement = insertStatement(table, columns, sqliteDialect, runId, firstMs, stepMs, ', g');
          db.prepare(`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${rows}) ${statement}`).run();
        }
      }).immediate();
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  }
  return {
    rows,
    seconds: round((performance.now() - started) / 1000, 1),
    from: new Date(firstMs).toISOString(),
    to: new Date(newestMs).toISOString(),
    paymentStatuses: statusCounts(PAYMENT_MIX, rows),
    payoutStatuses: statusCounts(PAYOUT_MIX, rows),
  };
}
