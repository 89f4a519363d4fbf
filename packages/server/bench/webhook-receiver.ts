/**
 * The webhook receiver of the benchmark, in a process of its own so that its CPU is neither on the
 * load generator's event loop nor on Akwe's. It plays every merchant's server at once:
 *
 * - RECEIVER_FAST_SERVERS (10) fast receivers, each on its own port (so each is its own host for
 *   Akwe's per-host budget, as different merchants' servers are): they answer 200 with an empty
 *   body as soon as the request is read, then note the delivery: its endpoint (the port's index),
 *   its event id (`X-Service-Event-Id`) and the time from the event's `created_at` to the answer.
 * - One slow receiver that reads the request and never answers (Akwe gives up after its 30 s).
 * - A control port, for the benchmark: `GET /stats` (counts and latency percentiles since the last
 *   reset), `GET /ids` (every (receiver, event id) pair with how often it arrived), `GET /times`
 *   (every (receiver, event id) pair with the time, in ms since the epoch, of its first answer: the
 *   payout phase joins it to the events in the database), `POST /reset`.
 *
 * Prints `receiver control=<port> fast=<port,…> slow=<port>` once listening. SIGTERM closes every
 * connection (the slow ones included, so Akwe's sends end at once) and exits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { summarize } from './load.js';

const fastCount = Number(process.env.RECEIVER_FAST_SERVERS ?? '10');
if (!Number.isInteger(fastCount) || fastCount < 1) throw new Error(`RECEIVER_FAST_SERVERS must be a whole number >= 1 (got "${process.env.RECEIVER_FAST_SERVERS}")`);

interface ReceiverStats {
  deliveries: number;
  /** Milliseconds from the envelope's created_at to the answer, one per delivery. */
  latencies: number[];
  /** Envelopes whose created_at could not be read. */
  unreadable: number;
}

let stats: ReceiverStats[] = [];
/** `<receiver index> <event id>` -> deliveries of that event to that receiver. */
let seen = new Map<string, number>();
/** `<receiver index> <event id>` -> when its first delivery was answered (ms since the epoch). */
let firstAnswers = new Map<string, number>();
let slowRequests = 0;
let firstAt: number | null = null;
let lastAt: number | null = null;

function reset(): void {
  stats = Array.from({ length: fastCount }, () => ({ deliveries: 0, latencies: [], unreadable: 0 }));
  seen = new Map();
  firstAnswers = new Map();
  slowRequests = 0;
  firstAt = null;
  lastAt = null;
}
reset();

const CREATED_AT = /"created_at":"([^"]+)"/;

function readBody(request: IncomingMessage, done: (body: string) => void): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
}

function fastHandler(index: number) {
  return (request: IncomingMessage, response: ServerResponse) => {
    readBody(request, (body) => {
      response.writeHead(200, { 'content-length': '0' }).end();
      const answeredAt = Date.now();
      const s = stats[index]!;
      s.deliveries += 1;
      // The envelope's first created_at is the event's own (data.object's comes later in the body).
      const createdAt = CREATED_AT.exec(body)?.[1];
      const committedAt = createdAt === undefined ? NaN : Date.parse(createdAt);
      if (Number.isFinite(committedAt)) s.latencies.push(answeredAt - committedAt);
      else s.unreadable += 1;
      const eventId = request.headers['x-service-event-id'];
      const key = `${index} ${typeof eventId === 'string' ? eventId : '?'}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (!firstAnswers.has(key)) firstAnswers.set(key, answeredAt);
      firstAt ??= answeredAt;
      lastAt = answeredAt;
    });
  };
}

const sockets = new Set<Socket>();

function listen(server: Server): Promise<number> {
  // Receivers behind a proxy keep idle connections about a minute; Node's 5 s default races with
  // the sender's own keep-alive and turns into resets that say nothing about Akwe.
  server.keepAliveTimeout = 65_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

function statsJson(): unknown {
  const all = stats.flatMap((s) => s.latencies);
  let duplicates = 0;
  let extraDeliveries = 0;
  for (const count of seen.values()) {
    if (count > 1) {
      duplicates += 1;
      extraDeliveries += count - 1;
    }
  }
  return {
    deliveries: stats.reduce((n, s) => n + s.deliveries, 0),
    distinct: seen.size,
    duplicates,
    extraDeliveries,
    unreadable: stats.reduce((n, s) => n + s.unreadable, 0),
    slowRequests,
    firstAt,
    lastAt,
    latencyMs: summarize(all),
    receivers: stats.map((s) => ({ deliveries: s.deliveries, latencyMs: summarize(s.latencies) })),
  };
}

function control(request: IncomingMessage, response: ServerResponse): void {
  readBody(request, () => {
    const send = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (request.method === 'POST' && request.url === '/reset') {
      reset();
      return send(200, { ok: true });
    }
    if (request.method === 'GET' && request.url === '/stats') return send(200, statsJson());
    if (request.method === 'GET' && request.url === '/ids') return send(200, Object.fromEntries(seen));
    if (request.method === 'GET' && request.url === '/times') return send(200, Object.fromEntries(firstAnswers));
    send(404, { error: 'not found' });
  });
}

const fastServers = Array.from({ length: fastCount }, (_, i) => createServer(fastHandler(i)));
// Reads the request and never answers: the connection stays open until Akwe gives up.
const slowServer = createServer((request) => readBody(request, () => (slowRequests += 1)));
const controlServer = createServer(control);

const fastPorts: number[] = [];
for (const server of fastServers) fastPorts.push(await listen(server));
const slowPort = await listen(slowServer);
const controlPort = await listen(controlServer);

process.once('SIGTERM', () => {
  for (const server of [...fastServers, slowServer, controlServer]) server.close();
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});

process.stdout.write(`receiver control=${controlPort} fast=${fastPorts.join(',')} slow=${slowPort}\n`);
