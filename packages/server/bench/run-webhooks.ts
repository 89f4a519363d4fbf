/**
 * `npm run bench:webhooks`: the webhook phase of `npm run bench` alone (bench/webhooks.ts), on
 * SQLite and, when reachable, PostgreSQL. The steady phases need the creation rate that the full
 * bench measures first: give it as BENCH_WEBHOOK_CREATION_RATE (req/s; the steady load is half of
 * it). Also read: BENCH_DATABASES, BENCH_WEBHOOK_EVENTS (20 000), BENCH_DURATION_SECONDS (10),
 * BENCH_CONNECTIONS (50), BENCH_DATA_DIR, DATABASE_URL, BENCH_CPU_PROF (1: Akwe's processes write CPU
 * profiles to bench-results/profiles). Prints the figures and each target's
 * verdict; exits 1 when one fails.
 */
import { join } from 'node:path';
import { ensureCompiledBuild, repoRoot } from './processes.js';
import { envInt, exitWith, phaseDatabases } from './settings.js';
import { measureWebhooks, webhookReport, webhookTargets } from './webhooks.js';

const progress = (text: string) => process.stderr.write(`[bench:webhooks] ${text}\n`);

async function main(): Promise<number> {
  const creationRate = envInt('BENCH_WEBHOOK_CREATION_RATE', undefined, 2);
  const { postgresUrl, kinds } = await phaseDatabases(progress);
  ensureCompiledBuild(progress);
  const settings = {
    events: envInt('BENCH_WEBHOOK_EVENTS', 20_000, 3),
    durationSeconds: envInt('BENCH_DURATION_SECONDS', 10, 1),
    connections: envInt('BENCH_CONNECTIONS', 50, 1),
    ...(process.env.BENCH_DATA_DIR ? { dataParent: process.env.BENCH_DATA_DIR } : {}),
    ...(process.env.BENCH_CPU_PROF === '1' ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${join(repoRoot, 'bench-results', 'profiles')}`] } : {}),
  };
  let failed = false;
  for (const kind of kinds) {
    const measured = await measureWebhooks(kind, postgresUrl, creationRate, settings, progress);
    process.stdout.write(`${webhookReport(measured, kind === 'sqlite').join('\n')}\n`);
    // On PostgreSQL only the drain is a target (issue #43); the rest is shown for reference.
    if (webhookTargets(measured).some((t) => t.pass === false && (kind === 'sqlite' || t.name.startsWith('(a)')))) failed = true;
  }
  return failed ? 1 : 0;
}

exitWith(main, 2);
