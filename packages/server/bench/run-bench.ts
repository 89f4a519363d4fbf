/**
 * `npm run bench`: payment creation and lookup throughput and latency of a real Akwe server, next
 * to the ceilings it is judged against, on SQLite and, when it is reachable, PostgreSQL; then the
 * other phases, each on a fresh database; a summary of every target with PASS/FAIL at the end.
 *
 *   1. The bare app (bench/bare-app.ts) in a child process: POST /echo with the creation body, at
 *      BENCH_CONNECTIONS (50) connections for req/s and BENCH_LATENCY_CONNECTIONS (10) for latency.
 *      Measured once; both databases are compared with it (a figure, not a target).
 *   2. For each database, `akwe serve` in a child process on a fresh database: SQLite in a new
 *      temporary folder (WAL, group commit: every answer waits for the log's fdatasync), then
 *      PostgreSQL: a new database akwe_bench_<random> on the server of DATABASE_URL (or
 *      postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards. Rate limits are lifted.
 *      POST /api/v1/collect/payments (sandbox, direct, mtn_bj, a unique Idempotency-Key and
 *      reference per request) at 50 then 10 connections, then GET /api/v1/collect/payments/{reference}
 *      at 50 connections over the references just created.
 *   3. PostgreSQL's ceiling (bench/pgbench.ts): `pgbench -N` at 10 clients in a database of its own,
 *      alternating with the creation phase at 50 connections: pgbench, Akwe, pgbench, Akwe, pgbench,
 *      Akwe (the Akwe server idle while pgbench runs); the medians are compared.
 *   4. SQLite's storage ceiling (bench/sqlite-ceiling.ts), once the server has stopped: the
 *      statements of BENCH_CEILING_CREATIONS (5 000) real creations, captured from the app, replayed
 *      through the server's group commit with its pragmas and durability, no HTTP.
 *   4b. SQLite's A/B phase (bench/baseline-ab.ts): creation at 50 connections of the baseline commit
 *      (BENCH_BASELINE_COMMIT, 453da54; `none` skips it), started from a git worktree of its own,
 *      alternating with this checkout's, three runs each on fresh databases; the medians compared.
 *   5. For each database, the payout phase (bench/payouts.ts): payout creation req/s at 50
 *      connections, then BENCH_PAYOUTS sandbox payouts (paced, then at once) and the time from each
 *      one's creation to its payout.completed webhook, p50/p99.
 *   6. For each database, the bulk phase (bench/bulk.ts): a BENCH_BULK_LINES (10 000) line CSV
 *      imported, validated and executed in the sandbox; each time and the server's memory growth.
 *   7. For each database, the growth phase (bench/growth.ts): BENCH_GROWTH_ROWS (1 000 000) payments
 *      and as many payouts seeded for one merchant; creation against the empty database, the first
 *      page of both lists, a status-filtered page, the CSV export with the server's memory.
 *   8. For each database, the webhook phase (bench/webhooks.ts): a backlog drained to 10 endpoints,
 *      then deliveries under a steady creation load at half the creation rate just measured, with
 *      and without an endpoint that never answers.
 *   9. For each database, the event-stream phase (bench/streams.ts; alone: `npm run bench:streams`):
 *      creation p50 and /health p50 with the per-merchant cap of event streams open, against none
 *      open (target: within 20 %); BENCH_STREAMS=0 skips it.
 *
 * Targets of issue #25: SQLite creation req/s >= 50 % of its storage ceiling and p99 <= 25 ms at 10
 * connections and >= 1.6x the baseline commit's creation req/s; PostgreSQL creation req/s >= 30 % of pgbench's tps; with 1 000 000 rows, creation
 * within 20 % of the empty database, first list page p99 <= 10 ms, status-filtered page p99 <= 20 ms,
 * the export < 60 s with < 100 MB of server memory growth. The other phases have targets of their
 * own. Writes bench-results/bench-<database>-<timestamp>.json for each database and
 * bench-results/bench-summary-<timestamp>.json (every target) at the repository root, and exits 1
 * when more than 1 % of the requests of any load phase failed (non-2xx or connection error).
 *
 * Environment: BENCH_DATABASES (sqlite, postgres or both; default both, PostgreSQL skipped with a
 * line when unreachable), BENCH_DURATION_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_LATENCY_CONNECTIONS
 * (10), BENCH_WARMUP_REQUESTS (500), BENCH_CEILING_CREATIONS (5 000), BENCH_GROWTH_ROWS (1 000 000; 0
 * skips the growth phase), BENCH_PAYOUTS (1 000; 0 skips the payout phase), BENCH_PAYOUT_RATE (100:
 * creations per second of the paced payout run), BENCH_BULK_LINES (10 000; 0 skips the bulk phase),
 * BENCH_WEBHOOKS=0 (skip the webhook phase), BENCH_WEBHOOK_EVENTS (20 000: the drained backlog),
 * BENCH_DATA_DIR (parent of the SQLite folders; os.tmpdir()), BENCH_CPU_PROF=1 (server children
 * under --cpu-prof; profiles in bench-results/profiles/), BENCH_PGBENCH (path of pgbench),
 * BENCH_BASELINE_COMMIT (453da54; `none` skips the A/B phase),
 * DATABASE_URL (postgres:// only: the PostgreSQL server to use).
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
import { growthReport, growthTargetList, measureGrowth, type GrowthMeasurements } from './growth.js';
import { openPgbench, PGBENCH_CLIENTS, type PgbenchCeiling, type PgbenchMeasured, type PgbenchSession } from './pgbench.js';
import { measureSqliteCeiling, type SqliteCeiling } from './sqlite-ceiling.js';
import { DEFAULT_BASELINE_COMMIT, measureBaselineAb, type BaselineAb } from './baseline-ab.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL, isPostgresUrl, postgresUnavailableReason, safeUrl, type BenchDatabase, cleanUpBenchData } from './postgres.js';
import { bulkReport, bulkTargetLines, measureBulk, type BulkMeasurements } from './bulk.js';
import { measurePayouts, payoutLoads, payoutReport, type PayoutMeasurements } from './payouts.js';
import { envInt, exitWith } from './settings.js';
import { measureWebhooks, webhookLoads, webhookReport, webhookTargets, type WebhookMeasurements } from './webhooks.js';
import { measureStreams, streamLoads, streamReport, streamTargets, type StreamMeasurements } from './streams.js';
import { ensureCompiledBuild, freePort, LIFTED_RATE_LIMIT_PER_MINUTE, repoRoot, startAkwe, startBareApp, type AkweServer } from './processes.js';

/** Target on SQLite: creation req/s at least this share of the storage ceiling (bench/sqlite-ceiling.ts). */
const MIN_CREATE_SHARE_OF_STORAGE = 0.5;
/** Target on SQLite: creation p99 at the latency connection count, in ms. */
const MAX_CREATE_P99_MS = 25;
/** Target on SQLite: creation req/s at least this many times the baseline commit's (bench/baseline-ab.ts). */
const MIN_CREATE_RATIO_TO_BASELINE = 1.6;
/** PostgreSQL: pgbench and the creation phase each run this many times, alternating. */
const CEILING_ROUNDS = 3;
/** Target on PostgreSQL: creation req/s at least this share of pgbench -N's tps on the same server. */
const MIN_CREATE_SHARE_OF_PGBENCH = 0.3;
/** Other processes using more than this many cores during a phase make the run noisy. */
const NOISY_OTHER_CORES = 0.25;
/** A phase with more failed requests than this share fails the run. */
const MAX_FAILURE_RATE = 0.01;

const settings = {
  durationSeconds: envInt('BENCH_DURATION_SECONDS', 10, 1),
  connections: envInt('BENCH_CONNECTIONS', 50, 1),
  latencyConnections: envInt('BENCH_LATENCY_CONNECTIONS', 10, 1),
  warmupRequests: envInt('BENCH_WARMUP_REQUESTS', 500, 0),
  cpuProfile: process.env.BENCH_CPU_PROF === '1' || process.env.BENCH_CPU_PROF === 'true',
  rateLimitPerMinute: Number(LIFTED_RATE_LIMIT_PER_MINUTE),
  webhooks: process.env.BENCH_WEBHOOKS !== '0' && process.env.BENCH_WEBHOOKS !== 'false',
  streams: process.env.BENCH_STREAMS !== '0' && process.env.BENCH_STREAMS !== 'false',
  webhookEvents: envInt('BENCH_WEBHOOK_EVENTS', 20_000, 3),
  payouts: envInt('BENCH_PAYOUTS', 1_000, 0),
  payoutRate: envInt('BENCH_PAYOUT_RATE', 100, 1),
  bulkLines: envInt('BENCH_BULK_LINES', 10_000, 0),
  growthRows: envInt('BENCH_GROWTH_ROWS', 1_000_000, 0),
  ceilingCreations: envInt('BENCH_CEILING_CREATIONS', 5_000, 100),
  /** `none` skips the A/B phase. */
  baselineCommit: process.env.BENCH_BASELINE_COMMIT?.trim() || DEFAULT_BASELINE_COMMIT,
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
  /** The median of createHighRuns by req/s. */
  createHigh: LoadResult;
  /** One run on SQLite; on PostgreSQL one per pgbench run, alternating with them. */
  createHighRuns: LoadResult[];
  /** PostgreSQL: pgbench's runs, each just before the creation run of the same index. */
  pgbenchRuns: PgbenchCeiling[];
  createLow: LoadResult;
  getHigh: LoadResult;
  warmup: LoadResult[];
  paymentsCreated: number;
  serverLog: ReturnType<typeof serverProblems>;
  serverExitCode: number | null;
}

/** The element whose `key` is the median (the lower middle one of an even count). */
function medianBy<T>(items: T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

async function measureAkwe(
  server: AkweServer,
  database: DatabaseProcesses | undefined,
  label: string,
  pgbench: PgbenchSession | undefined,
  benchDatabase: BenchDatabase | undefined,
): Promise<AkweMeasurements> {
  // Autovacuum, when the server runs it, analyzes the tables as they grow; the bench does it in its place otherwise.
  const analyze = async (when: string) => {
    if (await benchDatabase?.analyzeIfAutovacuumOff()) progress(`${label}: autovacuum is off on this server: ANALYZE ${when}`);
  };
  const runId = randomBytes(4).toString('hex');
  const created: string[] = [];
  const warmup: LoadResult[] = [];
  let exitCode: number | null = null;
  let phases: Pick<AkweMeasurements, 'createHigh' | 'createHighRuns' | 'createLow' | 'getHigh'>;
  const pgbenchRuns: PgbenchCeiling[] = [];
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
    await analyze('after the warm-up');
    // On PostgreSQL, pgbench and the creation phase alternate (pgbench, Akwe, three times; the Akwe
    // server idle while pgbench runs), so that both see the same machine; the medians are compared.
    const rounds = pgbench ? CEILING_ROUNDS : 1;
    const createHighRuns: LoadResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      if (pgbench) {
        const ceiling = await pgbench.run(settings.durationSeconds);
        pgbenchRuns.push(ceiling);
        progress(ceiling.measured ? `pgbench: ${fmt(ceiling.tps)} tps (run ${round} of ${rounds})` : `pgbench: the database's ceiling could not be measured: ${ceiling.reason}`);
      }
      progress(`${label}: create at ${settings.connections} connections for ${settings.durationSeconds} s${rounds > 1 ? ` (run ${round} of ${rounds})` : ''}`);
      createHighRuns.push(
        await runLoad({
          title: `${label} POST /collect/payments`,
          url: server.url,
          serverPid: server.child.process.pid,
          database,
          connections: settings.connections,
          durationSeconds: settings.durationSeconds,
          requests: creationRequests(server.testKey, `h${round}${runId}`, created),
        }),
      );
    }
    const createHigh = medianBy(createHighRuns, (r) => r.requestsPerSecond);
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
    await analyze('before the lookups');
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
    phases = { createHigh, createHighRuns, createLow, getHigh };
    // autocannon drops its connections when a phase ends, but the server still finishes the
    // requests they had in flight: let them finish before the shutdown closes the database.
    await new Promise((r) => setTimeout(r, 1000));
  } finally {
    progress(`${label}: stopping the server`);
    exitCode = await server.child.stop(30_000);
    if (exitCode !== 0) progress(`akwe serve exited with ${exitCode}`);
  }
  return { ...phases, pgbenchRuns, warmup, paymentsCreated: created.length, serverLog: serverProblems(server.child.output()), serverExitCode: exitCode };
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
  /** PostgreSQL only: pgbench's median run on the same server, or why there is none. */
  ceiling: PgbenchCeiling | null;
  /** SQLite only: the storage ceiling (bench/sqlite-ceiling.ts). */
  storageCeiling: SqliteCeiling | null;
  /** SQLite only: creation against the baseline commit, unless BENCH_BASELINE_COMMIT=none. */
  baselineAb: BaselineAb | null;
  /** The growth phase, unless BENCH_GROWTH_ROWS=0. */
  growth: GrowthMeasurements | null;
  /** The webhook phase, unless BENCH_WEBHOOKS=0. */
  webhooks: WebhookMeasurements | null;
  /** The payout phase, unless BENCH_PAYOUTS=0. */
  payouts: PayoutMeasurements | null;
  /** The bulk phase, unless BENCH_BULK_LINES=0. */
  bulk: BulkMeasurements | null;
  /** The event-stream phase, unless BENCH_STREAMS=0. */
  streams: StreamMeasurements | null;
}

/** pgbench's median run by tps, or why there is none. */
function pgbenchMedian(runs: PgbenchCeiling[], skipped: PgbenchCeiling | null): PgbenchCeiling {
  const measured = runs.filter((r): r is PgbenchMeasured => r.measured);
  if (measured.length === 0) return skipped ?? runs[0] ?? { measured: false, binary: null, reason: 'pgbench did not run' };
  return medianBy(measured, (r) => r.tps);
}

/**
 * One database on a fresh database of its own: Akwe's load phases (on PostgreSQL alternating with
 * pgbench in a database of its own), then on SQLite the storage ceiling, then the other phases,
 * each on a fresh database.
 */
async function measureDatabase(kind: DatabaseKind, postgresUrl: string, profileDir: string): Promise<DatabaseRun> {
  let pgbench: PgbenchSession | undefined;
  let pgbenchSkipped: PgbenchCeiling | null = null;
  if (kind === 'postgres') {
    const opened = await openPgbench(postgresUrl, progress);
    if ('run' in opened) pgbench = opened;
    else {
      pgbenchSkipped = opened;
      progress(`pgbench: the database's ceiling could not be measured: ${opened.reason}`);
    }
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
    const akwe = await measureAkwe(server, benchDatabase ? { name: 'postgres', titleIncludes: ` ${benchDatabase.name} ` } : undefined, `akwe/${kind}`, pgbench, benchDatabase);
    await pgbench?.close();
    pgbench = undefined;
    const ceiling = kind === 'postgres' ? pgbenchMedian(akwe.pgbenchRuns, pgbenchSkipped) : null;
    // The storage ceiling runs in this process once the server has stopped: neither slows the other.
    const storageCeiling =
      kind === 'sqlite'
        ? await measureSqliteCeiling(
            { creations: settings.ceilingCreations, concurrency: settings.connections, ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}) },
            progress,
          )
        : null;
    if (storageCeiling) progress(`sqlite ceiling: ${fmt(storageCeiling.creationsPerSecond)} creations/s`);
    const baselineAb =
      kind === 'sqlite' && settings.baselineCommit !== 'none'
        ? await measureBaselineAb(
            {
              commit: settings.baselineCommit,
              rounds: CEILING_ROUNDS,
              durationSeconds: settings.durationSeconds,
              connections: settings.connections,
              warmupRequests: settings.warmupRequests,
              warmupConnections: settings.latencyConnections,
              ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}),
            },
            progress,
          )
        : null;
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
    const growth =
      settings.growthRows > 0
        ? await measureGrowth(
            kind,
            postgresUrl,
            {
              rows: settings.growthRows,
              durationSeconds: settings.durationSeconds,
              connections: settings.connections,
              latencyConnections: settings.latencyConnections,
              warmupRequests: settings.warmupRequests,
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
    const streams = settings.streams
      ? await measureStreams(
          kind,
          postgresUrl,
          {
            durationSeconds: settings.durationSeconds,
            latencyConnections: settings.latencyConnections,
            warmupRequests: settings.warmupRequests,
            ...(settings.cpuProfile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
            ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}),
          },
          progress,
        )
      : null;
    return { kind, facts, akwe, ceiling, storageCeiling, baselineAb, webhooks, payouts, bulk, growth, streams };
  } finally {
    await pgbench?.close();
    await cleanUpBenchData(benchDatabase, sqliteRoot, progress);
  }
}

interface Target {
  name: string;
  /** Measured share (0..1), ms, s, MB or per second; null when it could not be measured. */
  value: number | null;
  threshold: number;
  pass: boolean | null;
  unit: 'share' | 'ms' | 's' | 'MB' | 'per second' | 'times';
  note?: string;
}

function figure(value: number, unit: Target['unit']): string {
  switch (unit) {
    case 'share':
      return `${fmt(value * 100)} %`;
    case 'ms':
      return `${fmt(value, 2)} ms`;
    case 'per second':
      return `${fmt(value)}/s`;
    case 'times':
      return `${fmt(value, 2)}x`;
    default:
      return `${fmt(value, 1)} ${unit}`;
  }
}

function verdictOf(t: Pick<Target, 'pass'>): string {
  return t.pass === null ? '----' : t.pass ? 'PASS' : 'FAIL';
}

function targetLine(t: Target): string {
  const measured = t.value === null ? `not measured: ${t.note ?? 'no figure'}` : `measured ${figure(t.value, t.unit)}${t.note ? `; ${t.note}` : ''}`;
  return `${verdictOf(t)}  ${t.name} (${measured})`;
}

function sqliteTargets(createRequestsPerSecond: number, storage: SqliteCeiling | null, createP99Ms: number): Target[] {
  const shareName = `creation req/s at ${settings.connections} connections >= ${MIN_CREATE_SHARE_OF_STORAGE * 100} % of the SQLite storage ceiling`;
  const share = storage ? createRequestsPerSecond / storage.creationsPerSecond : null;
  return [
    share === null || !storage
      ? { name: shareName, value: null, threshold: MIN_CREATE_SHARE_OF_STORAGE, pass: null, unit: 'share', note: 'the storage ceiling was not measured' }
      : {
          name: shareName,
          value: round(share, 3),
          threshold: MIN_CREATE_SHARE_OF_STORAGE,
          pass: share >= MIN_CREATE_SHARE_OF_STORAGE,
          unit: 'share',
          note: `${fmt(createRequestsPerSecond)} req/s against ${fmt(storage.creationsPerSecond)} creations/s`,
        },
    {
      name: `creation p99 at ${settings.latencyConnections} connections <= ${MAX_CREATE_P99_MS} ms`,
      value: createP99Ms,
      threshold: MAX_CREATE_P99_MS,
      pass: createP99Ms <= MAX_CREATE_P99_MS,
      unit: 'ms',
    },
  ];
}

function baselineTarget(ab: BaselineAb): Target {
  const runs = (side: 'baseline' | 'current') =>
    ab.runs
      .filter((r) => r.side === side)
      .map((r) => fmt(r.load.requestsPerSecond))
      .join(', ');
  return {
    name: `creation req/s at ${settings.connections} connections >= ${MIN_CREATE_RATIO_TO_BASELINE}x that of commit ${ab.commit} (medians of ${ab.runs.length / 2} alternating runs each)`,
    value: round(ab.ratio, 3),
    threshold: MIN_CREATE_RATIO_TO_BASELINE,
    pass: ab.ratio >= MIN_CREATE_RATIO_TO_BASELINE,
    unit: 'times',
    note: `${fmt(ab.currentMedian)} req/s (runs ${runs('current')}) against ${fmt(ab.baselineMedian)} req/s (runs ${runs('baseline')})`,
  };
}

function pgbenchTarget(akwe: AkweMeasurements, ceiling: PgbenchCeiling): Target {
  const name = `creation req/s at ${settings.connections} connections >= ${MIN_CREATE_SHARE_OF_PGBENCH * 100} % of pgbench -N's tps at ${PGBENCH_CLIENTS} clients (medians of ${CEILING_ROUNDS} alternating runs)`;
  if (!ceiling.measured) return { name, value: null, threshold: MIN_CREATE_SHARE_OF_PGBENCH, pass: null, unit: 'share', note: ceiling.reason };
  const share = akwe.createHigh.requestsPerSecond / ceiling.tps;
  const runs = (values: number[]) => values.map((v) => fmt(v)).join(', ');
  return {
    name,
    value: round(share, 3),
    threshold: MIN_CREATE_SHARE_OF_PGBENCH,
    pass: share >= MIN_CREATE_SHARE_OF_PGBENCH,
    unit: 'share',
    note: `${fmt(akwe.createHigh.requestsPerSecond)} req/s (runs ${runs(akwe.createHighRuns.map((r) => r.requestsPerSecond))}) against ${fmt(ceiling.tps)} tps (runs ${runs(
      akwe.pgbenchRuns.map((r) => (r.measured ? r.tps : NaN)),
    )})`,
  };
}

interface SummaryRow {
  database: DatabaseKind;
  /** issue-25 for the targets of issue #25; the phase's name for the others. */
  group: string;
  target: string;
  measured: string;
  threshold: string;
  verdict: string;
  value: number | null;
  note?: string;
}

function summaryRow(database: DatabaseKind, group: string, t: Target): SummaryRow {
  return {
    database,
    group,
    target: t.name,
    measured: t.value === null ? `not measured: ${t.note ?? 'no figure'}` : figure(t.value, t.unit),
    threshold: figure(t.threshold, t.unit),
    verdict: verdictOf(t),
    value: t.value,
    ...(t.note ? { note: t.note } : {}),
  };
}

/** One line per target: database, group, verdict, measured, threshold, then the target's name. */
function summaryTable(rows: SummaryRow[]): string[] {
  const measuredWidth = 44;
  const widths = [8, 12, 7, measuredWidth, 9];
  const cut = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
  const row = (cells: string[]) =>
    cells
      .map((c, i) => (i < widths.length ? (i >= 3 ? cut(c, widths[i]!).padStart(widths[i]!) : c.padEnd(widths[i]!)) : c))
      .join('  ')
      .trimEnd();
  return [
    row(['database', 'group', 'verdict', 'measured', 'threshold', 'target']),
    row([...widths.map((w) => '-'.repeat(w)), '------']),
    ...rows.map((r) => row([r.database, r.group, r.verdict, r.measured, r.threshold, r.target])),
  ];
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
  ensureCompiledBuild(progress);
  const startedAt = new Date();
  const loadAtStart = loadavg().map((l) => round(l, 2));
  const webhookSeconds = settings.webhooks ? settings.durationSeconds * 2 + settings.webhookEvents / 1000 + 40 : 0;
  const payoutSeconds = settings.payouts > 0 ? settings.durationSeconds * 2 + settings.payouts / settings.payoutRate + 30 : 0;
  const bulkSeconds = settings.bulkLines > 0 ? 15 + settings.bulkLines / 250 : 0;
  const streamSeconds = settings.streams ? settings.durationSeconds * 3 + 30 : 0;
  // Seeding runs at roughly 50 000 rows/s per table; the export at 20 000 rows/s.
  const growthSeconds = settings.growthRows > 0 ? settings.durationSeconds * 7 + settings.growthRows / 25_000 + settings.growthRows / 20_000 + 20 : 0;
  const ceilingSeconds = settings.ceilingCreations / 150 + 10;
  const abSeconds = settings.baselineCommit === 'none' ? 0 : 2 * CEILING_ROUNDS * (settings.durationSeconds + settings.warmupRequests / 300 + 5) + 15;
  const expectedSeconds = Math.round(
    settings.durationSeconds * 2 +
      10 +
      kinds.reduce(
        (n, k) =>
          n +
          webhookSeconds +
          payoutSeconds +
          bulkSeconds +
          streamSeconds +
          growthSeconds +
          (k === 'sqlite' ? settings.durationSeconds * 3 + 10 + ceilingSeconds + abSeconds : settings.durationSeconds * (2 + 2 * CEILING_ROUNDS) + 25),
        0,
      ),
  );
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
  const pgbenchRow = (c: PgbenchMeasured) =>
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
    );
  for (const run of runs) {
    // In the order they ran: pgbench and creation alternating on PostgreSQL.
    run.akwe.createHighRuns.forEach((create, i) => {
      const c = run.akwe.pgbenchRuns[i];
      if (c?.measured) lines.push(pgbenchRow(c));
      lines.push(loadRow(create));
    });
    if (run.storageCeiling) {
      const sc = run.storageCeiling;
      lines.push(tableRow(['sqlite storage ceiling (creations/s)', String(sc.concurrency), fmt(sc.creationsPerSecond), '-', '-', '-', '-', '-', '-', '-'], widths));
    }
    lines.push(loadRow(run.akwe.createLow), loadRow(run.akwe.getHigh));
    for (const abRun of run.baselineAb?.runs ?? []) lines.push(loadRow(abRun.load));
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
  const summary: SummaryRow[] = [];

  for (const run of runs) {
    const { akwe, ceiling, storageCeiling } = run;
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
    const onSqlite = sqliteTargets(akwe.createHigh.requestsPerSecond, storageCeiling, akwe.createLow.latencyMs.p99);
    let targets: Target[];
    let referenceTargets: Target[] = [];
    if (run.kind === 'postgres' && ceiling) {
      const target = pgbenchTarget(akwe, ceiling);
      figures.pgbenchTps = ceiling.measured ? round(ceiling.tps, 1) : null;
      figures.createShareOfPgbench = target.value;
      targets = [target];
      // The p99 target is SQLite's; PostgreSQL's figure is shown beside it.
      referenceTargets = onSqlite.slice(1);
    } else {
      targets = run.baselineAb ? [...onSqlite, baselineTarget(run.baselineAb)] : onSqlite;
      if (run.baselineAb) {
        figures.baselineCreateRequestsPerSecond = run.baselineAb.baselineMedian;
        figures.abCurrentCreateRequestsPerSecond = run.baselineAb.currentMedian;
        figures.createRatioToBaseline = round(run.baselineAb.ratio, 3);
      }
      if (storageCeiling) {
        figures.storageCeilingCreationsPerSecond = storageCeiling.creationsPerSecond;
        figures.createShareOfStorageCeiling = targets[0]!.value;
      }
    }
    const growthTargets: Target[] = run.growth ? growthTargetList(run.growth) : [];
    summary.push(
      ...targets.map((t) => summaryRow(run.kind, 'issue-25', t)),
      ...referenceTargets.map((t) => summaryRow(run.kind, 'reference', t)),
      ...growthTargets.map((t) => summaryRow(run.kind, 'issue-25', t)),
      ...(run.bulk
        ? bulkTargetLines(run.bulk).map((t) => ({
            database: run.kind,
            group: 'bulk',
            target: t.name,
            measured: t.detail,
            threshold: '-',
            verdict: t.ok ? 'PASS' : 'FAIL',
            value: null,
          }))
        : []),
      // On PostgreSQL the drain is issue #43's target; the other webhook figures are for reference.
      ...(run.webhooks
        ? webhookTargets(run.webhooks).map((t) => summaryRow(run.kind, run.kind === 'sqlite' ? 'webhooks' : t.name.startsWith('(a)') ? 'issue-43' : 'webhooks-ref', t))
        : []),
      ...(run.streams ? streamTargets(run.streams).map((t) => summaryRow(run.kind, 'streams', t)) : []),
    );
    if (run.growth) {
      figures.growthCreateEmptyRequestsPerSecond = run.growth.createEmpty.requestsPerSecond;
      figures.growthCreateGrownRequestsPerSecond = run.growth.createGrown.requestsPerSecond;
      for (const [name, r] of Object.entries(run.growth.pages)) figures[`growthPage_${name}_P99Ms`] = r.latencyMs.p99;
      for (const [name, r] of Object.entries(run.growth.pagesUnderLoad)) figures[`growthPageUnderLoad_${name}_P99Ms`] = r.latencyMs.p99;
      figures.growthExportSeconds = run.growth.export.measured ? run.growth.export.seconds : null;
      figures.growthExportMemoryGrowthMb = run.growth.export.measured ? run.growth.export.memoryMb.growth : null;
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
      ...akwe.createHighRuns,
      akwe.createLow,
      akwe.getHigh,
      ...(run.baselineAb ? run.baselineAb.runs.map((r) => r.load) : []),
      ...(run.growth ? [run.growth.createEmpty, run.growth.createGrown, ...Object.values(run.growth.pages), ...Object.values(run.growth.pagesUnderLoad)] : []),
      ...(run.webhooks ? webhookLoads(run.webhooks) : []),
      ...(run.payouts ? payoutLoads(run.payouts) : []),
      ...(run.streams ? streamLoads(run.streams) : []),
    ];
    const failedRequests = measured.reduce((n, r) => n + r.non2xx + r.errors, 0);
    const failedPhases = measured.filter((r) => r.failureRate > MAX_FAILURE_RATE);
    // The webhook phases count their worker processes and receiver apart from "other" (their own cpu figures).
    const webhookPhaseLoads = new Set(run.webhooks ? webhookLoads(run.webhooks) : []);
    const webhookOthers = run.webhooks ? [run.webhooks.drain.cpu, run.webhooks.steady.cpu, run.webhooks.withTimeout.cpu].map((c) => c.other ?? 0) : [];
    const runOther = Math.max(
      ...measured.filter((r) => !webhookPhaseLoads.has(r)).map((r) => r.cpu.other ?? 0),
      ...webhookOthers,
      ...akwe.pgbenchRuns.map((c) => (c.measured ? (c.cpu.other ?? 0) : 0)),
    );
    busiestOther = Math.max(busiestOther, runOther);

    lines.push('', `${run.kind}:`);
    if (ceiling) {
      lines.push(
        ceiling.measured
          ? `  ceiling:  pgbench -N: median ${fmt(ceiling.tps)} tps of ${akwe.pgbenchRuns.length} runs at ${ceiling.clients} clients, ${ceiling.threads} threads, scale ${ceiling.scale}, ${ceiling.durationSeconds} s each (median run's latency average ${fmt(ceiling.latencyAverageMs ?? NaN, 2)} ms), the Akwe server idle`
          : `  ceiling:  the database's ceiling could not be measured: ${ceiling.reason}`,
      );
    }
    if (storageCeiling) {
      lines.push(
        `  ceiling:  storage alone: ${fmt(storageCeiling.creationsPerSecond)} creations/s (${storageCeiling.creations} captured creations, ${storageCeiling.statementsPerCreation} statements and ${storageCeiling.transactionsPerCreation} transactions each, replayed at ${storageCeiling.concurrency} through the group commit: ${storageCeiling.commits} commits, ${storageCeiling.syncs} fdatasyncs in ${fmt(storageCeiling.replaySeconds, 2)} s, ${fmt(storageCeiling.cpuMicrosecondsPerCreation)} µs of CPU per creation)`,
      );
    }
    const ofCeiling = storageCeiling ? `${fmt((akwe.createHigh.requestsPerSecond / storageCeiling.creationsPerSecond) * 100)} % of the storage ceiling, ` : '';
    const ofPgbench = figures.createShareOfPgbench === undefined || figures.createShareOfPgbench === null ? '' : `${fmt(figures.createShareOfPgbench * 100)} % of pgbench's tps, `;
    lines.push(
      `  creation: ${fmt(akwe.createHigh.requestsPerSecond)} req/s at ${settings.connections} connections${akwe.createHighRuns.length > 1 ? ' (median run)' : ''} = ${ofPgbench}${ofCeiling}${fmt(createShare * 100)} % of the bare app (${fmt(bare.high.requestsPerSecond)} req/s); p50 ${fmt(akwe.createLow.latencyMs.p50, 2)} ms, p99 ${fmt(akwe.createLow.latencyMs.p99, 2)} ms at ${settings.latencyConnections} connections`,
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
    if (run.growth) lines.push(...growthReport(run.growth), '  targets:', ...growthTargets.map((t) => `    ${targetLine(t)}`));
    if (run.webhooks) lines.push(...webhookReport(run.webhooks, run.kind === 'sqlite'));
    if (run.streams) lines.push(...streamReport(run.streams));
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
      ...(ceiling ? { ceiling, pgbenchRuns: akwe.pgbenchRuns } : {}),
      ...(storageCeiling ? { storageCeiling } : {}),
      ...(run.baselineAb ? { baselineAb: run.baselineAb } : {}),
      growth: run.growth ? { ...run.growth, targets: growthTargets } : null,
      summary: summary.filter((r) => r.database === run.kind),
      quiet: runOther <= NOISY_OTHER_CORES,
      failures: { requests: failedRequests, phasesOverLimit: failedPhases.map((r) => `${r.title} at ${r.connections}`), maxFailureRate: MAX_FAILURE_RATE },
      phases: {
        bare: { post: bare.high, postLatency: bare.low },
        akwe: { create: akwe.createHigh, createRuns: akwe.createHighRuns, createLatency: akwe.createLow, get: akwe.getHigh, warmup: akwe.warmup },
      },
      server: { paymentsCreated: akwe.paymentsCreated, exitCode: akwe.serverExitCode, log: akwe.serverLog, cpuProfileDir: settings.cpuProfile ? profileDir : null },
      webhooks: run.webhooks ? { ...run.webhooks, targets: webhookTargets(run.webhooks), targetsApply: run.kind === 'sqlite' } : null,
      payouts: run.payouts,
      bulk: run.bulk ? { ...run.bulk, targets: bulkTargetLines(run.bulk) } : null,
      streams: run.streams ? { ...run.streams, targets: streamTargets(run.streams) } : null,
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
  const quiet = busiestOther <= NOISY_OTHER_CORES;
  lines.push(
    '',
    `Summary: every target, per database (issue-25: the targets of issue #25; issue-43: PostgreSQL's webhook drain; reference: SQLite's target, PostgreSQL's figure; the other groups: their phase's own targets)${quiet ? '' : ' — NOISY MACHINE, figures not reliable'}`,
    ...summaryTable(summary),
  );
  const summaryFile = join(resultsDir, `bench-summary-${stamp}.json`);
  writeFileSync(
    summaryFile,
    `${JSON.stringify({ benchmark: 'akwe', startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), git, settings, loadAverageAtStart: loadAtStart, busiestOtherCores: busiestOther, quiet, targets: summary }, null, 2)}\n`,
  );
  written.push(relative(repoRoot, summaryFile));
  lines.push('', `results: ${written.join(', ')}`);
  if (settings.cpuProfile)
    lines.push(
      `cpu profile of the server: ${relative(repoRoot, profileDir)}/ (summarise from packages/server: npx tsx bench/profile-summary.ts ../../${relative(repoRoot, profileDir)}/<file>)`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  return exitCode;
}

exitWith(main, 1, 'bench failed: ');
