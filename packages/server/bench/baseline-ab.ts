/**
 * The A/B phase of `npm run bench` on SQLite: creation req/s of this checkout against a baseline
 * commit (BENCH_BASELINE_COMMIT, default 453da54; `none` skips the phase), measured in the same run.
 *
 * The baseline is checked out in a detached git worktree in a temporary folder, with the
 * repository's node_modules hard-linked into it (`cp -al`, nothing installed), built when it has a
 * build script (its workspace packages and dist/), and started from its own tree as
 * `node bin/akwe.js serve`, exactly as this checkout's server is. Then the two alternate,
 * baseline first, BENCH_AB_ROUNDS (3) times each: every run on a fresh SQLite database, with the
 * main creation phase's warm-up and load (BENCH_CONNECTIONS for BENCH_DURATION_SECONDS). The
 * medians are compared. The worktree is removed afterwards, also when a run fails.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creationRequests } from './creation-requests.js';
import { runLoad, type LoadResult } from './load.js';
import { freePort, repoRoot, startAkwe } from './processes.js';

export const DEFAULT_BASELINE_COMMIT = '453da54';

export interface BaselineAbSettings {
  /** A commit-ish of this repository. */
  commit: string;
  rounds: number;
  durationSeconds: number;
  connections: number;
  warmupRequests: number;
  warmupConnections: number;
  /** Parent of the SQLite folders (BENCH_DATA_DIR). */
  dataParent?: string;
}

export interface BaselineAb {
  /** The baseline as given and the commit it names. */
  commit: string;
  resolvedCommit: string;
  /** In the order they ran: baseline, current, baseline, current, … */
  runs: { side: 'baseline' | 'current'; load: LoadResult }[];
  baselineMedian: number;
  currentMedian: number;
  /** currentMedian / baselineMedian. */
  ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A detached worktree of `commit` with node_modules hard-linked from this checkout; returns its folder. */
function checkOutBaseline(commit: string, parent: string): string {
  const tree = join(parent, 'tree');
  git(['worktree', 'add', '--detach', tree, commit]);
  execFileSync('cp', ['-al', join(repoRoot, 'node_modules'), join(tree, 'node_modules')]);
  const serverModules = join(repoRoot, 'packages', 'server', 'node_modules');
  if (existsSync(serverModules)) execFileSync('cp', ['-al', serverModules, join(tree, 'packages', 'server', 'node_modules')]);
  // A baseline with a build (the workspace packages its server imports, its dist/) is built, as
  // `npm install` would: it then runs compiled, as this checkout's server does. Older ones run their
  // TypeScript through tsx.
  const build = join(tree, 'packages', 'server', 'scripts', 'build.mjs');
  if (existsSync(build)) execFileSync(process.execPath, [build], { cwd: join(tree, 'packages', 'server'), stdio: ['ignore', 'ignore', 'pipe'] });
  return tree;
}

function removeBaseline(tree: string, progress: (text: string) => void): void {
  try {
    git(['worktree', 'remove', '--force', tree]);
  } catch (error) {
    progress(`baseline A/B: git worktree remove failed (${error instanceof Error ? error.message : String(error)}); pruning`);
    rmSync(tree, { recursive: true, force: true });
    git(['worktree', 'prune']);
  }
}

/** One creation run on a fresh SQLite database: start, warm up, measure, stop. */
async function creationRun(packageDir: string | undefined, label: string, settings: BaselineAbSettings, round: number): Promise<LoadResult> {
  const dataDir = mkdtempSync(join(settings.dataParent ?? tmpdir(), 'akwe-bench-ab-'));
  try {
    const server = await startAkwe({ port: await freePort(), dataDir, ...(packageDir ? { packageDir } : {}) });
    try {
      const created: string[] = [];
      const runId = `${label === 'baseline' ? 'b' : 'c'}${round}${process.pid.toString(16)}`;
      if (settings.warmupRequests > 0) {
        await runLoad({
          title: `ab ${label} warm-up`,
          url: server.url,
          serverPid: server.child.process.pid,
          connections: settings.warmupConnections,
          amount: settings.warmupRequests,
          requests: creationRequests(server.testKey, `w${runId}`, created),
        });
      }
      return await runLoad({
        title: `ab ${label} POST /collect/payments`,
        url: server.url,
        serverPid: server.child.process.pid,
        connections: settings.connections,
        durationSeconds: settings.durationSeconds,
        requests: creationRequests(server.testKey, `h${runId}`, created),
      });
    } finally {
      // Let requests still in flight finish before the shutdown closes the database.
      await new Promise((r) => setTimeout(r, 500));
      await server.child.stop(30_000);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function measureBaselineAb(settings: BaselineAbSettings, progress: (text: string) => void): Promise<BaselineAb> {
  const resolvedCommit = git(['rev-parse', '--verify', `${settings.commit}^{commit}`]);
  const parent = mkdtempSync(join(tmpdir(), 'akwe-baseline-'));
  let tree: string | undefined;
  try {
    progress(`baseline A/B: worktree of ${settings.commit} (${resolvedCommit.slice(0, 12)}) in ${parent}`);
    tree = checkOutBaseline(resolvedCommit, parent);
    const baselinePackage = join(tree, 'packages', 'server');
    const runs: BaselineAb['runs'] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      for (const side of ['baseline', 'current'] as const) {
        progress(`baseline A/B: ${side} creation at ${settings.connections} connections for ${settings.durationSeconds} s (run ${round} of ${settings.rounds})`);
        const load = await creationRun(side === 'baseline' ? baselinePackage : undefined, side, settings, round);
        progress(`baseline A/B: ${side} ${load.requestsPerSecond} req/s`);
        runs.push({ side, load });
      }
    }
    const of = (side: 'baseline' | 'current') => runs.filter((r) => r.side === side).map((r) => r.load.requestsPerSecond);
    const baselineMedian = median(of('baseline'));
    const currentMedian = median(of('current'));
    return { commit: settings.commit, resolvedCommit, runs, baselineMedian, currentMedian, ratio: currentMedian / baselineMedian };
  } finally {
    if (tree) removeBaseline(tree, progress);
    rmSync(parent, { recursive: true, force: true });
  }
}
