/**
 * `npm run bench:webhook-sigkill`: how many webhooks arrive twice when a worker process dies
 * mid-send (issue #10, point 4), and that none is lost.
 *
 * On PostgreSQL (a fresh database akwe_bench_<random> on the server of DATABASE_URL, or the local
 * default, dropped afterwards): `akwe serve` with its workers off, 10 merchants with one endpoint
 * each (every event) on a receiver child (bench/webhook-receiver.ts), a backlog of
 * BENCH_WEBHOOK_EVENTS (20 000) events made with the workers off, then two `akwe worker` processes
 * drain it. When the receiver has BENCH_SIGKILL_AT (0.2,0.45,0.7) of the deliveries, one worker
 * (each time the other one) gets SIGKILL and is started again at once. Then everything drains: the
 * claims of a killed worker are sent again once their 90 s lease runs out, so the run lasts about
 * two minutes. Counted at the receiver by (endpoint, X-Service-Event-Id): events that arrived more
 * than once, and events that never arrived (must be none). The delivery rows must all be
 * `succeeded`.
 *
 * Prints the figures, writes bench-results/webhook-sigkill-<timestamp>.json at the repository root,
 * exits 1 when an event never arrived or a delivery did not succeed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { round, runLoad } from './load.js';
import { createBenchDatabase, DEFAULT_POSTGRES_URL, isPostgresUrl, postgresUnavailableReason, safeUrl, type BenchDatabase, cleanUpBenchData } from './postgres.js';
import { freePort, repoRoot, startAkwe, startAkweWorker, type Child } from './processes.js';
import {
  createEndpoint,
  createMerchants,
  creationsOverMerchants,
  deliveriesByStatus,
  eventsOf,
  startReceiver,
  waitForReceiver,
  type AkweData,
  type Receiver,
} from './webhook-setup.js';

const MERCHANTS = 10;
const WORKERS = 2;
/** The delivery job's claim lease (webhook-delivery-job.ts, not configurable): a killed worker's claims wait this long. */
const LEASE_SECONDS = 90;
/** After every event has arrived, how long to keep listening for late repeats. */
const QUIET_AFTER_MS = 5_000;

function progress(text: string): void {
  process.stderr.write(`[sigkill] ${text}\n`);
}

function envEvents(): number {
  const raw = process.env.BENCH_WEBHOOK_EVENTS?.trim();
  if (!raw) return 20_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 3) throw new Error(`BENCH_WEBHOOK_EVENTS must be a whole number >= 3 (got "${raw}")`);
  return value;
}

function envKillPoints(): number[] {
  const raw = process.env.BENCH_SIGKILL_AT?.trim() || '0.2,0.45,0.7';
  const points = raw.split(',').map(Number);
  if (points.some((p) => !(p > 0 && p < 1))) throw new Error(`BENCH_SIGKILL_AT must list fractions between 0 and 1, e.g. 0.2,0.45,0.7 (got "${raw}")`);
  return points.sort((a, b) => a - b);
}

interface Kill {
  worker: number;
  /** Deliveries the receiver had when the worker was killed. */
  receivedBefore: number;
  atSecond: number;
  restartSeconds: number;
}

async function main(): Promise<number> {
  const postgresUrl = process.env.DATABASE_URL?.trim() || DEFAULT_POSTGRES_URL;
  if (!isPostgresUrl(postgresUrl)) throw new Error('DATABASE_URL must be a postgres:// URL: several worker processes share work only on PostgreSQL');
  const unavailable = await postgresUnavailableReason(postgresUrl);
  if (unavailable !== null) throw new Error(`PostgreSQL is needed: ${unavailable}`);
  const events = envEvents();
  const killPoints = envKillPoints();
  const startedAt = new Date();
  const loadAtStart = loadavg().map((l) => round(l, 2));
  const dataDir = mkdtempSync(join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'akwe-bench-sigkill-'));
  let benchDatabase: BenchDatabase | undefined;
  let receiver: Receiver | undefined;
  const children: Child[] = [];
  const workers: Child[] = [];
  try {
    benchDatabase = await createBenchDatabase(postgresUrl);
    progress(`created database ${benchDatabase.name}`);
    const data: AkweData = { dataDir, databaseUrl: benchDatabase.url };
    receiver = await startReceiver(MERCHANTS);
    const server = await startAkwe({ port: await freePort(), ...data, runWorkers: false });
    children.push(server.child);
    const merchants = await createMerchants(data, MERCHANTS, 'Sigkill bench');
    for (const [i, merchant] of merchants.entries()) await createEndpoint(server.url, merchant, receiver.fastUrls[i]!, ['*']);
    const payments = Math.ceil(events / 3);
    progress(`backlog of ${payments} payments (workers off)`);
    const created = { count: 0 };
    await runLoad({
      title: 'sigkill backlog',
      url: server.url,
      connections: 50,
      amount: payments,
      requests: creationsOverMerchants(merchants, `k${randomBytes(4).toString('hex')}`, created),
    });
    const expected = await eventsOf(data, merchants);
    await receiver.reset();

    progress(`${WORKERS} akwe worker processes drain ${expected} deliveries; SIGKILL at ${killPoints.map((p) => `${p * 100} %`).join(', ')}`);
    const started = Date.now();
    workers.push(...(await Promise.all(Array.from({ length: WORKERS }, (_, i) => startAkweWorker(data, `akwe worker ${i + 1}`)))));
    const kills: Kill[] = [];
    const pending = [...killPoints];
    const drained = await waitForReceiver(
      receiver,
      (s) => pending.length === 0 && s.distinct >= expected,
      (LEASE_SECONDS + 120) * 1000 + expected * 10,
      async (s) => {
        if (pending.length === 0 || s.distinct < pending[0]! * expected) return;
        pending.shift();
        const index = kills.length % WORKERS;
        const victim = workers[index]!;
        const atSecond = round((Date.now() - started) / 1000, 2);
        victim.process.kill('SIGKILL');
        await new Promise((r) => victim.process.once('exit', r));
        const restartAt = Date.now();
        children.push(victim);
        workers[index] = await startAkweWorker(data, `akwe worker ${index + 1}`);
        kills.push({ worker: index + 1, receivedBefore: s.distinct, atSecond, restartSeconds: round((Date.now() - restartAt) / 1000, 2) });
        progress(`SIGKILL worker ${index + 1} at ${atSecond} s (${s.distinct}/${expected} received); restarted`);
      },
    );
    const allArrivedSeconds = round(((drained.stats.lastAt ?? Date.now()) - started) / 1000, 2);
    progress(
      drained.finished
        ? `every event arrived ${allArrivedSeconds} s after the workers started; listening ${QUIET_AFTER_MS / 1000} s more for repeats`
        : `gave up waiting: ${drained.stats.distinct}/${expected} arrived`,
    );
    await new Promise((r) => setTimeout(r, QUIET_AFTER_MS));
    const ids = await receiver.ids();
    const statuses = await deliveriesByStatus(data);
    children.push(...workers);

    const counts = Object.values(ids);
    const duplicated = counts.filter((n) => n > 1).length;
    const extra = counts.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const missing = Math.max(0, expected - counts.length);
    const notSucceeded = Object.entries(statuses)
      .filter(([status]) => status !== 'succeeded')
      .reduce((n, [, count]) => n + count, 0);
    const figures = {
      events: expected,
      payments: created.count,
      kills,
      receivedDistinct: counts.length,
      deliveriesReceived: counts.reduce((a, b) => a + b, 0),
      eventsReceivedMoreThanOnce: duplicated,
      extraDeliveries: extra,
      duplicateRate: round(duplicated / expected, 5),
      duplicatesPerKill: kills.length === 0 ? null : round(duplicated / kills.length, 1),
      missing,
      deliveriesByStatus: statuses,
      allArrivedSeconds,
    };
    const lines = [
      '',
      `Webhook duplicates after SIGKILL, postgres, ${startedAt.toISOString()}; ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}, load average at start ${loadAtStart.join(' ')}`,
      `  ${expected} events to ${MERCHANTS} endpoints (one delivery each), drained by ${WORKERS} akwe worker processes; ${kills.length} SIGKILL(s), each worker restarted at once:`,
      ...kills.map((k) => `    worker ${k.worker} at ${k.atSecond} s, ${k.receivedBefore} received before (restart took ${k.restartSeconds} s)`),
      `  received ${figures.deliveriesReceived} deliveries, ${counts.length} distinct (endpoint, event id); every event arrived ${allArrivedSeconds} s after the workers started (the killed workers' claims wait out the ${LEASE_SECONDS} s lease)`,
      `  events received more than once: ${duplicated} (${extra} extra deliveries) = duplicate rate ${fmtPercent(figures.duplicateRate)} of events, ${figures.duplicatesPerKill ?? '-'} per SIGKILL`,
      `  events never received: ${missing}${missing === 0 ? '' : '  <- FAIL: at least once is broken'}`,
      `  deliveries by status: ${JSON.stringify(statuses)}${notSucceeded === 0 ? '' : '  <- FAIL: not every delivery succeeded'}`,
    ];
    const resultsDir = join(repoRoot, 'bench-results');
    mkdirSync(resultsDir, { recursive: true });
    const file = join(resultsDir, `webhook-sigkill-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ benchmark: 'akwe webhook duplicates after SIGKILL', startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), database: safeUrl(benchDatabase.url), machine: { cpuModel: cpus()[0]?.model ?? null, cores: availableParallelism(), node: process.version, loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) }, settings: { merchants: MERCHANTS, workers: WORKERS, killPoints, leaseSeconds: LEASE_SECONDS }, figures }, null, 2)}\n`,
    );
    lines.push('', `results: ${relative(repoRoot, file)}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return missing === 0 && notSucceeded === 0 && drained.finished ? 0 : 1;
  } finally {
    await receiver?.child.stop();
    for (const child of [...new Set([...workers, ...children])].reverse()) await child.stop(30_000);
    await cleanUpBenchData(benchDatabase, dataDir, progress);
  }
}

function fmtPercent(share: number): string {
  return `${(share * 100).toFixed(2)} %`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`webhook-sigkill failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
