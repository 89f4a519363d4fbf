/**
 * The PostgreSQL server's own ceiling on this machine: `pgbench -N` (the built-in "simple update"
 * script without the branch and teller updates: per transaction one update, one select, one insert
 * and one durable commit) at 10 clients, for as long as one creation phase, in a database of its
 * own (`akwe_pgbench_<random>`, initialised once) on the same server, dropped afterwards.
 *
 * The benchmark alternates it with Akwe's creation phase (the Akwe server idle while pgbench runs),
 * three times each, and compares the medians. Any problem
 * (pgbench not installed, initialisation failing, no `tps = …` line) is reported as a reason, never
 * thrown: the rest of the benchmark goes on without the ceiling.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { measureCpu, type CpuUse } from './cpu.js';
import { round } from './load.js';

export const PGBENCH_SCALE = 10;
export const PGBENCH_CLIENTS = 10;
export const PGBENCH_THREADS = 2;

/** Kernel clock ticks per second of /proc times (USER_HZ), as in cpu.ts. */
const TICKS_PER_SECOND = 100;

export interface PgbenchMeasured {
  measured: true;
  binary: string;
  version: string;
  /** The database pgbench ran in (dropped since). */
  database: string;
  /** The measured command line, database URL without its password. */
  command: string;
  scale: number;
  clients: number;
  threads: number;
  durationSeconds: number;
  /** Transactions per second, without the initial connection time when pgbench prints it apart. */
  tps: number;
  tpsLine: string;
  latencyAverageMs: number | null;
  transactions: number | null;
  failedTransactions: number | null;
  initSeconds: number;
  /** Whether a CHECKPOINT ran before this run (it needs superuser or pg_checkpoint). */
  checkpointAfterInit: boolean;
  /** server: the pgbench client; database: the backends serving pgbench's database. */
  cpu: CpuUse;
}

export interface PgbenchSkipped {
  measured: false;
  binary: string | null;
  reason: string;
}

export type PgbenchCeiling = PgbenchMeasured | PgbenchSkipped;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * BENCH_PGBENCH if set, else `pgbench` on the PATH, else the newest /usr/lib/postgresql/<version>/bin/pgbench
 * (Debian and Ubuntu keep it there, off the PATH, when only the server package is installed).
 */
export function findPgbench(): { binary: string } | { reason: string } {
  const configured = process.env.BENCH_PGBENCH?.trim();
  if (configured) return isExecutable(configured) ? { binary: configured } : { reason: `BENCH_PGBENCH=${configured} is not an executable file` };
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && isExecutable(join(dir, 'pgbench'))) return { binary: join(dir, 'pgbench') };
  }
  try {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const candidate = `/usr/lib/postgresql/${version}/bin/pgbench`;
      if (isExecutable(candidate)) return { binary: candidate };
    }
  } catch {
    // no such folder
  }
  return { reason: 'pgbench was not found (looked on the PATH and in /usr/lib/postgresql/*/bin; install postgresql-client or set BENCH_PGBENCH)' };
}

interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  seconds: number;
  /** CPU ticks of the command (this process's reaped-children times, before and after). */
  childTicks: number | null;
}

/** utime + stime of this process's waited-for children (cutime, cstime), from /proc/self/stat. */
function reapedChildrenTicks(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[13]) + Number(fields[14]);
  } catch {
    return null;
  }
}

function runCommand(binary: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const ticksBefore = reapedChildrenTicks();
    const child = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 200_000) output = output.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const ticksAfter = reapedChildrenTicks();
      resolve({ code, signal, output, seconds: (performance.now() - started) / 1000, childTicks: ticksBefore === null || ticksAfter === null ? null : ticksAfter - ticksBefore });
    });
  });
}

function failure(step: string, result: CommandResult): string {
  const tail = result.output.trim().split('\n').slice(-3).join(' | ');
  return `${step} ended with ${result.code ?? result.signal}: ${tail || '(no output)'}`;
}

/** Reads pgbench's summary; prefers the tps "without initial connection time" (or, before PostgreSQL 14, "excluding connections establishing"). */
export function parsePgbenchOutput(
  output: string,
): { tps: number; tpsLine: string; latencyAverageMs: number | null; transactions: number | null; failedTransactions: number | null } | null {
  const tpsLines = [...output.matchAll(/^tps = ([\d.]+)(.*)$/gm)];
  const preferred = tpsLines.find((m) => /without initial connection time|excluding connections establishing/.test(m[2] ?? '')) ?? tpsLines[0];
  if (!preferred) return null;
  const number = (pattern: RegExp) => {
    const match = pattern.exec(output);
    return match ? Number(match[1]) : null;
  };
  return {
    tps: Number(preferred[1]),
    tpsLine: preferred[0].trim(),
    latencyAverageMs: number(/^latency average = ([\d.]+) ms/m),
    transactions: number(/^number of transactions actually processed: (\d+)/m),
    failedTransactions: number(/^number of failed transactions: (\d+)/m),
  };
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** CHECKPOINT, so that the dirty pages of one measurement are not written during the next; false when not allowed. */
async function checkpoint(adminUrl: string): Promise<boolean> {
  try {
    await withAdmin(adminUrl, (client) => client.query('checkpoint'));
    return true;
  } catch {
    return false;
  }
}

/** A pgbench database ready to run `pgbench -N` as many times as asked; close() drops it. */
export interface PgbenchSession {
  /** `pgbench -N -c 10 -j 2 -T <durationSeconds>` after a CHECKPOINT; never throws. */
  run(durationSeconds: number): Promise<PgbenchCeiling>;
  close(): Promise<void>;
}

/**
 * Creates akwe_pgbench_<random> on the server of `adminUrl` and initialises it (`pgbench -i -s 10`);
 * the reason when that cannot be done (pgbench missing, initialisation failing). Never throws.
 */
export async function openPgbench(adminUrl: string, progress: (text: string) => void): Promise<PgbenchSession | PgbenchSkipped> {
  const found = findPgbench();
  if ('reason' in found) return { measured: false, binary: null, reason: found.reason };
  const binary = found.binary;
  const name = `akwe_pgbench_${randomBytes(4).toString('hex')}`;

  // libpq takes the URL as the database name; the password goes through the environment, not the command line.
  const url = new URL(adminUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  url.pathname = `/${name}`;
  const target = url.toString();
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (password !== '') env.PGPASSWORD = password;

  let version = 'unknown';
  try {
    const result = await runCommand(binary, ['--version'], env, 10_000);
    version = result.output.trim() || version;
  } catch (error) {
    return { measured: false, binary, reason: `${binary} could not be started: ${error instanceof Error ? error.message : String(error)}` };
  }

  try {
    await withAdmin(adminUrl, (client) => client.query(`create database ${name}`));
  } catch (error) {
    return { measured: false, binary, reason: `could not create database ${name} for pgbench: ${error instanceof Error ? error.message : String(error)}` };
  }
  const drop = async () => {
    try {
      await withAdmin(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      progress(`pgbench: dropped database ${name}`);
    } catch (error) {
      progress(`pgbench: could not drop database ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await checkpoint(adminUrl);
  };
  let init: CommandResult;
  try {
    progress(`pgbench: initialising ${name} (scale ${PGBENCH_SCALE})`);
    init = await runCommand(binary, ['-i', '-s', String(PGBENCH_SCALE), '-q', target], env, 600_000);
  } catch (error) {
    await drop();
    return { measured: false, binary, reason: `pgbench -i failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (init.code !== 0) {
    await drop();
    return { measured: false, binary, reason: failure('pgbench -i', init) };
  }

  return {
    async run(durationSeconds: number): Promise<PgbenchCeiling> {
      try {
        const checkpointBefore = await checkpoint(adminUrl);
        const args = ['-N', '-c', String(PGBENCH_CLIENTS), '-j', String(PGBENCH_THREADS), '-T', String(durationSeconds), target];
        progress(`pgbench: -N at ${PGBENCH_CLIENTS} clients for ${durationSeconds} s`);
        const database = { name: 'postgres', titleIncludes: ` ${name} ` };
        const stopCpu = measureCpu(undefined, database, { sampleDatabaseEveryMs: 200 });
        const run = await runCommand(binary, args, env, (durationSeconds + 300) * 1000);
        const measured = stopCpu();
        if (run.code !== 0) return { measured: false, binary, reason: failure('pgbench -N', run) };
        const parsed = parsePgbenchOutput(run.output);
        if (!parsed) return { measured: false, binary, reason: `no "tps = …" line in pgbench's output: ${run.output.trim().split('\n').slice(-3).join(' | ')}` };

        const client = run.childTicks === null || run.seconds <= 0 ? null : round(run.childTicks / TICKS_PER_SECOND / run.seconds, 2);
        const other =
          measured.machine === null || client === null || measured.loadGenerator === null
            ? null
            : Math.max(0, round(measured.machine - client - measured.loadGenerator - (measured.database ?? 0), 2));
        return {
          measured: true,
          binary,
          version,
          database: name,
          command: `pgbench ${args.join(' ')}`,
          scale: PGBENCH_SCALE,
          clients: PGBENCH_CLIENTS,
          threads: PGBENCH_THREADS,
          durationSeconds,
          ...parsed,
          initSeconds: round(init.seconds, 1),
          checkpointAfterInit: checkpointBefore,
          cpu: { ...measured, server: client, other },
        };
      } catch (error) {
        return { measured: false, binary, reason: `pgbench failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
    close: drop,
  };
}
