/**
 * The payout phase of `npm run bench` (issue #11, "Done when"), run after each database's creation
 * phases, on a fresh database of its own: `akwe serve` with its workers in the same process (as
 * `npm start`), SANDBOX_FLOAT at its highest (1 000 000 000 000 FCFA, so no payout meets
 * insufficient_balance) and SANDBOX_PAYOUT_DELAY_MS=0 (the sandbox answers COMPLETED at the first
 * status query after the hand-off).
 *
 *   (1) Creation: POST /api/v1/payout/mobile-money/ (500 000 centimes to 0197000000, mtn_bj, a fresh
 *       Idempotency-Key and reference each) at BENCH_CONNECTIONS (50) for BENCH_DURATION_SECONDS,
 *       workers on and no webhook endpoint, as the collect creation phase. Then the bench waits for
 *       the workers to take every payout to a final status (and says how long that took).
 *   (2) Creation to COMPLETED: one webhook endpoint of the demo merchant, subscribed to
 *       `payout.completed`, on the receiver (bench/webhook-receiver.ts, its own process). BENCH_PAYOUTS
 *       (1 000) payouts are created twice: paced at BENCH_PAYOUT_RATE (100/s) over 50 connections,
 *       then all at once (50 connections, as fast as the server answers). For each payout, from the
 *       database's timestamps and the receiver's answer times (same machine, same clock):
 *         total     = payout created_at -> the receiver answered its payout.completed webhook
 *         completed = payout created_at -> its payout.completed event (the COMPLETED commit)
 *         hand-off  = payout created_at -> its payout.updated event (PROCESSING, operator called)
 *         follow-up = payout.updated -> payout.completed (the payout-check worker's poll)
 *         delivery  = payout.completed -> the receiver's answer
 *       p50/p99 of each, and how many payouts completed and were delivered within 60 s of the load.
 */
import type autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureCpu, type DatabaseProcesses } from './cpu.js';
import { round, runLoad, summarize, type LatencySummary, type LoadResult } from './load.js';
import { createBenchDatabase, safeUrl, type BenchDatabase, cleanUpBenchData } from './postgres.js';
import { freePort, startAkwe, type Child } from './processes.js';
import { queryDatabase, startReceiver, waitForReceiver, type AkweData, type Receiver } from './webhook-setup.js';

export const PAYOUT_PATH = '/api/v1/payout/mobile-money/';
const ENDPOINTS_PATH = '/api/v1/webhook-endpoints';
/** Highest SANDBOX_FLOAT config.ts accepts (major units). */
export const PAYOUT_SANDBOX_FLOAT = '1000000000000';
export const PAYOUT_SANDBOX_DELAY_MS = '0';
/** Centimes per payout: 5 000 FCFA, plus its 1 % + 50 FCFA fee reserved. */
export const PAYOUT_AMOUNT = 500_000;
/** How long a run's webhooks may keep arriving after its load stops, and the workers may take to drain (1). */
const SETTLE_MS = 60_000;
const DRAIN_MS = 180_000;

export interface PayoutSettings {
  durationSeconds: number;
  connections: number;
  warmupRequests: number;
  /** Payouts per completion run (BENCH_PAYOUTS). */
  payouts: number;
  /** Creations per second of the paced run (BENCH_PAYOUT_RATE). */
  pacedRate: number;
  nodeFlags?: string[];
  dataParent?: string;
}

export interface PayoutCpu {
  server: number | null;
  receiver: number | null;
  database: number | null;
  loadGenerator: number | null;
  other: number | null;
}

export interface CreationResult {
  load: LoadResult;
  /** Payouts in the database after the phase (those of the warm-up excluded). */
  stored: number;
  /** From the end of the load to every payout of the database being final. */
  drainSecondsAfterLoad: number;
  drained: boolean;
  finalStatuses: Record<string, number>;
}

export interface CompletionRun {
  name: 'paced' | 'at once';
  /** Creations per second asked (null: as fast as the server answers). */
  rate: number | null;
  load: LoadResult;
  /** Seconds the creations took (first to last answer of the load). */
  creationSeconds: number;
  /** Payouts of the run in the database. */
  stored: number;
  statuses: Record<string, number>;
  /** Payouts with a payout.completed event, and with its webhook answered by the receiver. */
  completed: number;
  delivered: number;
  finished: boolean;
  /** From the end of the load to the last webhook answered. */
  settleSeconds: number;
  totalMs: LatencySummary;
  completedMs: LatencySummary;
  handoffMs: LatencySummary;
  followUpMs: LatencySummary;
  deliveryMs: LatencySummary;
  cpu: PayoutCpu;
}

export interface PayoutMeasurements {
  kind: 'sqlite' | 'postgres';
  database: string;
  sandbox: { float: string; payoutDelayMs: string; amountMinor: number };
  warmup: LoadResult | null;
  creation: CreationResult;
  runs: CompletionRun[];
  logs: { warnings: number; errors: number; sample: string[] };
}

type Progress = (text: string) => void;

function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Payout creations, each with a fresh Idempotency-Key and reference `po-<runId>-<n>` (hex run id: never a sandbox keyword). */
function payoutRequests(testKey: string, runId: string, created: { count: number }): autocannon.Request[] {
  let counter = 0;
  return [
    {
      method: 'POST',
      path: PAYOUT_PATH,
      headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      setupRequest: (request) => {
        counter += 1;
        request.headers = { ...request.headers, 'idempotency-key': `idem-po-${runId}-${counter}` };
        request.body = JSON.stringify({ reference: `po-${runId}-${counter}`, amount: PAYOUT_AMOUNT, phone: '0197000000', country: 'BJ', operator: 'mtn_bj' });
        return request;
      },
      onResponse: (status) => {
        if (status === 201) created.count += 1;
      },
    },
  ];
}

async function statusCounts(data: AkweData, referencePrefix?: string): Promise<Record<string, number>> {
  const where = referencePrefix === undefined ? '' : ` where reference like ${quote(`${referencePrefix}%`)}`;
  const rows = await queryDatabase<{ status: string; n: number | string }>(data, `select status, count(*) as n from payouts${where} group by status`);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

const inFlight = (statuses: Record<string, number>) => (statuses.PENDING ?? 0) + (statuses.PROCESSING ?? 0);
const total = (statuses: Record<string, number>) => Object.values(statuses).reduce((a, b) => a + b, 0);

/** Waits until no payout is PENDING or PROCESSING; resolves with the last counts and whether it got there. */
async function waitForFinal(data: AkweData, timeoutMs: number, referencePrefix?: string): Promise<{ statuses: Record<string, number>; finished: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await statusCounts(data, referencePrefix);
    if (inFlight(statuses) === 0) return { statuses, finished: true };
    if (Date.now() > deadline) return { statuses, finished: false };
    await new Promise((r) => setTimeout(r, 100));
  }
}

function cpuOf(server: Child, receiver: Child, database: DatabaseProcesses | undefined): () => PayoutCpu {
  const s = measureCpu(server.process.pid, database);
  const r = measureCpu(receiver.process.pid);
  return () => {
    const sc = s();
    const rc = r().server;
    const other =
      sc.machine === null || sc.server === null || sc.loadGenerator === null || rc === null
        ? null
        : Math.max(0, round(sc.machine - sc.server - sc.loadGenerator - rc - (sc.database ?? 0), 2));
    return { server: sc.server, receiver: rc, database: sc.database, loadGenerator: sc.loadGenerator, other };
  };
}

/** Per payout of a run: its creation, hand-off (payout.updated) and completion (payout.completed) times, from the database. */
async function payoutTimes(
  data: AkweData,
  referencePrefix: string,
): Promise<Map<string, { createdAt: number; updatedAt?: number; completedAt?: number; completedEventId?: string; status: string }>> {
  const like = quote(`${referencePrefix}%`);
  const payouts = await queryDatabase<{ reference: string; status: string; created_at: string }>(
    data,
    `select reference, status, created_at from payouts where reference like ${like}`,
  );
  const events = await queryDatabase<{ id: string; type: string; subject_reference: string; created_at: string }>(
    data,
    `select id, type, subject_reference, created_at from events where subject_reference like ${like} and type in ('payout.updated', 'payout.completed')`,
  );
  const byReference = new Map(
    payouts.map((p) => [
      p.reference,
      { createdAt: Date.parse(p.created_at), status: p.status } as { createdAt: number; updatedAt?: number; completedAt?: number; completedEventId?: string; status: string },
    ]),
  );
  for (const event of events) {
    const payout = byReference.get(event.subject_reference);
    if (!payout) continue;
    const at = Date.parse(event.created_at);
    // A payout.updated may come more than once in general; the first is the hand-off's PROCESSING.
    if (event.type === 'payout.updated') payout.updatedAt = Math.min(payout.updatedAt ?? Infinity, at);
    else {
      payout.completedAt = at;
      payout.completedEventId = event.id;
    }
  }
  return byReference;
}

async function completionRun(
  name: CompletionRun['name'],
  rate: number | null,
  ctx: { data: AkweData; server: { url: string; testKey: string; child: Child }; receiver: Receiver; database?: DatabaseProcesses; settings: PayoutSettings },
  progress: Progress,
  label: string,
): Promise<CompletionRun> {
  const { data, server, receiver, settings } = ctx;
  const runId = randomBytes(4).toString('hex');
  const prefix = `po-${runId}-`;
  await receiver.reset();
  const created = { count: 0 };
  const stopCpu = cpuOf(server.child, receiver.child, ctx.database);
  progress(`${label}: ${settings.payouts} payouts ${rate === null ? 'at once' : `paced at ${rate}/s`} over ${settings.connections} connections`);
  const load = await runLoad({
    title: `${label} ${name}`,
    url: server.url,
    serverPid: server.child.process.pid,
    database: ctx.database,
    connections: settings.connections,
    amount: settings.payouts,
    ...(rate === null ? {} : { overallRate: rate }),
    requests: payoutRequests(server.testKey, runId, created),
  });
  const loadEnded = Date.now();
  const stored = total(await statusCounts(data, prefix));
  // Every COMPLETED payout of the run has one payout.completed delivery to the one endpoint.
  const { stats, finished } = await waitForReceiver(receiver, (s) => s.distinct >= stored, SETTLE_MS);
  const cpu = stopCpu();
  const statuses = (await waitForFinal(data, 0, prefix)).statuses;
  const answered = await receiver.times();
  const times = await payoutTimes(data, prefix);
  const totals: number[] = [];
  const toCompleted: number[] = [];
  const handoffs: number[] = [];
  const followUps: number[] = [];
  const deliveries: number[] = [];
  let completed = 0;
  let delivered = 0;
  for (const p of times.values()) {
    if (p.updatedAt !== undefined) handoffs.push(p.updatedAt - p.createdAt);
    if (p.completedAt === undefined) continue;
    completed += 1;
    toCompleted.push(p.completedAt - p.createdAt);
    if (p.updatedAt !== undefined) followUps.push(p.completedAt - p.updatedAt);
    const answeredAt = answered[`0 ${p.completedEventId}`];
    if (answeredAt === undefined) continue;
    delivered += 1;
    totals.push(answeredAt - p.createdAt);
    deliveries.push(answeredAt - p.completedAt);
  }
  return {
    name,
    rate,
    load,
    creationSeconds: load.seconds,
    stored,
    statuses,
    completed,
    delivered,
    finished: finished && delivered >= stored,
    settleSeconds: round(Math.max(0, ((stats.lastAt ?? loadEnded) - loadEnded) / 1000), 2),
    totalMs: summarize(totals),
    completedMs: summarize(toCompleted),
    handoffMs: summarize(handoffs),
    followUpMs: summarize(followUps),
    deliveryMs: summarize(deliveries),
    cpu,
  };
}

function logProblems(child: Child): PayoutMeasurements['logs'] {
  const lines = child
    .output()
    .split('\n')
    .filter((line) => /"level":(40|50|60)/.test(line));
  return {
    warnings: lines.filter((l) => l.includes('"level":40')).length,
    errors: lines.filter((l) => /"level":(50|60)/.test(l)).length,
    sample: lines.slice(0, 5).map((l) => l.slice(0, 300)),
  };
}

/** The whole payout phase on one database: its own fresh database (SQLite folder or PostgreSQL database), dropped afterwards. */
export async function measurePayouts(kind: 'sqlite' | 'postgres', postgresUrl: string, settings: PayoutSettings, progress: Progress): Promise<PayoutMeasurements> {
  const label = `payouts/${kind}`;
  const dataDir = mkdtempSync(join(settings.dataParent ?? tmpdir(), 'akwe-bench-payouts-'));
  let benchDatabase: BenchDatabase | undefined;
  let receiver: Receiver | undefined;
  let server: Awaited<ReturnType<typeof startAkwe>> | undefined;
  try {
    if (kind === 'postgres') {
      benchDatabase = await createBenchDatabase(postgresUrl);
      progress(`${label}: created database ${benchDatabase.name}`);
    }
    const data: AkweData = { dataDir, ...(benchDatabase ? { databaseUrl: benchDatabase.url } : {}) };
    const database: DatabaseProcesses | undefined = benchDatabase ? { name: 'postgres', titleIncludes: ` ${benchDatabase.name} ` } : undefined;
    receiver = await startReceiver(1);
    server = await startAkwe({
      port: await freePort(),
      ...data,
      ...(settings.nodeFlags ? { nodeFlags: settings.nodeFlags } : {}),
      env: { SANDBOX_FLOAT: PAYOUT_SANDBOX_FLOAT, SANDBOX_PAYOUT_DELAY_MS: PAYOUT_SANDBOX_DELAY_MS },
    });

    let warmup: LoadResult | null = null;
    if (settings.warmupRequests > 0) {
      progress(`${label} on ${server.url}: warm-up (${settings.warmupRequests} payouts)`);
      warmup = await runLoad({
        title: `${label} warm-up`,
        url: server.url,
        connections: 10,
        amount: settings.warmupRequests,
        requests: payoutRequests(server.testKey, `w${randomBytes(4).toString('hex')}`, { count: 0 }),
      });
      await waitForFinal(data, DRAIN_MS);
    }
    const before = total(await statusCounts(data));

    // (1) Creation throughput, workers on, no webhook endpoint yet.
    progress(`${label}: create at ${settings.connections} connections for ${settings.durationSeconds} s`);
    const load = await runLoad({
      title: `${label} POST /payout/mobile-money/`,
      url: server.url,
      serverPid: server.child.process.pid,
      database,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      requests: payoutRequests(server.testKey, `c${randomBytes(4).toString('hex')}`, { count: 0 }),
    });
    const loadEnded = Date.now();
    const drained = await waitForFinal(data, DRAIN_MS);
    const creation: CreationResult = {
      load,
      stored: total(drained.statuses) - before,
      drainSecondsAfterLoad: round((Date.now() - loadEnded) / 1000, 2),
      drained: drained.finished,
      finalStatuses: drained.statuses,
    };
    progress(
      `${label}: ${fmt(load.requestsPerSecond)} creations/s; the workers finished them ${fmt(creation.drainSecondsAfterLoad, 1)} s after the load${drained.finished ? '' : ' (NOT all final)'}`,
    );

    // (2) Creation to COMPLETED, seen by a webhook endpoint.
    const endpoint = await fetch(`${server.url}${ENDPOINTS_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.fastUrls[0], events: ['payout.completed'] }),
    });
    if (!endpoint.ok) throw new Error(`${label}: could not create the webhook endpoint: ${endpoint.status} ${await endpoint.text()}`);
    const ctx = { data, server, receiver, settings, ...(database ? { database } : {}) };
    const runs: CompletionRun[] = [];
    for (const [name, rate] of [
      ['paced', settings.pacedRate],
      ['at once', null],
    ] as const) {
      const run = await completionRun(name, rate, ctx, progress, label);
      progress(
        `${label} ${name}: ${run.completed}/${run.stored} completed, ${run.delivered} delivered; creation to webhook p50 ${fmt(run.totalMs.p50, 0)} ms, p99 ${fmt(run.totalMs.p99, 0)} ms`,
      );
      runs.push(run);
    }
    await new Promise((r) => setTimeout(r, 500));
    return {
      kind,
      database: benchDatabase ? safeUrl(benchDatabase.url) : `sqlite:${join(dataDir, 'akwe.db')}`,
      sandbox: { float: PAYOUT_SANDBOX_FLOAT, payoutDelayMs: PAYOUT_SANDBOX_DELAY_MS, amountMinor: PAYOUT_AMOUNT },
      warmup,
      creation,
      runs,
      logs: logProblems(server.child),
    };
  } finally {
    await receiver?.child.stop();
    await server?.child.stop(30_000);
    await cleanUpBenchData(benchDatabase, dataDir, progress, label);
  }
}

/** The phase's own lines for the bench's report. */
export function payoutReport(m: PayoutMeasurements): string[] {
  const widths = [22, 10, 10, 9, 9, 9, 9, 9, 9, 9, 8, 8];
  const row = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const pair = (s: LatencySummary) => `${fmt(s.p50, 0)}/${fmt(s.p99, 0)}`;
  const c = m.creation;
  const lines = [
    '',
    `payouts on ${m.kind} (akwe serve with its workers; SANDBOX_PAYOUT_DELAY_MS=${m.sandbox.payoutDelayMs}, SANDBOX_FLOAT=${m.sandbox.float}; ${m.sandbox.amountMinor} centimes each):`,
    `  creation: ${fmt(c.load.requestsPerSecond)} req/s at ${c.load.connections} connections (p50 ${fmt(c.load.latencyMs.p50, 2)} ms, p99 ${fmt(c.load.latencyMs.p99, 2)} ms; srv cpu ${fmt(c.load.cpu.server ?? NaN, 2)}, oth cpu ${fmt(c.load.cpu.other ?? NaN, 2)}); the workers had all ${c.stored} final ${fmt(c.drainSecondsAfterLoad, 1)} s after the load${c.drained ? '' : ' (NOT all final: ' + JSON.stringify(c.finalStatuses) + ')'}`,
    `  creation to COMPLETED, p50/p99 in ms (total: to the payout.completed webhook's answer; completed: to the COMPLETED commit):`,
    row(['run', 'created/s', 'completed', 'delivered', 'total', 'completed', 'hand-off', 'follow-up', 'delivery', 'srv cpu', 'rcv cpu', 'oth cpu']),
  ];
  for (const r of m.runs) {
    lines.push(
      row([
        `${r.name}${r.rate === null ? '' : ` ${r.rate}/s`}`,
        fmt(r.load.requestsPerSecond, 0),
        `${r.completed}/${r.stored}`,
        String(r.delivered),
        pair(r.totalMs),
        pair(r.completedMs),
        pair(r.handoffMs),
        pair(r.followUpMs),
        pair(r.deliveryMs),
        fmt(r.cpu.server ?? NaN, 2),
        fmt(r.cpu.receiver ?? NaN, 2),
        fmt(r.cpu.other ?? NaN, 2),
      ]),
    );
  }
  lines.push(
    `  (hand-off: creation to PROCESSING; follow-up: PROCESSING to COMPLETED, the payout-check worker's poll (1 s per check); delivery: COMPLETED to the receiver's answer)`,
  );
  if (m.logs.warnings + m.logs.errors > 0)
    lines.push(`  the server logged ${m.logs.warnings} warning(s) and ${m.logs.errors} error(s); first lines:`, ...m.logs.sample.map((l) => `    ${l}`));
  for (const r of m.runs) {
    if (!r.finished)
      lines.push(
        `  WARNING: ${r.name}: ${r.stored - r.delivered} payouts had no payout.completed webhook ${SETTLE_MS / 1000} s after the load (statuses ${JSON.stringify(r.statuses)})`,
      );
  }
  return lines;
}

/** Load phases of the payout phase, for the bench's failed-request policy. */
export function payoutLoads(m: PayoutMeasurements): LoadResult[] {
  return [m.creation.load, ...m.runs.map((r) => r.load)];
}
