/**
 * The webhook phase of `npm run bench` (issue #10, point 5), run after each database's creation
 * phases, on a fresh database of its own, with a real HTTP receiver in a child process
 * (bench/webhook-receiver.ts):
 *
 *   (a) Drain: 10 merchants (made with `akwe merchants create`), each with one endpoint on its own
 *       receiver port subscribed to every event. With the workers off, payments spread over the
 *       merchants build a backlog of BENCH_WEBHOOK_EVENTS (20 000) events, one delivery each; then
 *       the workers start (SQLite: `akwe serve` again, workers on; PostgreSQL: two `akwe worker`
 *       processes beside the serve, which keeps its workers off). Measured: deliveries per second
 *       from the workers being ready to the receiver's last answer.
 *   (b) Steady: the endpoints subscribe to `collect.payment.completed` only (one delivery per
 *       payment, to the paying merchant's endpoint), and autocannon creates payments over the
 *       merchants at half the creation rate measured earlier in the run. Measured: time from the
 *       event's `created_at` (set in the transaction that commits it) to the receiver's answer,
 *       p50 and p99, for every delivery of the phase's payments (those still arriving after the
 *       load stops included).
 *   (c) The same with one more endpoint for the first merchant, subscribed to the same event, on
 *       a port that never answers: the p99 of the other endpoints against (b)'s.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureCpu, type DatabaseProcesses } from './cpu.js';
import { round, runLoad, type LatencySummary, type LoadResult } from './load.js';
import { createBenchDatabase, safeUrl, type BenchDatabase, cleanUpBenchData } from './postgres.js';
import { freePort, startAkwe, startAkweWorker, type AkweServer, type Child } from './processes.js';
import {
  createEndpoint,
  createMerchants,
  creationsOverMerchants,
  eventsOf,
  setEndpointEvents,
  startReceiver,
  waitForReceiver,
  type AkweData,
  type BenchMerchant,
  type Receiver,
  type ReceiverStats,
} from './webhook-setup.js';

export const WEBHOOK_MERCHANTS = 10;
export const WEBHOOK_WORKERS_ON_POSTGRES = 2;
/** Targets (issue #10, on the 2-core machine with SQLite). */
export const MIN_DRAIN_PER_SECOND = 2000;
export const MAX_STEADY_P50_MS = 100;
export const MAX_STEADY_P99_MS = 1000;
export const MAX_TIMEOUT_P99_FACTOR = 2;
const STEADY_EVENTS = ['collect.payment.completed'];
/** How long the deliveries of a steady phase may keep arriving after its load stops. */
const STEADY_SETTLE_MS = 60_000;

export interface WebhookSettings {
  events: number;
  durationSeconds: number;
  connections: number;
  nodeFlags?: string[];
  dataParent?: string;
}

/** Average cores over a phase, per process. */
export interface WebhookCpu {
  server: number | null;
  workers: number | null;
  receiver: number | null;
  database: number | null;
  loadGenerator: number | null;
  other: number | null;
}

export interface DrainResult {
  payments: number;
  /** Deliveries expected: one per event of the bench's merchants. */
  expected: number;
  received: number;
  distinct: number;
  extraDeliveries: number;
  finished: boolean;
  /** From the workers being ready (or the first delivery, if earlier) to the last answer. */
  seconds: number;
  /** From the start of the workers' process(es) to the last answer. */
  secondsFromSpawn: number;
  deliveriesPerSecond: number;
  backlogSeconds: number;
  /** The creations that built the backlog. */
  backlogLoad: LoadResult;
  cpu: WebhookCpu;
}

export interface SteadyResult {
  rate: number;
  load: LoadResult;
  /** Payments answered 201 by the load generator. */
  created: number;
  /** Deliveries expected: the phase's completed events (a payment whose answer the load generator dropped at the end still counts). */
  expected: number;
  received: number;
  finished: boolean;
  /** Seconds the last deliveries took to arrive after the load stopped. */
  settleSeconds: number;
  latencyMs: LatencySummary;
  slowRequests: number;
  cpu: WebhookCpu;
}

export interface WebhookMeasurements {
  kind: 'sqlite' | 'postgres';
  database: string;
  workerProcesses: number;
  merchants: number;
  endpoints: string;
  drain: DrainResult;
  steady: SteadyResult;
  withTimeout: SteadyResult;
  logs: { warnings: number; errors: number; sample: string[] };
}

type Progress = (text: string) => void;

interface Processes {
  data: AkweData;
  server: AkweServer;
  workers: Child[];
  receiver: Receiver;
  database?: DatabaseProcesses;
}

function cpuOf(p: Processes): () => WebhookCpu {
  const server = measureCpu(p.server.child.process.pid, p.database);
  const receiver = measureCpu(p.receiver.child.process.pid);
  const workers = p.workers.map((w) => measureCpu(w.process.pid));
  return () => {
    const s = server();
    const r = receiver().server;
    const ws = workers.map((w) => w().server);
    const workerCores =
      ws.length === 0
        ? null
        : ws.some((w) => w === null)
          ? null
          : round(
              ws.reduce((a: number, b) => a + b!, 0),
              2,
            );
    const other =
      s.machine === null || s.server === null || s.loadGenerator === null || r === null
        ? null
        : Math.max(0, round(s.machine - s.server - s.loadGenerator - r - (s.database ?? 0) - (workerCores ?? 0), 2));
    return { server: s.server, workers: workerCores, receiver: r, database: s.database, loadGenerator: s.loadGenerator, other };
  };
}

function logProblems(children: Child[]): WebhookMeasurements['logs'] {
  const lines = children.flatMap((c) => c.output().split('\n')).filter((line) => /"level":(40|50|60)/.test(line));
  return {
    warnings: lines.filter((l) => l.includes('"level":40')).length,
    errors: lines.filter((l) => /"level":(50|60)/.test(l)).length,
    sample: lines.slice(0, 5).map((l) => l.slice(0, 300)),
  };
}

async function steadyPhase(p: Processes, merchants: BenchMerchant[], rate: number, settings: WebhookSettings, title: string, progress: Progress): Promise<SteadyResult> {
  await p.receiver.reset();
  const before = await eventsOf(p.data, merchants, STEADY_EVENTS[0]);
  const created = { count: 0 };
  const stopCpu = cpuOf(p);
  const load = await runLoad({
    title,
    url: p.server.url,
    serverPid: p.server.child.process.pid,
    database: p.database,
    connections: settings.connections,
    durationSeconds: settings.durationSeconds,
    overallRate: rate,
    requests: creationsOverMerchants(merchants, randomBytes(4).toString('hex'), created),
  });
  const loadEnded = Date.now();
  // Creations whose connection autocannon dropped at the end still finish on the server.
  await new Promise((r) => setTimeout(r, 1000));
  const expected = (await eventsOf(p.data, merchants, STEADY_EVENTS[0])) - before;
  progress(`${title}: ${created.count} payments created (${expected} completed events); waiting for their deliveries`);
  const { stats, finished } = await waitForReceiver(p.receiver, (s) => s.distinct >= expected, STEADY_SETTLE_MS);
  const cpu = stopCpu();
  return {
    rate,
    load,
    created: created.count,
    expected,
    received: stats.distinct,
    finished,
    settleSeconds: round(Math.max(0, ((stats.lastAt ?? loadEnded) - loadEnded) / 1000), 2),
    latencyMs: stats.latencyMs,
    slowRequests: stats.slowRequests,
    cpu,
  };
}

/**
 * The whole webhook phase on one database: its own fresh database (SQLite folder or PostgreSQL
 * database), dropped afterwards. `createRate` is the creation req/s measured earlier in the run.
 */
export async function measureWebhooks(
  kind: 'sqlite' | 'postgres',
  postgresUrl: string,
  createRate: number,
  settings: WebhookSettings,
  progress: Progress,
): Promise<WebhookMeasurements> {
  const label = `webhooks/${kind}`;
  const dataDir = mkdtempSync(join(settings.dataParent ?? tmpdir(), 'akwe-bench-webhooks-'));
  let benchDatabase: BenchDatabase | undefined;
  const children: Child[] = [];
  let receiver: Receiver | undefined;
  try {
    if (kind === 'postgres') {
      benchDatabase = await createBenchDatabase(postgresUrl);
      progress(`${label}: created database ${benchDatabase.name}`);
    }
    const data: AkweData = { dataDir, ...(benchDatabase ? { databaseUrl: benchDatabase.url } : {}) };
    const database: DatabaseProcesses | undefined = benchDatabase ? { name: 'postgres', titleIncludes: ` ${benchDatabase.name} ` } : undefined;
    const nodeFlags = settings.nodeFlags ? { nodeFlags: settings.nodeFlags } : {};
    receiver = await startReceiver(WEBHOOK_MERCHANTS);
    const port = await freePort();
    let server = await startAkwe({ port, ...data, ...nodeFlags, runWorkers: false });
    children.push(server.child);

    progress(`${label}: ${WEBHOOK_MERCHANTS} merchants (akwe merchants create) and their endpoints`);
    const merchants = await createMerchants(data, WEBHOOK_MERCHANTS, 'Webhook bench');
    for (const [i, merchant] of merchants.entries()) await createEndpoint(server.url, merchant, receiver.fastUrls[i]!, ['*']);

    // (a) The backlog, workers off: three events per payment, each to its merchant's endpoint.
    const payments = Math.ceil(settings.events / 3);
    progress(`${label}: backlog of ${payments} payments (workers off)`);
    const backlogStarted = performance.now();
    const created = { count: 0 };
    const backlogLoad = await runLoad({
      title: `${label} backlog`,
      url: server.url,
      connections: settings.connections,
      amount: payments,
      requests: creationsOverMerchants(merchants, `b${randomBytes(4).toString('hex')}`, created),
    });
    const backlogSeconds = round((performance.now() - backlogStarted) / 1000, 2);
    const expected = await eventsOf(data, merchants);
    await receiver.reset();

    const workers: Child[] = [];
    let spawnedAt: number;
    let readyAt: number;
    if (kind === 'sqlite') {
      await server.child.stop(30_000);
      spawnedAt = Date.now();
      server = await startAkwe({ port, ...data, ...nodeFlags, knownTestKey: server.testKey });
      readyAt = Date.now();
      children.push(server.child);
    } else {
      spawnedAt = Date.now();
      workers.push(...(await Promise.all(Array.from({ length: WEBHOOK_WORKERS_ON_POSTGRES }, (_, i) => startAkweWorker({ ...data, ...nodeFlags }, `akwe worker ${i + 1}`)))));
      readyAt = Date.now();
      children.push(...workers);
    }
    const processes: Processes = { data, server, workers, receiver, ...(database ? { database } : {}) };
    progress(`${label}: draining ${expected} deliveries (${kind === 'sqlite' ? 'akwe serve, workers on' : `${workers.length} akwe worker processes`})`);
    const stopDrainCpu = cpuOf(processes);
    const drained = await waitForReceiver(receiver, (s) => s.distinct >= expected, Math.max(120_000, expected * 5));
    const drainCpu = stopDrainCpu();
    const stats: ReceiverStats = drained.stats;
    const lastAt = stats.lastAt ?? Date.now();
    const startedAt = Math.min(readyAt, stats.firstAt ?? readyAt);
    const seconds = (lastAt - startedAt) / 1000;
    const drain: DrainResult = {
      payments: created.count,
      expected,
      received: stats.deliveries,
      distinct: stats.distinct,
      extraDeliveries: stats.extraDeliveries,
      finished: drained.finished,
      seconds: round(seconds, 2),
      secondsFromSpawn: round((lastAt - spawnedAt) / 1000, 2),
      deliveriesPerSecond: round(stats.distinct / seconds, 1),
      backlogSeconds,
      backlogLoad,
      cpu: drainCpu,
    };
    if (backlogLoad.non2xx + backlogLoad.errors > 0) progress(`${label}: ${backlogLoad.non2xx + backlogLoad.errors} backlog creation(s) failed`);
    progress(`${label}: drained ${stats.distinct}/${expected} in ${fmt(seconds, 2)} s = ${fmt(drain.deliveriesPerSecond)} deliveries/s`);

    // (b) Steady load at half the creation rate, one delivery per payment.
    for (const merchant of merchants) await setEndpointEvents(server.url, merchant, merchant.endpointIds[0]!, STEADY_EVENTS);
    const rate = Math.max(1, Math.round(createRate / 2));
    progress(`${label}: steady creations at ${rate} req/s for ${settings.durationSeconds} s`);
    const steady = await steadyPhase(processes, merchants, rate, settings, `${label} steady`, progress);
    progress(`${label}: steady p50 ${fmt(steady.latencyMs.p50)} ms, p99 ${fmt(steady.latencyMs.p99)} ms`);

    // (c) The same with one endpoint more, which never answers.
    await createEndpoint(server.url, merchants[0]!, receiver.slowUrl, STEADY_EVENTS);
    progress(`${label}: steady creations with a timing-out endpoint`);
    const withTimeout = await steadyPhase(processes, merchants, rate, settings, `${label} + timeout`, progress);
    progress(
      `${label}: others' p50 ${fmt(withTimeout.latencyMs.p50)} ms, p99 ${fmt(withTimeout.latencyMs.p99)} ms; ${withTimeout.slowRequests} request(s) held by the timing-out endpoint`,
    );

    return {
      kind,
      database: benchDatabase ? safeUrl(benchDatabase.url) : `sqlite:${join(dataDir, 'akwe.db')}`,
      workerProcesses: kind === 'sqlite' ? 1 : workers.length,
      merchants: WEBHOOK_MERCHANTS,
      endpoints: `${WEBHOOK_MERCHANTS} merchants, one endpoint each on its own receiver port; drain: every event; steady: collect.payment.completed; +timeout: a second endpoint of merchant 1 that never answers`,
      drain,
      steady,
      withTimeout,
      logs: logProblems(children),
    };
  } finally {
    // The receiver first: closing its connections ends the sends held by the silent endpoint,
    // so the workers stop at once instead of waiting out Akwe's 30 s timeout.
    await receiver?.child.stop();
    for (const child of children.reverse()) await child.stop(30_000);
    await cleanUpBenchData(benchDatabase, dataDir, progress, label);
  }
}

function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

export interface WebhookTarget {
  name: string;
  value: number | null;
  threshold: number;
  pass: boolean | null;
  unit: 'per second' | 'ms';
  note?: string;
}

export function webhookTargets(m: WebhookMeasurements): WebhookTarget[] {
  const limit = m.steady.latencyMs.p99 * MAX_TIMEOUT_P99_FACTOR;
  const measured = (v: number) => (Number.isFinite(v) ? v : null);
  const check = (v: number, ok: (x: number) => boolean) => (Number.isFinite(v) ? ok(v) : null);
  return [
    {
      name: `(a) drain >= ${MIN_DRAIN_PER_SECOND} deliveries/s`,
      value: measured(m.drain.deliveriesPerSecond),
      threshold: MIN_DRAIN_PER_SECOND,
      pass: m.drain.finished ? check(m.drain.deliveriesPerSecond, (v) => v >= MIN_DRAIN_PER_SECOND) : false,
      unit: 'per second',
      ...(m.drain.finished ? {} : { note: `${m.drain.expected - m.drain.distinct} deliveries never arrived` }),
    },
    {
      name: `(b) commit to answer p50 < ${MAX_STEADY_P50_MS} ms`,
      value: measured(m.steady.latencyMs.p50),
      threshold: MAX_STEADY_P50_MS,
      pass: check(m.steady.latencyMs.p50, (v) => v < MAX_STEADY_P50_MS),
      unit: 'ms',
    },
    {
      name: `(b) commit to answer p99 < ${MAX_STEADY_P99_MS} ms`,
      value: measured(m.steady.latencyMs.p99),
      threshold: MAX_STEADY_P99_MS,
      pass: check(m.steady.latencyMs.p99, (v) => v < MAX_STEADY_P99_MS),
      unit: 'ms',
    },
    {
      name: `(c) other endpoints' p99 with one timing out <= ${MAX_TIMEOUT_P99_FACTOR}x (b)'s`,
      value: measured(m.withTimeout.latencyMs.p99),
      threshold: round(limit, 2),
      pass: check(m.withTimeout.latencyMs.p99, (v) => v <= limit),
      unit: 'ms',
      note: `limit ${fmt(limit, 2)} ms`,
    },
  ];
}

function targetLine(t: WebhookTarget): string {
  const verdict = t.pass === null ? '----' : t.pass ? 'PASS' : 'FAIL';
  const measured = t.value === null ? 'not measured' : `measured ${t.unit === 'ms' ? `${fmt(t.value, 1)} ms` : `${fmt(t.value, 1)}/s`}`;
  return `${verdict}  ${t.name} (${measured}${t.note ? `; ${t.note}` : ''})`;
}

/** The phase's own table and targets, for the bench's report. */
export function webhookReport(m: WebhookMeasurements, targetsApply: boolean): string[] {
  const widths = [34, 9, 9, 9, 9, 8, 8, 8, 8, 8];
  const row = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const cpu = (c: WebhookCpu) => [fmt(c.server ?? NaN, 2), fmt(c.workers ?? NaN, 2), fmt(c.receiver ?? NaN, 2), fmt(c.database ?? NaN, 2), fmt(c.other ?? NaN, 2)];
  const steadyRow = (name: string, s: SteadyResult) => row([name, `${s.received}/${s.expected}`, `${s.rate}/s`, fmt(s.latencyMs.p50), fmt(s.latencyMs.p99), ...cpu(s.cpu)]);
  const lines = [
    '',
    `webhooks on ${m.kind} (${m.workerProcesses === 1 ? 'akwe serve with its workers' : `akwe serve, workers off, and ${m.workerProcesses} akwe worker processes`}; ${m.endpoints}):`,
    row(['phase', 'delivered', 'rate', 'p50 ms', 'p99 ms', 'srv cpu', 'wrk cpu', 'rcv cpu', 'db cpu', 'oth cpu']),
    row([`(a) drain ${m.drain.expected} deliveries`, `${m.drain.distinct}/${m.drain.expected}`, `${fmt(m.drain.deliveriesPerSecond, 0)}/s`, '-', '-', ...cpu(m.drain.cpu)]),
    steadyRow('(b) steady, completed events', m.steady),
    steadyRow('(c) (b) + a timing-out endpoint', m.withTimeout),
    `  (a) ${m.drain.payments} payments made the backlog in ${fmt(m.drain.backlogSeconds, 1)} s with the workers off; drained in ${fmt(m.drain.seconds, 2)} s from the workers being ready (${fmt(m.drain.secondsFromSpawn, 2)} s from their start)${m.drain.extraDeliveries > 0 ? `; ${m.drain.extraDeliveries} delivered twice` : ''}`,
    `  (b)/(c) latency: event created_at to the receiver's answer, every delivery of the phase's payments; last ones ${fmt(m.steady.settleSeconds, 2)} s / ${fmt(m.withTimeout.settleSeconds, 2)} s after the load stopped; the silent endpoint held ${m.withTimeout.slowRequests} request(s)`,
    `  target${targetsApply ? 's' : `s (SQLite's, shown for reference)`}:`,
    ...webhookTargets(m).map((t) => `    ${targetLine(t)}`),
  ];
  if (m.logs.warnings + m.logs.errors > 0)
    lines.push(`  the Akwe processes logged ${m.logs.warnings} warning(s) and ${m.logs.errors} error(s); first lines:`, ...m.logs.sample.map((l) => `    ${l}`));
  for (const [name, s] of [
    ['(b)', m.steady],
    ['(c)', m.withTimeout],
  ] as const) {
    if (!s.finished) lines.push(`  WARNING: ${name} ${s.expected - s.received} deliveries had not arrived ${STEADY_SETTLE_MS / 1000} s after the load stopped`);
  }
  if (!m.drain.finished) lines.push(`  WARNING: (a) ${m.drain.expected - m.drain.distinct} deliveries never arrived`);
  return lines;
}

/** Load phases of the webhook run, for the bench's failed-request policy. */
export function webhookLoads(m: WebhookMeasurements): LoadResult[] {
  return [m.drain.backlogLoad, m.steady.load, m.withTimeout.load];
}
