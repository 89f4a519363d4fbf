/**
 * One of several development processes starting at once on empty data folders. It prints `ready`,
 * then waits for a line `go <start> <rounds> <interval>` on stdin. Round i resolves the secret of
 * `<root>/round-<i>` at the wall-clock time start + i × interval (ms), spinning for the last
 * moments so that every process reaches the secret within microseconds of the others. It prints
 * one JSON line: the list of results, `{"secret": …}` or `{"error": …}` per round.
 * Usage: node --import tsx secret-race-child.ts <root>
 */
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { resolveSecret } from '../../src/secret.js';

const root = process.argv[2];
if (!root) throw new Error('usage: secret-race-child.ts <root>');

const now = () => performance.timeOrigin + performance.now();
const sleeper = new Int32Array(new SharedArrayBuffer(4));
function waitUntil(time: number): void {
  const coarse = time - now() - 3;
  if (coarse > 0) Atomics.wait(sleeper, 0, 0, coarse);
  while (now() < time) {
    // spin: the last milliseconds, for a close start
  }
}

process.stdout.write('ready\n');
process.stdin.setEncoding('utf8').once('data', (line: string) => {
  const [word, start, rounds, interval] = line.trim().split(' ');
  if (word !== 'go') throw new Error(`unexpected input ${line}`);
  const results: Array<{ secret: string } | { error: string }> = [];
  for (let round = 0; round < Number(rounds); round++) {
    const config = loadConfig({ AKWE_DEV: 'true', AKWE_DATA_DIR: join(root, `round-${round}`) });
    waitUntil(Number(start) + round * Number(interval));
    try {
      results.push({ secret: resolveSecret(config) });
    } catch (error) {
      results.push({ error: error instanceof Error ? error.message : String(error) });
    }
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
  process.stdin.destroy();
});
