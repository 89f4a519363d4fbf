/**
 * A child of the event-stream phase (bench/streams.ts) that holds the open streams, so that their
 * reading never shares the load generator's event loop. Opens STREAM_COUNT streams of STREAM_URL,
 * STREAM_PER_KEY per key of STREAM_KEYS (comma-separated), then one more with the first key, and
 * prints `over-cap <status> <retry-after> <code>` and `ready <count>`. Counts the messages each
 * stream receives; on SIGTERM prints `events <fewest> <most>` and exits.
 */
import { request, type IncomingMessage } from 'node:http';

const url = new URL(process.env.STREAM_URL!);
const keys = process.env.STREAM_KEYS!.split(',');
const perKey = Number(process.env.STREAM_PER_KEY);
const count = Number(process.env.STREAM_COUNT);
const counts: number[] = [];
const EVENT_LINE = Buffer.from('\nevent: ');

function open(key: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${key}` } }, resolve);
    req.once('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await open(keys[Math.floor(i / perKey)]!);
    if (response.statusCode !== 200) throw new Error(`stream ${i + 1} answered ${response.statusCode}`);
    const index = counts.push(0) - 1;
    response.once('end', () => process.stderr.write(`stream ${index + 1} ended by the server after ${counts[index]} events\n`));
    let tail = Buffer.alloc(0);
    response.on('data', (chunk: Buffer) => {
      // Each message has one `event:` line after its `id:` line: counted by a search in the bytes,
      // neither decoded nor split (this process shares the machine with the server measured). The
      // tail kept is shorter than the pattern, so a line cut between chunks is counted once.
      const bytes = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
      for (let at = bytes.indexOf(EVENT_LINE); at !== -1; at = bytes.indexOf(EVENT_LINE, at + 1)) counts[index]! += 1;
      tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - (EVENT_LINE.length - 1))));
    });
  }
  const refused = await open(keys[0]!);
  let body = '';
  refused.setEncoding('utf8');
  for await (const chunk of refused) body += chunk as string;
  const code = /"code":"([a-z_]+)"/.exec(body)?.[1] ?? '-';
  process.stdout.write(`over-cap ${refused.statusCode} ${refused.headers['retry-after'] ?? '-'} ${code}\nready ${counts.length}\n`);
}

process.once('SIGTERM', () => {
  process.stdout.write(`events ${Math.min(...counts)} ${Math.max(...counts)}\n`, () => process.exit(0));
});
main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
