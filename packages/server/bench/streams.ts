/**
 * The event-stream phase of `npm run bench` (issue #37, point 5), also run alone by `npm run
 * bench:streams` (bench/run-streams.ts). On a fresh database, `akwe serve` with its workers and its
 * default stream caps; the demo merchant gets enough test keys to open its per-merchant cap of
 * streams (EVENT_STREAM_MAX_PER_MERCHANT over keys of EVENT_STREAM_MAX_PER_KEY streams each).
 *
 *   warm-up: BENCH_WARMUP_REQUESTS creations.
 *   Then, each run creation at BENCH_LATENCY_CONNECTIONS (10) connections for
 *   BENCH_DURATION_SECONDS with GET /health at one connection beside it, in this order:
 *   none, held, none, held, none, held, none, fed:
 *   none:    no stream open.
 *   held:    the cap's worth of streams of ANOTHER merchant opened by a child process
 *            (bench/stream-holder.ts, so their reading never delays the load generator's
 *            measurements): open and waiting, as the probe's 2 200 were; their merchant's reader
 *            is woken by every commit signal. The first time, one more is checked to be refused
 *            (429 with Retry-After). Closed again after the run.
 *   fed:     the cap's worth of streams of the creating merchant, all events: every creation's
 *            events go to every stream (about 100 times the creations' own output).
 * Targets: creation p50 and /health p50 with the streams held open (the median of the held runs)
 * at most 1.2x the baseline's (the median of the none runs): interleaved and repeated, because a
 * sub-millisecond /health p50 moves more between two identical runs than the 20 % it is held to.
 * The `fed` run is reported beside them: it measures delivering that much output at saturation.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_EVENT_STREAM_LIMITS } from '../src/core/events/event-stream-slots.js';
import type { DatabaseProcesses } from './cpu.js';
import { creationRequests } from './creation-requests.js';
import { round, runLoad, type LoadResult } from './load.js';
import { createBenchDatabase, safeUrl, type BenchDatabase, cleanUpBenchData } from './postgres.js';
import { akweEnv, freePort, serverPackageDir, startAkwe, startScript, type AkweServer, type Child } from './processes.js';

const run = promisify(execFile);
const STREAM_PATH = '/api/v1/events/stream';
/** With the streams open, creation p50 and /health p50 stay within this factor of none open. */
export const MAX_STREAM_SLOWDOWN = 1.2;
/** How many held runs (each between two none runs). */
const HELD_ROUNDS = 3;

/** The median of the runs that measured something (a run without an answer has NaN). */
function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface StreamSettings {
  durationSeconds: number;
  latencyConnections: number;
  warmupRequests: number;
  nodeFlags?: string[];
  dataParent?: string;
}

interface LoadPair {
  create: LoadResult;
  health: LoadResult;
}

export interface StreamMeasurements {
  kind: 'sqlite' | 'postgres';
  database: string;
  streams: number;
  keys: number;
  /** What the stream over the cap got: its status and Retry-After. */
  overCap: { status: number; retryAfter: string | null; code: string | null };
  /** The runs with no stream open, in order. */
  none: LoadPair[];
  /** The runs with the streams of another merchant open (the cost of holding them), in order. */
  held: LoadPair[];
  /** The streams of the creating merchant open, each taking every event (the cost of the output). */
  fedStreams: LoadPair;
  /** Messages (events) each stream received: held (another merchant's: none expected) and fed. */
  eventsPerStream: { min: number; max: number };
  eventsPerHeldStream: { min: number; max: number };
  /** Medians of the none runs' p50s. */
  baseline: { createP50Ms: number; healthP50Ms: number };
  /** Medians of the held runs' p50s. */
  withHeld: { createP50Ms: number; healthP50Ms: number };
}

type Progress = (text: string) => void;

/** `akwe merchants create` against the bench's database: another merchant, with its test key. */
async function createMerchant(dataDir: string, databaseUrl: string | undefined, name: string): Promise<{ merchantId: string; testKey: string }> {
  const env = akweEnv({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  const { stdout } = await run(process.execPath, ['bin/akwe.js', 'merchants', 'create', '--name', name, '--json'], { cwd: serverPackageDir, env });
  const created = JSON.parse(stdout) as { merchant: { id: string }; test_key: { key: string } };
  return { merchantId: created.merchant.id, testKey: created.test_key.key };
}

/** `akwe keys create` against the bench's database: more test keys for the merchant. */
async function createKeys(dataDir: string, databaseUrl: string | undefined, merchantId: string, count: number): Promise<string[]> {
  const env = akweEnv({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const { stdout } = await run(process.execPath, ['bin/akwe.js', 'keys', 'create', '--merchant', merchantId, '--env', 'test', '--json'], { cwd: serverPackageDir, env });
    keys.push((JSON.parse(stdout) as { key: string }).key);
  }
  return keys;
}

async function loadPair(server: AkweServer, settings: StreamSettings, database: DatabaseProcesses | undefined, title: string): Promise<LoadPair> {
  const runId = randomBytes(4).toString('hex');
  const [create, health] = await Promise.all([
    runLoad({
      title: `streams ${title}: create`,
      url: server.url,
      serverPid: server.child.process.pid,
      ...(database ? { database } : {}),
      connections: settings.latencyConnections,
      durationSeconds: settings.durationSeconds,
      requests: creationRequests(server.testKey, runId, []),
    }),
    runLoad({
      title: `streams ${title}: /health`,
      url: server.url,
      connections: 1,
      durationSeconds: settings.durationSeconds,
      requests: [{ method: 'GET', path: '/health' }],
    }),
  ]);
  return { create, health };
}

export async function measureStreams(kind: 'sqlite' | 'postgres', postgresUrl: string, settings: StreamSettings, progress: Progress): Promise<StreamMeasurements> {
  const label = `streams/${kind}`;
  const dataDir = mkdtempSync(join(settings.dataParent ?? tmpdir(), 'akwe-bench-streams-'));
  const limits = DEFAULT_EVENT_STREAM_LIMITS;
  let benchDatabase: BenchDatabase | undefined;
  let server: AkweServer | undefined;
  let holder: Child | undefined;
  try {
    if (kind === 'postgres') {
      benchDatabase = await createBenchDatabase(postgresUrl);
      progress(`${label}: created database ${benchDatabase.name}`);
    }
    const database: DatabaseProcesses | undefined = benchDatabase ? { name: 'postgres', titleIncludes: ` ${benchDatabase.name} ` } : undefined;
    server = await startAkwe({
      port: await freePort(),
      dataDir,
      ...(benchDatabase ? { databaseUrl: benchDatabase.url } : {}),
      ...(settings.nodeFlags ? { nodeFlags: settings.nodeFlags } : {}),
    });
    const account = (await (await fetch(`${server.url}/api/v1/account`, { headers: { authorization: `Bearer ${server.testKey}` } })).json()) as { merchant_id?: string };
    const merchantId = account.merchant_id;
    if (!merchantId) throw new Error(`GET /api/v1/account named no merchant: ${JSON.stringify(account)}`);
    const keyCount = Math.ceil(limits.perMerchant / limits.perKey);
    progress(`${label}: ${keyCount - 1} more test keys for the demo merchant, and another merchant with ${keyCount} (akwe merchants create, akwe keys create)`);
    const keys = [server.testKey, ...(await createKeys(dataDir, benchDatabase?.url, merchantId, keyCount - 1))];
    const other = await createMerchant(dataDir, benchDatabase?.url, 'Bench stream holder');
    const otherKeys = [other.testKey, ...(await createKeys(dataDir, benchDatabase?.url, other.merchantId, keyCount - 1))];

    if (settings.warmupRequests > 0) {
      progress(`${label}: warm-up (${settings.warmupRequests} creations)`);
      await runLoad({
        title: 'streams warm-up',
        url: server.url,
        connections: settings.latencyConnections,
        amount: settings.warmupRequests,
        requests: creationRequests(server.testKey, randomBytes(4).toString('hex'), []),
      });
    }

    const running = server;
    /** Opens the cap's worth of streams with these keys in a child process; answers it once they are all open. */
    const openStreams = async (streamKeys: string[]) =>
      (
        await startScript(
          'bench/stream-holder.ts',
          { STREAM_URL: `${running.url}${STREAM_PATH}`, STREAM_KEYS: streamKeys.join(','), STREAM_PER_KEY: String(limits.perKey), STREAM_COUNT: String(limits.perMerchant) },
          /^ready \d+$/m,
          'stream holder',
        )
      ).child;
    /** Closes the holder's streams: the fewest and most events one of them received. */
    const closeStreams = async (child: Child) => {
      // The last events of the run reach the streams a moment after it.
      await new Promise((r) => setTimeout(r, 1_000));
      await child.stop();
      const [, fewest, most] = /^events (\d+) (\d+)$/m.exec(child.output()) ?? [];
      await new Promise((r) => setTimeout(r, 1_000));
      return { min: Number(fewest ?? NaN), max: Number(most ?? NaN) };
    };

    const none: LoadPair[] = [];
    const held: LoadPair[] = [];
    let overCap: StreamMeasurements['overCap'] | undefined;
    const eventsPerHeldStream = { min: Infinity, max: 0 };
    const noneRun = async () => {
      progress(
        `${label}: no stream open (run ${none.length + 1} of ${HELD_ROUNDS + 1}): create at ${settings.latencyConnections} connections and GET /health at 1, ${settings.durationSeconds} s`,
      );
      none.push(await loadPair(server!, settings, database, `none open ${none.length + 1}`));
    };
    await noneRun();
    for (let round = 1; round <= HELD_ROUNDS; round++) {
      progress(`${label}: opening ${limits.perMerchant} streams of another merchant over ${keyCount} keys (bench/stream-holder.ts, a process of its own)`);
      holder = await openStreams(otherKeys);
      if (overCap === undefined) {
        const [, status, retryAfter, code] = /^over-cap (\d+) (\S+) (\S+)$/m.exec(holder.output()) ?? [];
        overCap = {
          status: Number(status),
          retryAfter: retryAfter === undefined || retryAfter === '-' ? null : retryAfter,
          code: code === undefined || code === '-' ? null : code,
        };
        progress(`${label}: the stream over the cap answered ${overCap.status} (${overCap.code ?? '-'}, Retry-After ${overCap.retryAfter ?? '-'})`);
      }
      progress(`${label}: ${limits.perMerchant} streams held open (run ${round} of ${HELD_ROUNDS}): the same load`);
      held.push(await loadPair(server, settings, database, `${limits.perMerchant} held open ${round}`));
      const events = await closeStreams(holder);
      holder = undefined;
      eventsPerHeldStream.min = Math.min(eventsPerHeldStream.min, events.min);
      eventsPerHeldStream.max = Math.max(eventsPerHeldStream.max, events.max);
      await noneRun();
    }

    progress(`${label}: opening ${limits.perMerchant} streams of the creating merchant, every event to each`);
    holder = await openStreams(keys);
    const fedStreams = await loadPair(server, settings, database, `${limits.perMerchant} fed`);
    const eventsPerStream = await closeStreams(holder);
    holder = undefined;
    const p50s = (runs: LoadPair[], of: 'create' | 'health') => runs.map((run) => run[of].latencyMs.p50);

    return {
      kind,
      database: benchDatabase ? safeUrl(benchDatabase.url) : `sqlite:${join(dataDir, 'akwe.db')}`,
      streams: limits.perMerchant,
      keys: keyCount,
      overCap: overCap!,
      none,
      held,
      fedStreams,
      eventsPerStream,
      eventsPerHeldStream,
      baseline: { createP50Ms: round(median(p50s(none, 'create')), 2), healthP50Ms: round(median(p50s(none, 'health')), 2) },
      withHeld: { createP50Ms: round(median(p50s(held, 'create')), 2), healthP50Ms: round(median(p50s(held, 'health')), 2) },
    };
  } finally {
    await holder?.stop();
    await server?.child.stop(30_000);
    await cleanUpBenchData(benchDatabase, dataDir, progress, label);
  }
}

export interface StreamTarget {
  name: string;
  value: number | null;
  threshold: number;
  pass: boolean | null;
  unit: 'times';
  note?: string;
}

export function streamTargets(m: StreamMeasurements): StreamTarget[] {
  const ratio = (withValue: number, baseline: number) => (Number.isFinite(withValue) && baseline > 0 ? round(withValue / baseline, 3) : null);
  const create = ratio(m.withHeld.createP50Ms, m.baseline.createP50Ms);
  const health = ratio(m.withHeld.healthP50Ms, m.baseline.healthP50Ms);
  const refusedRight = m.overCap.status === 429 && m.overCap.retryAfter !== null && m.overCap.code === 'too_many_event_streams';
  return [
    {
      name: `streams ${m.kind}: creation p50 with ${m.streams} streams held open <= ${MAX_STREAM_SLOWDOWN}x none open`,
      value: create,
      threshold: MAX_STREAM_SLOWDOWN,
      pass: create === null ? null : create <= MAX_STREAM_SLOWDOWN,
      unit: 'times',
      note: `median ${m.withHeld.createP50Ms} ms against median ${m.baseline.createP50Ms} ms`,
    },
    {
      name: `streams ${m.kind}: /health p50 with ${m.streams} streams held open <= ${MAX_STREAM_SLOWDOWN}x none open`,
      value: health,
      threshold: MAX_STREAM_SLOWDOWN,
      pass: health === null ? null : health <= MAX_STREAM_SLOWDOWN,
      unit: 'times',
      note: `median ${m.withHeld.healthP50Ms} ms against median ${m.baseline.healthP50Ms} ms`,
    },
    {
      name: `streams ${m.kind}: the stream over the cap is refused, 429 too_many_event_streams with Retry-After`,
      value: refusedRight ? 1 : 0,
      threshold: 1,
      pass: refusedRight,
      unit: 'times',
      note: `${m.overCap.status} ${m.overCap.code ?? '-'}, Retry-After ${m.overCap.retryAfter ?? '-'}`,
    },
  ];
}

export function streamTargetLines(m: StreamMeasurements): string[] {
  return streamTargets(m).map((t) => `    ${t.pass === null ? '----' : t.pass ? 'PASS' : 'FAIL'}  ${t.name} (measured ${t.value === null ? '-' : `${t.value}x`}; ${t.note ?? ''})`);
}

export function streamReport(m: StreamMeasurements): string[] {
  const pair = (p: LoadPair) =>
    `creation p50 ${p.create.latencyMs.p50} ms, p99 ${p.create.latencyMs.p99} ms, ${p.create.requestsPerSecond} req/s; /health p50 ${p.health.latencyMs.p50} ms, p99 ${p.health.latencyMs.p99} ms (cores: server ${p.create.cpu.server ?? '-'}, database ${p.create.cpu.database ?? '-'}, bench ${p.create.cpu.loadGenerator ?? '-'}, other ${p.create.cpu.other ?? '-'})`;
  return [
    '',
    `event streams on ${m.kind} (akwe serve with its workers; creation at the latency connection count with GET /health at 1 beside it; ${m.streams} streams over ${m.keys} keys, held: another merchant's, open and waiting; fed: the creating merchant's, every event to each):`,
    ...m.none.flatMap((run, index) => [
      `  none open ${index + 1}:     ${pair(run)}`,
      ...(m.held[index] ? [`  ${String(m.streams).padEnd(3)} held ${index + 1}:    ${pair(m.held[index])}`] : []),
    ]),
    `  ${String(m.streams).padEnd(3)} fed:         ${pair(m.fedStreams)}`,
    `  medians of the p50s: none open creation ${m.baseline.createP50Ms} ms, /health ${m.baseline.healthP50Ms} ms; held creation ${m.withHeld.createP50Ms} ms, /health ${m.withHeld.healthP50Ms} ms`,
    `  events received per stream: held (another merchant's) ${m.eventsPerHeldStream.min} to ${m.eventsPerHeldStream.max}; fed ${m.eventsPerStream.min} to ${m.eventsPerStream.max}; the stream over the cap: ${m.overCap.status} ${m.overCap.code ?? '-'}, Retry-After ${m.overCap.retryAfter ?? '-'}`,
    '  targets:',
    ...streamTargetLines(m),
    `    info  streams ${m.kind}: fed (every event to each of ${m.streams}): creation p50 ${ratioText(m.fedStreams.create.latencyMs.p50, m.baseline.createP50Ms)}, /health p50 ${ratioText(m.fedStreams.health.latencyMs.p50, m.baseline.healthP50Ms)} of none open`,
  ];
}

function ratioText(value: number, baseline: number): string {
  return baseline > 0 ? `${round(value / baseline, 3)}x (${value} ms against ${baseline} ms)` : '-';
}

/** The phase's load runs, for the failure count of the bench. */
export function streamLoads(m: StreamMeasurements): LoadResult[] {
  return [...m.none, ...m.held, m.fedStreams].flatMap((p) => [p.create, p.health]);
}
