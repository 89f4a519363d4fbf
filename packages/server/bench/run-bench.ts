/**
 * `npm run bench`: payment creation and lookup throughput and latency of a real Akwe server,
 * next to a bare Fastify app on the same machine.
 *
 *   1. The bare app (bench/bare-app.ts) in a child process: POST /echo with the creation body, at
 *      BENCH_CONNECTIONS (50) connections for req/s and BENCH_LATENCY_CONNECTIONS (10) for latency.
 *   2. `akwe serve` in a child process on a fresh database: SQLite in a new temporary folder
 *      (WAL, group commit: every answer waits for the log's fdatasync), or, for a postgres:// DATABASE_URL, a new
 *      database akwe_bench_<random> on that server, dropped afterwards. Rate limits are lifted.
 *      POST /api/v1/collect/payments (sandbox, direct, mtn_bj, a unique Idempotency-Key and
 *      reference per request) at 50 then 10 connections, then GET /api/v1/collect/payments/{reference}
 *      at 50 connections over the references just created.
 *
 * Prints a table and the targets (creation req/s >= 10 % of the bare app's; creation p99 < 25 ms at
 * 10 connections), writes bench-results/bench-<database>-<timestamp>.json at the repository root,
 * and exits 1 when more than 1 % of the requests of any phase failed (non-2xx or connection error).
 *
 * Environment: BENCH_DURATION_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_LATENCY_CONNECTIONS (10),
 * BENCH_WARMUP_REQUESTS (500), BENCH_DATA_DIR (parent of the SQLite folder; os.tmpdir()),
 * BENCH_CPU_PROF=1 (server child under --cpu-prof; profile in bench-results/profiles/),
 * DATABASE_URL (postgres:// only).
 */
import type autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import type { DatabaseProcesses } from './cpu.js';
import { round, runLoad, type LoadResult } from './load.js';
import { createBenchDatabase, isPostgresUrl, safeUrl, type BenchDatabase } from './postgres.js';
import { freePort, LIFTED_RATE_LIMIT_PER_MINUTE, repoRoot, startAkwe, startBareApp, type AkweServer } from './processes.js';

const CREATE_PATH = '/api/v1/collect/payments';
/** Target: creation req/s at least this share of the bare app's. */
const MIN_CREATE_SHARE_OF_BARE = 0.1;
/** Target: creation p99 at the latency connection count, in ms. */
const MAX_CREATE_P99_MS = 25;
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
};

/** The body of every creation (and of the bare app's POST), with its own reference. */
function paymentBody(reference: string): string {
  return JSON.stringify({ reference, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } });
}

/**
 * Each request gets a fresh Idempotency-Key and reference: run id (hex, so it never holds a sandbox
 * keyword such as FAIL or PENDING) and a counter shared by all connections.
 */
function creationRequests(testKey: string, runId: string, created: string[]): autocannon.Request[] {
  let counter = 0;
  return [
    {
      method: 'POST',
      path: CREATE_PATH,
      headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      setupRequest: (request) => {
        counter += 1;
        request.headers = { ...request.headers, 'idempotency-key': `idem-${runId}-${counter}` };
        request.body = paymentBody(`bench-${runId}-${counter}`);
        return request;
      },
      onResponse: (status, body) => {
        if (status !== 201) return;
        const match = /"reference":"([^"]+)"/.exec(body);
        if (match) created.push(match[1]!);
      },
    },
  ];
}

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
    if (settings.warmupRequests > 0) await runLoad({ title: 'bare warm-up', url: bare.url, serverPid: bare.child.process.pid, connections: settings.latencyConnections, amount: settings.warmupRequests, requests: bareRequests() });
    progress(`bare app: POST at ${settings.connections} connections for ${settings.durationSeconds} s`);
    const high = await runLoad({ title: 'bare POST /echo', url: bare.url, serverPid: bare.child.process.pid, connections: settings.connections, durationSeconds: settings.durationSeconds, requests: bareRequests() });
    progress(`bare app: POST at ${settings.latencyConnections} connections for ${settings.durationSeconds} s`);
    const low = await runLoad({ title: 'bare POST /echo', url: bare.url, serverPid: bare.child.process.pid, connections: settings.latencyConnections, durationSeconds: settings.durationSeconds, requests: bareRequests() });
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

async function measureAkwe(server: AkweServer, database: DatabaseProcesses | undefined): Promise<AkweMeasurements> {
  const runId = randomBytes(4).toString('hex');
  const created: string[] = [];
  const warmup: LoadResult[] = [];
  let exitCode: number | null = null;
  let phases: Pick<AkweMeasurements, 'createHigh' | 'createLow' | 'getHigh'>;
  try {
    if (settings.warmupRequests > 0) {
      progress(`akwe on ${server.url}: warm-up (${settings.warmupRequests} creations and lookups)`);
      warmup.push(await runLoad({ title: 'create warm-up', url: server.url, serverPid: server.child.process.pid, database, connections: settings.latencyConnections, amount: settings.warmupRequests, requests: creationRequests(server.testKey, `w${runId}`, created) }));
      if (created.length > 0) {
        warmup.push(await runLoad({ title: 'get warm-up', url: server.url, serverPid: server.child.process.pid, database, connections: settings.latencyConnections, amount: settings.warmupRequests, requests: lookupRequests(server.testKey, [...created]) }));
      }
    }
    progress(`akwe: create at ${settings.connections} connections for ${settings.durationSeconds} s`);
    const createHigh = await runLoad({ title: 'akwe POST /collect/payments', url: server.url, serverPid: server.child.process.pid, database, connections: settings.connections, durationSeconds: settings.durationSeconds, requests: creationRequests(server.testKey, `h${runId}`, created) });
    progress(`akwe: create at ${settings.latencyConnections} connections for ${settings.durationSeconds} s`);
    const createLow = await runLoad({ title: 'akwe POST /collect/payments', url: server.url, serverPid: server.child.process.pid, database, connections: settings.latencyConnections, durationSeconds: settings.durationSeconds, requests: creationRequests(server.testKey, `l${runId}`, created) });
    if (created.length === 0) throw new Error(`no payment was created; server output:\n${server.child.output()}`);
    progress(`akwe: get by reference at ${settings.connections} connections for ${settings.durationSeconds} s (${created.length} references)`);
    const getHigh = await runLoad({ title: 'akwe GET /collect/payments/{ref}', url: server.url, serverPid: server.child.process.pid, database, connections: settings.connections, durationSeconds: settings.durationSeconds, requests: lookupRequests(server.testKey, created) });
    phases = { createHigh, createLow, getHigh };
    // autocannon drops its connections when a phase ends, but the server still finishes the
    // requests they had in flight: let them finish before the shutdown closes the database.
    await new Promise((r) => setTimeout(r, 1000));
  } finally {
    progress('akwe: stopping the server');
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

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (SQLite is the default: leave DATABASE_URL unset)');
  }
  const kind = databaseUrl ? 'postgres' : 'sqlite';
  const startedAt = new Date();
  const loadAtStart = loadavg().map((l) => round(l, 2));
  const expectedSeconds = settings.durationSeconds * 5 + 15;
  progress(`database ${kind}; ${settings.durationSeconds} s per phase, about ${expectedSeconds} s in all`);

  const bare = await measureBare();

  let benchDatabase: BenchDatabase | undefined;
  let sqliteRoot: string | undefined;
  let akwe: AkweMeasurements;
  let databaseFacts: Record<string, unknown>;
  const profileDir = join(repoRoot, 'bench-results', 'profiles');
  try {
    sqliteRoot = mkdtempSync(join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'akwe-bench-'));
    if (databaseUrl) {
      benchDatabase = await createBenchDatabase(databaseUrl);
      progress(`created database ${benchDatabase.name}`);
      databaseFacts = { kind, description: safeUrl(benchDatabase.url), settings: benchDatabase.settings, poolSize: 10 };
    } else {
      databaseFacts = { kind, description: `sqlite:${join(sqliteRoot, 'akwe.db')}`, journalMode: 'wal', durability: 'group commit: each answer waits for an fdatasync of the WAL', filesystem: filesystemOf(sqliteRoot) };
      if (filesystemOf(sqliteRoot) === 'tmpfs') progress('WARNING: the SQLite folder is on tmpfs, where fsync costs nothing: set BENCH_DATA_DIR to a disk folder');
    }
    if (settings.cpuProfile) mkdirSync(profileDir, { recursive: true });
    const server = await startAkwe({
      port: await freePort(),
      dataDir: sqliteRoot,
      ...(benchDatabase ? { databaseUrl: benchDatabase.url } : {}),
      ...(settings.cpuProfile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {}),
    });
    akwe = await measureAkwe(server, benchDatabase ? { name: 'postgres', titleIncludes: ` ${benchDatabase.name} ` } : undefined);
  } finally {
    if (benchDatabase) {
      await benchDatabase.drop().then(
        () => progress(`dropped database ${benchDatabase!.name}`),
        (error: unknown) => progress(`could not drop database ${benchDatabase!.name}: ${String(error)}`),
      );
    }
    if (sqliteRoot) rmSync(sqliteRoot, { recursive: true, force: true });
  }

  const createShare = akwe.createHigh.requestsPerSecond / bare.high.requestsPerSecond;
  const figures = {
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
  const targets = [
    { name: `creation req/s at ${settings.connections} connections >= ${MIN_CREATE_SHARE_OF_BARE * 100} % of the bare app's`, value: figures.createShareOfBare, threshold: MIN_CREATE_SHARE_OF_BARE, pass: createShare >= MIN_CREATE_SHARE_OF_BARE },
    { name: `creation p99 at ${settings.latencyConnections} connections < ${MAX_CREATE_P99_MS} ms`, value: figures.createP99Ms, threshold: MAX_CREATE_P99_MS, pass: figures.createP99Ms < MAX_CREATE_P99_MS },
  ];
  const measured = [bare.high, bare.low, akwe.createHigh, akwe.createLow, akwe.getHigh];
  const failedRequests = measured.reduce((n, r) => n + r.non2xx + r.errors, 0);
  const failedPhases = measured.filter((r) => r.failureRate > MAX_FAILURE_RATE);

  // The table.
  const widths = [34, 6, 9, 8, 8, 8, 7, 8, 7, 8];
  const lines = [
    '',
    `Akwe benchmark, ${kind}, ${startedAt.toISOString()}; ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}`,
    `(the load generator runs on the same cores as the server: figures are lower bounds)`,
    '',
    tableRow(['phase', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'srv cpu', 'db cpu', 'oth cpu'], widths),
    tableRow(['-'.repeat(34), '-----', '-----', '------', '------', '-------', '------', '-------', '------', '-------'], widths),
    ...measured.map((r) =>
      tableRow([r.title, String(r.connections), fmt(r.requestsPerSecond), fmt(r.latencyMs.p50, 2), fmt(r.latencyMs.p99, 2), String(r.non2xx), String(r.errors), fmt(r.cpu.server ?? NaN, 2), fmt(r.cpu.database ?? NaN, 2), fmt(r.cpu.other ?? NaN, 2)], widths),
    ),
    '(cores used on average: srv by the process under test, db by the PostgreSQL backends of the bench database, oth by anything else but the load generator)',
    '',
    `creation: ${fmt(figures.createRequestsPerSecond)} req/s at ${settings.connections} connections = ${fmt(createShare * 100)} % of the bare app (${fmt(figures.bareRequestsPerSecond)} req/s); p50 ${fmt(figures.createP50Ms, 2)} ms, p99 ${fmt(figures.createP99Ms, 2)} ms at ${settings.latencyConnections} connections`,
    `lookup:   ${fmt(figures.getRequestsPerSecond)} req/s at ${settings.connections} connections = ${fmt(figures.getShareOfBare * 100)} % of the bare app`,
    '',
    `targets${kind === 'sqlite' ? '' : ' (set for SQLite; shown for reference)'}:`,
    ...targets.map((t) => `  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name} (measured ${t.name.startsWith('creation p99') ? `${fmt(t.value, 2)} ms` : `${fmt(t.value * 100)} %`})`),
  ];
  if (failedRequests > 0) {
    lines.push('', `WARNING: ${failedRequests} request(s) failed (non-2xx or connection errors) in the measured phases.`);
    for (const r of measured.filter((m) => m.non2xx + m.errors > 0)) lines.push(`  ${r.title} at ${r.connections}: status codes ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}`);
  }
  const busiestOther = Math.max(...measured.map((r) => r.cpu.other ?? 0));
  if (busiestOther > NOISY_OTHER_CORES) {
    lines.push('', `WARNING: other processes used up to ${fmt(busiestOther, 2)} cores during a phase: the machine was not quiet, the figures are not reliable.`);
  }
  if (akwe.serverLog.warnings + akwe.serverLog.errors > 0) {
    lines.push('', `The server logged ${akwe.serverLog.warnings} warning(s) and ${akwe.serverLog.errors} error(s); first lines:`, ...akwe.serverLog.sample.map((l) => `  ${l.slice(0, 300)}`));
  }

  const results = {
    benchmark: 'akwe collect payments',
    schemaVersion: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    database: databaseFacts,
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
    git: gitFacts(),
    settings: { ...settings, pipelining: 1, sandboxOperator: 'mtn_bj', amount: 3000, currency: 'XOF' },
    figures,
    targets,
    quiet: busiestOther <= NOISY_OTHER_CORES,
    failures: { requests: failedRequests, phasesOverLimit: failedPhases.map((r) => `${r.title} at ${r.connections}`), maxFailureRate: MAX_FAILURE_RATE },
    phases: { bare: { post: bare.high, postLatency: bare.low }, akwe: { create: akwe.createHigh, createLatency: akwe.createLow, get: akwe.getHigh, warmup: akwe.warmup } },
    server: { paymentsCreated: akwe.paymentsCreated, exitCode: akwe.serverExitCode, log: akwe.serverLog, cpuProfileDir: settings.cpuProfile ? profileDir : null },
  };
  const resultsDir = join(repoRoot, 'bench-results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `bench-${kind}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  lines.push('', `results: ${relative(repoRoot, file)}`);
  if (settings.cpuProfile) lines.push(`cpu profile of the server: ${relative(repoRoot, profileDir)}/ (summarise from packages/server: npx tsx bench/profile-summary.ts ../../${relative(repoRoot, profileDir)}/<file>)`);
  process.stdout.write(`${lines.join('\n')}\n`);

  if (failedPhases.length > 0) {
    process.stderr.write(`FAILED: more than ${MAX_FAILURE_RATE * 100} % of the requests failed in ${failedPhases.map((r) => `${r.title} at ${r.connections}`).join(', ')}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
