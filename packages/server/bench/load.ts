/**
 * One load phase with autocannon, in this (the benchmark's) process: a fixed number of connections
 * for a duration (or a fixed number of requests, for warm-ups). Every response's latency is kept
 * at full (sub-millisecond) precision, because autocannon's own histogram rounds to whole
 * milliseconds, which is too coarse for a bare app answering in a fraction of one.
 */
import autocannon from 'autocannon';
import { measureCpu, type CpuUse, type DatabaseProcesses } from './cpu.js';

export interface LoadPhase {
  title: string;
  url: string;
  connections: number;
  /** Seconds to run; ignored when `amount` is given. */
  durationSeconds?: number;
  /** Stop after this many requests (warm-ups). */
  amount?: number;
  /** Requests per second over all connections (a steady load); unset: as fast as the server answers. */
  overallRate?: number;
  requests: autocannon.Request[];
  /** The process under test, for its CPU use. */
  serverPid?: number;
  /** The database server's processes serving this run, counted apart from other processes. */
  database?: DatabaseProcesses;
}

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface LoadResult {
  title: string;
  connections: number;
  /** Measured wall-clock seconds of the phase. */
  seconds: number;
  /** Responses received, whatever their status. */
  responses: number;
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts (autocannon's `errors`, which includes `timeouts`). */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Successful (2xx) responses per second. */
  requestsPerSecond: number;
  /** Latency of the 2xx responses, in milliseconds. */
  latencyMs: LatencySummary;
  /** Non-2xx responses and connection errors over all requests (0..1). */
  failureRate: number;
  /** Average cores used during the phase by the server, the load generator and other processes. */
  cpu: CpuUse;
}

export async function runLoad(phase: LoadPhase): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let started = 0;
  let stopCpu = measureCpu(phase.serverPid, phase.database);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: phase.url,
        connections: phase.connections,
        pipelining: 1,
        timeout: 10,
        ...(phase.amount !== undefined ? { amount: phase.amount } : { duration: phase.durationSeconds ?? 10 }),
        ...(phase.overallRate !== undefined ? { overallRate: phase.overallRate } : {}),
        requests: phase.requests,
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done)),
    );
    instance.on('start', () => {
      started = performance.now();
      stopCpu = measureCpu(phase.serverPid, phase.database);
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  const cpu = stopCpu();
  const seconds = started > 0 ? (performance.now() - started) / 1000 : result.duration;
  const responses = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const ok = latencies.length;
  const non2xx = responses - ok;
  const attempts = responses + result.errors;
  return {
    title: phase.title,
    connections: phase.connections,
    seconds: round(seconds, 2),
    responses,
    ok,
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    requestsPerSecond: round(ok / seconds, 1),
    latencyMs: summarize(latencies),
    failureRate: attempts === 0 ? 1 : (non2xx + result.errors) / attempts,
    cpu,
  };
}

export function summarize(values: number[]): LatencySummary {
  if (values.length === 0) return { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { p50: round(at(0.5), 2), p90: round(at(0.9), 2), p99: round(at(0.99), 2), max: round(sorted[sorted.length - 1]!, 2), mean: round(mean, 2) };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
