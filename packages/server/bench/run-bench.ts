/**
 * `npm run bench`: payment creation and lookup throughput and latency of a real Akwe server,
 * next to a bare Fastify app on the same machine, on SQLite and, when it is reachable, PostgreSQL.
 *
 *   1. The bare app (bench/bare-app.ts) in a child process: POST /echo with the creation body, at
 *      BENCH_CONNECTIONS (50) connections for req/s and BENCH_LATENCY_CONNECTIONS (10) for latency.
 *      Measured once; both databases are compared with it.
 *   2. For each database, `akwe serve` in a child process on a fresh database: SQLite in a new
 *      temporary folder (WAL, group commit: every answer waits for the log's fdatasync), then
 *      PostgreSQL: a new database akwe_bench_<random> on the server of DATABASE_URL (or
 *      postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards. Rate limits are lifted.
 *      POST /api/v1/collect/payments (sandbox, direct, mtn_bj, a unique Idempotency-Key and
 *      reference per request) at 50 then 10 connections, then GET /api/v1/collect/payments/{reference}
 *      at 50 connections over the references just created.
 *   3. On PostgreSQL, before Akwe starts, the database's own ceiling (bench/pgbench.ts): `pgbench -N`
 *      at 10 clients for one phase's duration, in a database of its own, dropped afterwards.
 *
 * Prints a table and the targets (SQLite: creation req/s >= 10 % of the bare app's, creation p99 < 25 ms
 * at 10 connections; PostgreSQL: creation req/s >= 30 % of pgbench's tps), writes
 * bench-results/bench-<database>-<timestamp>.json at the repository root for each database, and
 * exits 1 when more than 1 % of the requests of any phase failed (non-2xx or connection error).
 *
 *   4. For each database, the webhook phase (bench/webhooks.ts): a backlog drained to 10 endpoints,
 *      then deliveries under a steady creation load at half the creation rate just measured, with
 *      and without an endpoint that never answers; a table and targets of its own.
 *   5. For each database, the payout phase (bench/payouts.ts), before the webhook phase: payout
 *      creation req/s at 50 connections, then BENCH_PAYOUTS sandbox payouts (paced, then at once)
 *      and the time from each one's creation to its payout.completed webhook, p50/p99.
 *   6. For each database, the bulk phase (bench/bulk.ts), after the payout phase: a BENCH_BULK_LINES
 *      (10 000) line CSV imported, validated and executed in the sandbox; each time and the
 *      server's memory growth, with targets of its own (import + checks < 2 s, execution < 60 s,
 *      growth < 100 MB).
 *
 * Environment: BENCH_WEBHOOKS=0 (skip the webhook phase), BENCH_WEBHOOK_EVENTS (20 000: the
 * drained backlog), BENCH_PAYOUTS (1 000; 0 skips the payout phase), BENCH_PAYOUT_RATE (100: creations
 * per second of the paced payout run), BENCH_BULK_LINES (10 000; 0 skips the bulk phase), BENCH_DATABASES (sqlite, postgres or both; default both, PostgreSQL skipped with a
 * line when unreachable), BENCH_DURATION_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_LATENCY_CONNECTIONS (10),
 * BENCH_WARMUP_REQUESTS (500), BENCH_DATA_DIR (parent of the SQLite folder; os.tmpdir()),
 * BENCH_CPU_PROF=1 (server child under --cpu-prof; profile in bench-results/profiles/),
 * BENCH_PGBENCH (path of pgbench), DATABASE_URL (postgres:// only: the PostgreSQL server to use).
 */
import type autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, statfsSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import type { DatabaseProcesses } from './cpu.js';
import { CREATE_PATH, creationRequests, paymentBody } from './creation-requests.js';
import { round, runLoad, type LoadResult } from './load.js';
import { measurePgbenchCeiling, PGBENCH_CLIENTS, type PgbenchCeiling } from './pgbench.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL, isPostgresUrl, postgresUnavailableReason, safeUrl, type BenchDatabase, cleanUpBenchData } from './postgres.js';
import { bulkReport, bulkTargetLines, measureBulk, type BulkMeasurements } from './bulk.js';
import { measurePayouts, payoutLoads, payoutReport, type PayoutMeasurements } from './payouts.js';
import { measureWebhooks, webhookLoads, webhookReport, webhookTargets, type WebhookMeasurements } from './webhooks.js';
import { freePort, LIFTED_RATE_LIMIT_PER_MINUTE, repoRoot, startAkwe, startBareApp, type AkweServer } from './processes.js';

/** Target: creation req/s at least this share of the bare app's. */
const MIN_CREATE_SHARE_OF_BARE = 0.1;
/** Target: creation p99 at the latency connection count, in ms. */
const MAX_CREATE_P99_MS = 25;
/** Target on PostgreSQL: creation req/s at least this share of pgbench -N's tps on the same server. */
const MIN_CREATE_SHARE_OF_PGBENCH = 0.3;
/** Other processes using more than this many cores during a phase make the run noisy. */
const NOISY_OTHER_CORES = 0.25;
/** A phase with more failed requests than this share fails the run. */
const MAX_FAILURE_RATE = 0.01;

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return value;
}

const settings = {
  durationSeconds: envInt('BENCH_DURATION_SECONDS', 10, 1),
  connections: envInt('BENCH_CONNECTIONS', 50, 1),
  latencyConnections: envInt('BENCH_LATENCY_CONNECTIONS', 10, 1),
  warmupRequests: envInt('BENCH_WARMUP_REQUESTS', 500, 0),
  cpuProfile: process.env.BENCH_CPU_PROF === '1' || process.env.BENCH_CPU_PROF === 'true',
  rateLimitPerMinute: Number(LIFTED_RATE_LIMIT_PER_MINUTE),
  webhooks: process.env.BENCH_WEBHOOKS !== '0' && process.env.BENCH_WEBHOOKS !== 'false',
  webhookEvents: envInt('BENCH_WEBHOOK_EVENTS', 20_000, 3),
  payouts: envInt('BENCH_PAYOUTS', 1_000, 0),
  payoutRate: envInt('BENCH_PAYOUT_RATE', 100, 1),
  bulkLines: envInt('BENCH_BULK_LINES', 10_000, 0),
};

function lookupRequests(testKey: string, references: string[]): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'GET',
      headers: { authorization: `Bearer ${testKey}` },
      setupRequest: (request) => {
        request.path = `${CREATE_PATH}/${references[next % references.length]}`;
        next += 1;
        return request;
      },
    },
  ];
}

function bareRequests(): autocannon.Request[] {
  let counter = 0;
  return [
    {
      method: 'POST',
      path: '/echo',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        counter += 1;
        request.body = paymentBody(`bare-${counter}`);
        return request;
      },
    },
  ];
}

const filesystems: Record<number, string> = { 0xef53: 'ext2/3/4', 0x01021994: 'tmpfs', 0x9123683e: 'btrfs', 0x58465342: 'xfs', 0x794c7630: 'overlayfs', 0x2fc12fc1: 'zfs' };

function filesystemOf(path: string): string {
  try {
    const type = statfsSync(path).type;
    return filesystems[type] ?? `0x${type.toString(16)}`;
  } catch {
    return 'unknown';
  }
}

function gitFacts(): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

function progress(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}

/** Counts warning and error lines in the server's JSON log (pino levels 40 and up). */
function serverProblems(output: string): { warnings: number; errors: number; sample: string[] } {
  const lines = output.split('\n').filter((line) => /"level":(40|50|60)/.test(line));
  return {
    warnings: lines.filter((l) => l.includes('"level":40')).length,
    errors: lines.filter((l) => /"level":(50|60)/.test(l)).length,
    sample: lines.slice(0, 5),
  };
}

async function measureBare(): Promise<{ high: LoadResult; low: LoadResult }> {
  const bare = await startBareApp(await freePort());
  try {
    progress(`bare app on ${bare.url}: warm-up`);
    if (settings.warmupRequests > 0)
      await runLoad({
        title: 'bare warm-up',
        url: bare.url,
        serverPid: bare.child.process.pid,
        connections: settings.latencyConnections,
        amount: settings.warmupRequests,
        requests: bareRequests(),
      });
    progress(`bare app: POST at ${settings.connections} connections for ${settings.durationSeconds} s`);
    const high = await runLoad({
      title: 'bare POST /echo',
      url: bare.url,
      serverPid: bare.child.process.pid,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      requests: bareRequests(),
    });
    progress(`bare app: POST at ${settings.latencyConnections} connections for ${settings.durationSeconds} s`);
    const low = await runLoad({
      title: 'bare POST /echo',
      url: bare.url,
      serverPid: bare.child.process.pid,
      connections: settings.latencyConnections,
      durationSeconds: settings.durationSeconds,
      requests: bareRequests(),
    });
    return { high, low };
  } finally {
    await bare.child.stop();
  }
}

interface AkweMeasurements {
  createHigh: LoadResult;
  createLow: LoadResult;
  getHigh: LoadResult;
  warmup: LoadResult[];
  paymentsCreated: number;
  serverLog: ReturnType<typeof serverProblems>;
  serverExitCode: number | null;
}

async function measureAkwe(server: AkweServer, database: DatabaseProcesses | undefined, label: string): Promise<AkweMeasurements> {
  const runId = randomBytes(4).toString('hex');
  const created: string[] = [];
  const warmup: LoadResult[] = [];
  let exitCode: number | null = null;
  let phases: Pick<AkweMeasurements, 'createHigh' | 'createLow' | 'getHigh'>;
  try {
    if (settings.warmupRequests > 0) {
      progress(`${label} on ${server.url}: warm-up (${settings.warmupRequests} creations and lookups)`);
      warmup.push(
        await runLoad({
          title: 'create warm-up',
          url: server.url,
          serverPid: server.child.process.pid,
          database,
          connections: settings.latencyConnections,
          amount: settings.warmupRequests,
          requests: creationRequests(server.testKey, `w${runId}`, created),
        }),
      );
      if (created.length > 0) {
        warmup.push(
          await runLoad({
            title: 'get warm-up',
            url: server.url,
            serverPid: server.child.process.pid,
            database,
            connections: settings.latencyConnections,
            amount: settings.warmupRequests,
            requests: lookupRequests(server.testKey, [...created]),
          }),
        );
      }
    }
    progress(`${label}: create at ${settings.connections} connections for ${settings.durationSeconds} s`);
    const createHigh = await runLoad({
      title: `${label} POST /collect/payments`,
      url: server.url,
      serverPid: server.child.process.pid,
      database,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      requests: creationRequests(server.testKey, `h${runId}`, created),
    });
    progress(`${label}: create at ${settings.latencyConnections} connections for ${settings.durationSeconds} s`);
    const createLow = await runLoad({
      title: `${label} POST /collect/payments`,
      url: server.url,
      serverPid: server.child.process.pid,
      database,
      connections: settings.latencyConnections,
      durationSeconds: settings.durationSeconds,
      requests: creationRequests(server.testKey, `l${runId}`, created),
    });
    if (created.length === 0) throw new Error(`no payment was created; server output:\n${server.child.output()}`);
    progress(`${label}: get by reference at ${settings.connections} connections for ${settings.durationSeconds} s (${created.length} references)`);
    const getHigh = await runLoad({
      title: `${label} GET /collect/payments/{ref}`,
      url: server.url,
      serverPid: server.child.process.pid,
      database,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      requests: lookupRequests(server.testKey, created),
    });
    phases = { createHigh, createLow, getHigh };
    // autocannon drops its connections when a phase ends, but the server still finishes the
    // requests they had in flight: let them finish before the shutdown closes the database.
    await new Promise((r) => setTimeout(r, 1000));
  } finally {
    progress(`${label}: stopping the server`);
    exitCode = await server.child.stop(30_000);
    if (exitCode !== 0) progress(`akwe serve exited with ${exitCode}`);
  }
  return { ...phases, warmup, paymentsCreated: created.length, serverLog: serverProblems(server.child.output()), serverExitCode: exitCode };
}

function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function tableRow(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
}

type DatabaseKind = 'sqlite' | 'postgres';
const DATABASE_ORDER: DatabaseKind[] = ['sqlite', 'postgres'];

/** BENCH_DATABASES: which databases to run; unset means both, PostgreSQL only when reachable. */
function wantedDatabases(): { kinds: DatabaseKind[]; explicit: boolean } {
  const raw = process.env.BENCH_DATABASES?.trim();
  if (!raw) return { kinds: [...DATABASE_ORDER], explicit: false };
  const names = raw
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((n) => n !== '');
  for (const name of names) {
    if (!DATABASE_ORDER.includes(name as DatabaseKind)) throw new Error(`BENCH_DATABASES must list sqlite and/or postgres, e.g. "sqlite,postgres" (got "${raw}")`);
  }
  return { kinds: DATABASE_ORDER.filter((k) => names.includes(k)), explicit: true };
}

interface DatabaseRun {
  kind: DatabaseKind;
  facts: Record<string, unknown>;
  akwe: AkweMeasurements;
  /** PostgreSQL only: pgbench's figure on the same server, or why there is none. */
  ceiling: PgbenchCeiling | null;
  /** The webhook phase, unless BENCH_WEBHOOKS=0. */
  webhooks: WebhookMeasurements | null;
  /** The payout phase, unless BENCH_PAYOUTS=0. */
  payouts: PayoutMeasurements | null;
  /** The bulk phase, unless BENCH_BULK_LINES=0. */
  bulk: BulkMeasurements | null;
}

/** One database: on PostgreSQL pgbench first (no Akwe server running yet), then Akwe on a fresh database. */
async function measureDatabase(kind: DatabaseKind, postgresUrl: string, profileDir: string): Promise<DatabaseRun> {
  let ceiling: PgbenchCeiling | null = null;
  if (kind === 'postgres') {
    ceiling = await measurePgbenchCeiling(postgresUrl, settings.durationSeconds, progress);
    progress(ceiling.measured ? `pgbench: ${fmt(ceiling.tps)} tps` : `pgbench: the database's ceiling could not be measured: ${ceiling.reason}`);
  }
  let benchDatabase: BenchDatabase | undefined;
  let sqliteRoot: string | undefined;
  try {
    sqliteRoot = mkdtempSync(join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'akwe-bench-'));
    let facts: Record<string, unknown>;
    if (kind === 'postgres') {
      benchDatabase = await createBenchDatabase(postgresUrl);
      progress(`created database ${benchDatabase.name}`);
      facts = { kind, description: safeUrl(benchDatabase.url), settings: benchDatabase.settings, poolSize: 10 };
    } else {
      facts = {
        kind,
        description: `sqlite:${join(sqliteRoot, 'akwe.db')}`,
        journalMode: 'wal',
        durability: 'group commit: each answer waits for an fdatasync of the WAL',
        filesystem: filesystemOf(sqliteRoot),
      };
      if (filesystemOf(sqliteRoot) === 'tmpfs') progress('WARNING: the SQLite folder is on tmpfs, where fsync costs nothing: set BENCH_DATA_DIR to a disk folder');
    }
    const server = await startAkwe({
      port: await freePort(),
      dataDir: sqliteRoot,
      ...(benchDatabase ? { databaseUrl: benchDatabase.url } : {}),
      ...(settings.cpuProfile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
    });
    const akwe = await measureAkwe(server, benchDatabase ? { name: 'postgres', titleIncludes: ` ${benchDatabase.name} ` } : undefined, `akwe/${kind}`);
    const payouts =
      settings.payouts > 0
        ? await measurePayouts(
            kind,
            postgresUrl,
            {
              durationSeconds: settings.durationSeconds,
              connections: settings.connections,
              warmupRequests: settings.warmupRequests,
              payouts: settings.payouts,
              pacedRate: settings.payoutRate,
              ...(settings.cpuProfile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
              ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}),
            },
            progress,
          )
        : null;
    const bulk =
      settings.bulkLines > 0
        ? await measureBulk(
            kind,
            postgresUrl,
            {
              lines: settings.bulkLines,
              ...(settings.cpuProfile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
              ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}),
            },
            progress,
          )
        : null;
    const webhooks = settings.webhooks
      ? await measureWebhooks(
          kind,
          postgresUrl,
          akwe.createHigh.requestsPerSecond,
          {
            events: settings.webhookEvents,
            durationSeconds: settings.durationSeconds,
            connections: settings.connections,
            ...(settings.cpuProfile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
            ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}),
          },
          progress,
        )
      : null;
    return { kind, facts, akwe, ceiling, webhooks, payouts, bulk };
  } finally {
    await cleanUpBenchData(benchDatabase, sqliteRoot, progress);
  }
}

interface Target {
  name: string;
  /** Measured share (0..1) or ms; null when it could not be measured. */
  value: number | null;
  threshold: number;
  pass: boolean | null;
  unit: 'share' | 'ms';
  note?: string;
}

function targetLine(t: Target): string {
  const verdict = t.pass === null ? '----' : t.pass ? 'PASS' : 'FAIL';
  const measured =
    t.value === null ? `not measured: ${t.note ?? 'no figure'}` : `measured ${t.unit === 'ms' ? `${fmt(t.value, 2)} ms` : `${fmt(t.value * 100)} %`}${t.note ? `; ${t.note}` : ''}`;
  return `${verdict}  ${t.name} (${measured})`;
}

function sqliteTargets(createShare: number, createP99Ms: number): Target[] {
  return [
    {
      name: `creation req/s at ${settings.connections} connections >= ${MIN_CREATE_SHARE_OF_BARE * 100} % of the bare app's`,
      value: round(createShare, 3),
      threshold: MIN_CREATE_SHARE_OF_BARE,
      pass: createShare >= MIN_CREATE_SHARE_OF_BARE,
      unit: 'share',
    },
    {
      name: `creation p99 at ${settings.latencyConnections} connections < ${MAX_CREATE_P99_MS} ms`,
      value: createP99Ms,
      threshold: MAX_CREATE_P99_MS,
      pass: createP99Ms < MAX_CREATE_P99_MS,
      unit: 'ms',
    },
  ];
}

function pgbenchTarget(createRequestsPerSecond: number, ceiling: PgbenchCeiling): Target {
  const name = `creation req/s at ${settings.connections} connections >= ${MIN_CREATE_SHARE_OF_PGBENCH * 100} % of pgbench -N's tps at ${PGBENCH_CLIENTS} clients`;
  if (!ceiling.measured) return { name, value: null, threshold: MIN_CREATE_SHARE_OF_PGBENCH, pass: null, unit: 'share', note: ceiling.reason };
  const share = createRequestsPerSecond / ceiling.tps;
  return {
    name,
    value: round(share, 3),
    threshold: MIN_CREATE_SHARE_OF_PGBENCH,
    pass: share >= MIN_CREATE_SHARE_OF_PGBENCH,
    unit: 'share',
    note: `${fmt(createRequestsPerSecond)} req/s against ${fmt(ceiling.tps)} tps`,
  };
}

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL: it names the PostgreSQL server of the PostgreSQL run (SQLite always runs in a fresh folder)');
  }
  const postgresUrl = databaseUrl ?? DEFAULT_POSTGRES_URL;
  const wanted = wantedDatabases();
  const skipped: Partial<Record<DatabaseKind, string>> = {};
  let kinds = wanted.kinds;
  if (kinds.includes('postgres')) {
    const reason = await postgresUnavailableReason(postgresUrl);
    if (reason !== null) {
      if (wanted.explicit) throw new Error(`BENCH_DATABASES asks for PostgreSQL, but ${reason}`);
      skipped.postgres = databaseUrl ? reason : `${reason} (DATABASE_URL is unset, so the local default was tried)`;
      kinds = kinds.filter((k) => k !== 'postgres');
      progress(`PostgreSQL skipped: ${skipped.postgres}`);
    }
  }
  const startedAt = new Date();
  const loadAtStart = loadavg().map((l) => round(l, 2));
  const webhookSeconds = settings.webhooks ? settings.durationSeconds * 2 + settings.webhookEvents / 1000 + 40 : 0;
  const payoutSeconds = settings.payouts > 0 ? settings.durationSeconds * 2 + settings.payouts / settings.payoutRate + 30 : 0;
  const bulkSeconds = settings.bulkLines > 0 ? 15 + settings.bulkLines / 250 : 0;
  const expectedSeconds =
    settings.durationSeconds * 2 +
    10 +
    kinds.reduce((n, k) => n + webhookSeconds + payoutSeconds + bulkSeconds + (k === 'sqlite' ? settings.durationSeconds * 3 + 10 : settings.durationSeconds * 4 + 25), 0);
  progress(`databases: ${kinds.join(', ')}; ${settings.durationSeconds} s per phase, about ${expectedSeconds} s in all`);

  const bare = await measureBare();
  const profileDir = join(repoRoot, 'bench-results', 'profiles');
  if (settings.cpuProfile) mkdirSync(profileDir, { recursive: true });
  const runs: DatabaseRun[] = [];
  for (const kind of kinds) runs.push(await measureDatabase(kind, postgresUrl, profileDir));

  // The table: the bare app once, then each database (on PostgreSQL, pgbench's row first).
  const widths = [40, 6, 9, 8, 8, 8, 7, 8, 7, 8];
  const loadRow = (r: LoadResult) =>
    tableRow(
      [
        r.title,
        String(r.connections),
        fmt(r.requestsPerSecond),
        fmt(r.latencyMs.p50, 2),
        fmt(r.latencyMs.p99, 2),
        String(r.non2xx),
        String(r.errors),
        fmt(r.cpu.server ?? NaN, 2),
        fmt(r.cpu.database ?? NaN, 2),
        fmt(r.cpu.other ?? NaN, 2),
      ],
      widths,
    );
  const lines = [
    '',
    `Akwe benchmark, ${kinds.join(' and ')}, ${startedAt.toISOString()}; ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}`,
    `(the load generator runs on the same cores as the server: figures are lower bounds)`,
    '',
    tableRow(['phase', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'srv cpu', 'db cpu', 'oth cpu'], widths),
    tableRow(['-'.repeat(widths[0]!), '-----', '-----', '------', '------', '-------', '------', '-------', '------', '-------'], widths),
    loadRow(bare.high),
    loadRow(bare.low),
  ];
  for (const run of runs) {
    const c = run.ceiling;
    if (c?.measured) {
      lines.push(
        tableRow(
          [
            `pgbench -N on postgres (tps)`,
            String(c.clients),
            fmt(c.tps),
            '-',
            '-',
            c.failedTransactions === null ? '-' : String(c.failedTransactions),
            '-',
            fmt(c.cpu.server ?? NaN, 2),
            fmt(c.cpu.database ?? NaN, 2),
            fmt(c.cpu.other ?? NaN, 2),
          ],
          widths,
        ),
      );
    }
    lines.push(loadRow(run.akwe.createHigh), loadRow(run.akwe.createLow), loadRow(run.akwe.getHigh));
    if (run.payouts) lines.push(loadRow(run.payouts.creation.load));
  }
  lines.push(
    '(cores used on average: srv by the process under test (for pgbench, its client), db by the PostgreSQL backends of the bench database, oth by anything else but the load generator)',
  );

  const resultsDir = join(repoRoot, 'bench-results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const git = gitFacts();
  const bareMeasured = [bare.high, bare.low];
  let busiestOther = 0;
  let exitCode = 0;
  const written: string[] = [];
  const notes: string[] = [];

  for (const run of runs) {
    const { akwe, ceiling } = run;
    const createShare = akwe.createHigh.requestsPerSecond / bare.high.requestsPerSecond;
    const figures: Record<string, number | null> = {
      bareRequestsPerSecond: bare.high.requestsPerSecond,
      bareP50Ms: bare.low.latencyMs.p50,
      bareP99Ms: bare.low.latencyMs.p99,
      createRequestsPerSecond: akwe.createHigh.requestsPerSecond,
      createP50Ms: akwe.createLow.latencyMs.p50,
      createP99Ms: akwe.createLow.latencyMs.p99,
      createShareOfBare: round(createShare, 3),
      getRequestsPerSecond: akwe.getHigh.requestsPerSecond,
      getShareOfBare: round(akwe.getHigh.requestsPerSecond / bare.high.requestsPerSecond, 3),
    };
    const onSqlite = sqliteTargets(createShare, akwe.createLow.latencyMs.p99);
    let targets: Target[];
    let referenceTargets: Target[] = [];
    if (run.kind === 'postgres' && ceiling) {
      const target = pgbenchTarget(akwe.createHigh.requestsPerSecond, ceiling);
      figures.pgbenchTps = ceiling.measured ? round(ceiling.tps, 1) : null;
      figures.createShareOfPgbench = target.value;
      targets = [target];
      referenceTargets = onSqlite;
    } else {
      targets = onSqlite;
    }
    if (run.payouts) {
      figures.payoutCreateRequestsPerSecond = run.payouts.creation.load.requestsPerSecond;
      for (const r of run.payouts.runs) {
        const key = r.name === 'paced' ? 'payoutPaced' : 'payoutAtOnce';
        figures[`${key}ToWebhookP50Ms`] = r.totalMs.p50;
        figures[`${key}ToWebhookP99Ms`] = r.totalMs.p99;
        figures[`${key}ToCompletedP50Ms`] = r.completedMs.p50;
        figures[`${key}ToCompletedP99Ms`] = r.completedMs.p99;
      }
    }
    const measured = [
      ...bareMeasured,
      akwe.createHigh,
      akwe.createLow,
      akwe.getHigh,
      ...(run.webhooks ? webhookLoads(run.webhooks) : []),
      ...(run.payouts ? payoutLoads(run.payouts) : []),
    ];
    const failedRequests = measured.reduce((n, r) => n + r.non2xx + r.errors, 0);
    const failedPhases = measured.filter((r) => r.failureRate > MAX_FAILURE_RATE);
    const runOther = Math.max(...measured.map((r) => r.cpu.other ?? 0), ceiling?.measured ? (ceiling.cpu.other ?? 0) : 0);
    busiestOther = Math.max(busiestOther, runOther);

    lines.push('', `${run.kind}:`);
    if (ceiling) {
      lines.push(
        ceiling.measured
          ? `  ceiling:  pgbench -N: ${fmt(ceiling.tps)} tps at ${ceiling.clients} clients, ${ceiling.threads} threads, scale ${ceiling.scale}, ${ceiling.durationSeconds} s (latency average ${fmt(ceiling.latencyAverageMs ?? NaN, 2)} ms), no Akwe server running`
          : `  ceiling:  the database's ceiling could not be measured: ${ceiling.reason}`,
      );
    }
    const ofPgbench = figures.createShareOfPgbench === undefined || figures.createShareOfPgbench === null ? '' : `${fmt(figures.createShareOfPgbench * 100)} % of pgbench's tps, `;
    lines.push(
      `  creation: ${fmt(akwe.createHigh.requestsPerSecond)} req/s at ${settings.connections} connections = ${ofPgbench}${fmt(createShare * 100)} % of the bare app (${fmt(bare.high.requestsPerSecond)} req/s); p50 ${fmt(akwe.createLow.latencyMs.p50, 2)} ms, p99 ${fmt(akwe.createLow.latencyMs.p99, 2)} ms at ${settings.latencyConnections} connections`,
      `  lookup:   ${fmt(akwe.getHigh.requestsPerSecond)} req/s at ${settings.connections} connections = ${fmt((akwe.getHigh.requestsPerSecond / bare.high.requestsPerSecond) * 100)} % of the bare app`,
      `  target${targets.length > 1 ? 's' : ''}:`,
      ...targets.map((t) => `    ${targetLine(t)}`),
    );
    if (referenceTargets.length > 0) lines.push(`  SQLite's targets, shown for reference:`, ...referenceTargets.map((t) => `    ${targetLine(t)}`));
    if (run.payouts) lines.push(...payoutReport(run.payouts));
    if (run.bulk) {
      lines.push(...bulkReport(run.bulk), '  targets:', ...bulkTargetLines(run.bulk).map((t) => `    ${t.ok ? 'PASS' : 'FAIL'}  ${t.name} (measured ${t.detail})`));
      figures.bulkImportAndChecksMs = run.bulk.importMs + run.bulk.checksMs;
      figures.bulkExecutionSeconds = run.bulk.executionSeconds;
      figures.bulkMemoryGrowthMb = run.bulk.memoryMb.growth;
    }
    if (run.webhooks) lines.push(...webhookReport(run.webhooks, run.kind === 'sqlite'));
    if (failedRequests > 0) {
      notes.push(`WARNING (${run.kind}): ${failedRequests} request(s) failed (non-2xx or connection errors) in the measured phases.`);
      for (const r of measured.filter((m) => m.non2xx + m.errors > 0))
        notes.push(`  ${r.title} at ${r.connections}: status codes ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}`);
    }
    if (akwe.serverLog.warnings + akwe.serverLog.errors > 0) {
      notes.push(
        `The ${run.kind} server logged ${akwe.serverLog.warnings} warning(s) and ${akwe.serverLog.errors} error(s); first lines:`,
        ...akwe.serverLog.sample.map((l) => `  ${l.slice(0, 300)}`),
      );
    }
    if (failedPhases.length > 0) {
      process.stderr.write(
        `FAILED (${run.kind}): more than ${MAX_FAILURE_RATE * 100} % of the requests failed in ${failedPhases.map((r) => `${r.title} at ${r.connections}`).join(', ')}\n`,
      );
      exitCode = 1;
    }

    const results = {
      benchmark: 'akwe collect payments',
      schemaVersion: 2,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      database: run.facts,
      run: { databases: kinds, skipped, bareAppSharedByDatabases: true },
      machine: {
        cpuModel: cpus()[0]?.model ?? null,
        cores: availableParallelism(),
        totalMemoryGiB: round(totalmem() / 2 ** 30, 1),
        platform: process.platform,
        kernel: release(),
        node: process.version,
        loadGeneratorOnSameMachine: true,
        loadAverageAtStart: loadAtStart,
      },
      git,
      settings: { ...settings, pipelining: 1, sandboxOperator: 'mtn_bj', amount: 3000, currency: 'XOF' },
      figures,
      targets,
      ...(referenceTargets.length > 0 ? { referenceTargets } : {}),
      ...(ceiling ? { ceiling } : {}),
      quiet: runOther <= NOISY_OTHER_CORES,
      failures: { requests: failedRequests, phasesOverLimit: failedPhases.map((r) => `${r.title} at ${r.connections}`), maxFailureRate: MAX_FAILURE_RATE },
      phases: { bare: { post: bare.high, postLatency: bare.low }, akwe: { create: akwe.createHigh, createLatency: akwe.createLow, get: akwe.getHigh, warmup: akwe.warmup } },
      server: { paymentsCreated: akwe.paymentsCreated, exitCode: akwe.serverExitCode, log: akwe.serverLog, cpuProfileDir: settings.cpuProfile ? profileDir : null },
      webhooks: run.webhooks ? { ...run.webhooks, targets: webhookTargets(run.webhooks), targetsApply: run.kind === 'sqlite' } : null,
      payouts: run.payouts,
      bulk: run.bulk ? { ...run.bulk, targets: bulkTargetLines(run.bulk) } : null,
    };
    const file = join(resultsDir, `bench-${run.kind}-${stamp}.json`);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    written.push(relative(repoRoot, file));
  }

  if (skipped.postgres) lines.push('', `postgres: skipped: ${skipped.postgres}. Set DATABASE_URL=postgres://… to name a server, or BENCH_DATABASES=sqlite to run SQLite alone.`);
  if (notes.length > 0) lines.push('', ...notes);
  if (busiestOther > NOISY_OTHER_CORES) {
    lines.push('', `WARNING: other processes used up to ${fmt(busiestOther, 2)} cores during a phase: the machine was not quiet, the figures are not reliable.`);
  }
  lines.push('', `results: ${written.join(', ')}`);
  if (settings.cpuProfile)
    lines.push(
      `cpu profile of the server: ${relative(repoRoot, profileDir)}/ (summarise from packages/server: npx tsx bench/profile-summary.ts ../../${relative(repoRoot, profileDir)}/<file>)`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
