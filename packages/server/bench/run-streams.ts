/**
 * `npm run bench:streams`: the event-stream phase of `npm run bench` alone (bench/streams.ts), on
 * SQLite and, when reachable, PostgreSQL. The same variables as the bench: BENCH_DATABASES (sqlite and/or postgres),
 * BENCH_DURATION_SECONDS (10), BENCH_LATENCY_CONNECTIONS (10), BENCH_WARMUP_REQUESTS (500),
 * BENCH_DATA_DIR, DATABASE_URL. Prints the figures and each target's verdict; exits 1 when one fails.
 */
import { loadavg } from 'node:os';
import { ensureCompiledBuild } from './processes.js';
import { envInt, exitWith, phaseDatabases } from './settings.js';
import { measureStreams, streamReport, streamTargets } from './streams.js';

const progress = (text: string) => process.stderr.write(`[bench:streams] ${text}\n`);

async function main(): Promise<number> {
  const { postgresUrl, kinds } = await phaseDatabases(progress);
  ensureCompiledBuild(progress);
  progress(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const settings = {
    durationSeconds: envInt('BENCH_DURATION_SECONDS', 10, 1),
    latencyConnections: envInt('BENCH_LATENCY_CONNECTIONS', 10, 1),
    warmupRequests: envInt('BENCH_WARMUP_REQUESTS', 500, 0),
    ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}),
  };
  let failed = false;
  for (const kind of kinds) {
    const measured = await measureStreams(kind, postgresUrl, settings, progress);
    process.stdout.write(`${streamReport(measured).join('\n')}\n`);
    if (streamTargets(measured).some((t) => t.pass === false)) failed = true;
  }
  process.stdout.write(
    `\nload average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  return failed ? 1 : 0;
}

exitWith(main, 2);
