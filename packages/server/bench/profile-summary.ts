/**
 * Summarises a V8 .cpuprofile (from BENCH_CPU_PROF=1 npm run bench, i.e. `node --cpu-prof`):
 * the top functions by self time, by total (inclusive) time, and self time grouped by where the
 * code lives (an npm package, a file of src/, Node internals, GC, idle).
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const byId = new Map<number, ProfileNode>();
const parentOf = new Map<number, number>();
for (const node of profile.nodes) {
  byId.set(node.id, node);
  for (const child of node.children ?? []) parentOf.set(child, node.id);
}

function place(url: string): string {
  if (url === '') return '';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const source = /packages\/server\/(src\/.*)$/.exec(url);
  if (source) return source[1]!;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '');
}

function keyOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = place(url);
  return where === '' ? functionName || '(anonymous)' : `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

function groupOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const where = place(url);
  return where.startsWith('node:') ? 'node internals' : where;
}

const self = new Map<string, number>();
const total = new Map<string, number>();
const groups = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  const node = byId.get(id);
  if (!node) return;
  all += delta;
  self.set(keyOf(node), (self.get(keyOf(node)) ?? 0) + delta);
  groups.set(groupOf(node), (groups.get(groupOf(node)) ?? 0) + delta);
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
    const key = keyOf(byId.get(current)!);
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + delta);
  }
});

const idle = self.get('(idle)') ?? 0;
const busy = all - idle;
const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);
const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)} %`;
const print = (title: string, entries: Map<string, number>, skip: (key: string) => boolean) => {
  process.stdout.write(`\n${title}\n`);
  [...entries]
    .filter(([key]) => !skip(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([key, us]) => process.stdout.write(`${ms(us)} ms ${pct(us)}  ${key}\n`));
};

process.stdout.write(`${file}\nsampled ${(all / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (percentages are of busy time)\n`);
print('self time by place', groups, (k) => k === '(idle)');
print('self time by function', self, (k) => k === '(idle)');
print('total time by function', total, (k) => k === '(idle)' || k === '(root)');
