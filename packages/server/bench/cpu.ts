/**
 * Who used the CPU during a phase (Linux /proc; elsewhere every figure is null): the process under
 * test, the load generator (this process) and everything else on the machine. On a small machine
 * shared with other work, "other" says whether a figure can be trusted.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second of /proc times (USER_HZ): 100 on every mainstream Linux. */
const TICKS_PER_SECOND = 100;

export interface CpuUse {
  /** Average cores busy over the phase, each rounded to 0.01. */
  server: number | null;
  /** The PostgreSQL backends serving the bench database; null on SQLite, which runs inside the server. */
  database: number | null;
  loadGenerator: number | null;
  other: number | null;
  machine: number | null;
}

interface Snapshot {
  at: number;
  machineBusyTicks: number | null;
  serverTicks: number | null;
  selfTicks: number | null;
  /** Ticks of each process named like the database server, by pid. */
  databaseTicks: Map<string, number> | null;
}

function machineBusyTicks(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [, user, nice, system, _idle, _iowait, irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  } catch {
    return null;
  }
}

function readStat(pid: number | string): { name: string; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

function processTicks(pid: number | string): number | null {
  return readStat(pid)?.ticks ?? null;
}

export interface DatabaseProcesses {
  /** Process name (`postgres`). */
  name: string;
  /** Only processes whose command line (PostgreSQL's process title) holds this: the database's name. */
  titleIncludes?: string;
}

function ticksOf(match: DatabaseProcesses): Map<string, number> | null {
  try {
    const found = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = readStat(pid);
      if (stat?.name !== match.name) continue;
      if (match.titleIncludes !== undefined && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(match.titleIncludes)) continue;
      found.set(pid, stat.ticks);
    }
    return found;
  } catch {
    return null;
  }
}

function snapshot(serverPid: number | undefined, database: DatabaseProcesses | undefined): Snapshot {
  return {
    at: performance.now(),
    machineBusyTicks: machineBusyTicks(),
    serverTicks: serverPid === undefined ? null : processTicks(serverPid),
    selfTicks: processTicks('self'),
    databaseTicks: database === undefined ? null : ticksOf(database),
  };
}

/** Ticks spent between the snapshots by processes alive at the end (one started meanwhile counts whole). */
function databaseDelta(start: Map<string, number> | null, end: Map<string, number> | null): number | null {
  if (start === null || end === null) return null;
  let ticks = 0;
  for (const [pid, now] of end) ticks += Math.max(0, now - (start.get(pid) ?? 0));
  return ticks;
}

/**
 * Starts measuring; call the returned function at the end of the phase. `database` names the
 * database server's processes serving the run (PostgreSQL backends of the bench database), which
 * are counted apart from "other"; its shared background processes (WAL writer, checkpointer) stay
 * in "other", as do backends serving anyone else. With `sampleDatabaseEveryMs`, the database's
 * processes are also sampled during the phase, so those that exit before its end still count.
 */
export function measureCpu(serverPid: number | undefined, processes?: DatabaseProcesses, options: { sampleDatabaseEveryMs?: number } = {}): () => CpuUse {
  const start = snapshot(serverPid, processes);
  // Backends that exit before the end (pgbench's, when pgbench ends) count up to their last sample.
  const seen = new Map<string, number>();
  const remember = (ticks: Map<string, number> | null) => {
    for (const [pid, value] of ticks ?? []) seen.set(pid, Math.max(value, seen.get(pid) ?? 0));
  };
  const sampler =
    processes !== undefined && options.sampleDatabaseEveryMs !== undefined ? setInterval(() => remember(ticksOf(processes)), options.sampleDatabaseEveryMs) : undefined;
  sampler?.unref();
  return () => {
    if (sampler !== undefined) clearInterval(sampler);
    const end = snapshot(serverPid, processes);
    if (sampler !== undefined && end.databaseTicks !== null) {
      remember(end.databaseTicks);
      end.databaseTicks = seen;
    }
    const seconds = (end.at - start.at) / 1000;
    const cores = (a: number | null, b: number | null) => (a === null || b === null || seconds <= 0 ? null : Math.round(((b - a) / TICKS_PER_SECOND / seconds) * 100) / 100);
    const machine = cores(start.machineBusyTicks, end.machineBusyTicks);
    const server = cores(start.serverTicks, end.serverTicks);
    const loadGenerator = cores(start.selfTicks, end.selfTicks);
    const databaseTicks = databaseDelta(start.databaseTicks, end.databaseTicks);
    const database = databaseTicks === null ? null : cores(0, databaseTicks);
    const other = machine === null || server === null || loadGenerator === null ? null : Math.max(0, Math.round((machine - server - loadGenerator - (database ?? 0)) * 100) / 100);
    return { server, database, loadGenerator, other, machine };
  };
}
