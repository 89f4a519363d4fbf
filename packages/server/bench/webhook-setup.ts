/**
 * What the webhook phase (bench/webhooks.ts) and the SIGKILL measurement (bench/webhook-sigkill.ts)
 * share: the receiver child, merchants made with the CLI, endpoints and payments made through the
 * API, and a look into the bench database to know how many deliveries to expect.
 */
import type autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { LatencySummary } from './load.js';
import { akweEnv, serverPackageDir, startScript, type Child } from './processes.js';

const run = promisify(execFile);

export const CREATE_PATH = '/api/v1/collect/payments';
const ENDPOINTS_PATH = '/api/v1/webhook-endpoints';

/** Where the bench's Akwe processes keep their data: SQLite in `dataDir`, or the PostgreSQL database of `databaseUrl`. */
export interface AkweData {
  dataDir: string;
  databaseUrl?: string;
}

export interface ReceiverStats {
  deliveries: number;
  distinct: number;
  /** (receiver, event) pairs that arrived more than once, and the deliveries beyond the first. */
  duplicates: number;
  extraDeliveries: number;
  unreadable: number;
  slowRequests: number;
  firstAt: number | null;
  lastAt: number | null;
  latencyMs: LatencySummary;
  receivers: { deliveries: number; latencyMs: LatencySummary }[];
}

export interface Receiver {
  child: Child;
  fastUrls: string[];
  slowUrl: string;
  stats(): Promise<ReceiverStats>;
  /** `<receiver index> <event id>` -> how many times it arrived. */
  ids(): Promise<Record<string, number>>;
  /** `<receiver index> <event id>` -> when its first delivery was answered (ms since the epoch). */
  times(): Promise<Record<string, number>>;
  reset(): Promise<void>;
}

export async function startReceiver(fastServers: number): Promise<Receiver> {
  const { child, match } = await startScript(
    'bench/webhook-receiver.ts',
    { RECEIVER_FAST_SERVERS: String(fastServers) },
    /receiver control=(\d+) fast=([\d,]+) slow=(\d+)/,
    'webhook receiver',
  );
  const control = `http://127.0.0.1:${match[1]}`;
  const call = async <T>(method: string, path: string): Promise<T> => {
    const response = await fetch(`${control}${path}`, { method });
    if (!response.ok) throw new Error(`receiver ${method} ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  return {
    child,
    fastUrls: match[2]!.split(',').map((port, i) => `http://127.0.0.1:${port}/hooks/${i}`),
    slowUrl: `http://127.0.0.1:${match[3]}/hooks/slow`,
    stats: () => call<ReceiverStats>('GET', '/stats'),
    ids: () => call<Record<string, number>>('GET', '/ids'),
    times: () => call<Record<string, number>>('GET', '/times'),
    reset: async () => {
      await call('POST', '/reset');
    },
  };
}

export interface BenchMerchant {
  id: string;
  testKey: string;
  endpointIds: string[];
}

/** `akwe merchants create` against the bench's database, a few at a time (each is a Node start, about 1.5 s). */
export async function createMerchants(data: AkweData, count: number, prefix: string): Promise<BenchMerchant[]> {
  const env = akweEnv(data);
  const merchants: BenchMerchant[] = new Array<BenchMerchant>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { stdout } = await run(process.execPath, ['bin/akwe.js', 'merchants', 'create', '--name', `${prefix} ${i + 1}`, '--json'], { cwd: serverPackageDir, env });
      const made = JSON.parse(stdout) as { merchant: { id: string }; test_key: { key: string } };
      merchants[i] = { id: made.merchant.id, testKey: made.test_key.key, endpointIds: [] };
    }
  };
  await Promise.all(Array.from({ length: Math.min(3, count) }, worker));
  return merchants;
}

async function api<T>(baseUrl: string, key: string, method: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export async function createEndpoint(baseUrl: string, merchant: BenchMerchant, url: string, events: string[]): Promise<string> {
  const endpoint = await api<{ id: string }>(baseUrl, merchant.testKey, 'POST', ENDPOINTS_PATH, { url, events });
  merchant.endpointIds.push(endpoint.id);
  return endpoint.id;
}

export async function setEndpointEvents(baseUrl: string, merchant: BenchMerchant, endpointId: string, events: string[]): Promise<void> {
  await api(baseUrl, merchant.testKey, 'PATCH', `${ENDPOINTS_PATH}/${endpointId}`, { events });
}

/** A sandbox payment that completes at once: three events (created, processing, completed). */
export function paymentBody(reference: string): string {
  return JSON.stringify({ reference, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } });
}

/** Creations spread over the merchants in turn, each with a fresh Idempotency-Key and reference; counts the 201s. */
export function creationsOverMerchants(merchants: BenchMerchant[], runId: string, created: { count: number }): autocannon.Request[] {
  let counter = 0;
  return [
    {
      method: 'POST',
      path: CREATE_PATH,
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        counter += 1;
        const merchant = merchants[counter % merchants.length]!;
        request.headers = { ...request.headers, authorization: `Bearer ${merchant.testKey}`, 'idempotency-key': `idem-${runId}-${counter}` };
        request.body = paymentBody(`wh-${runId}-${counter}`);
        return request;
      },
      onResponse: (status) => {
        if (status === 201) created.count += 1;
      },
    },
  ];
}

/** One read-only query on the bench's database (SQLite file or PostgreSQL), for counts the API does not give in bulk. */
export async function queryDatabase<T extends Record<string, unknown>>(data: AkweData, sql: string): Promise<T[]> {
  if (data.databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: data.databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(data.dataDir, 'akwe.db'), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** How many events (of one type, if given) of these merchants exist. */
export async function eventsOf(data: AkweData, merchants: BenchMerchant[], type?: string): Promise<number> {
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const ofType = type === undefined ? '' : ` and type = ${quote(type)}`;
  const [row] = await queryDatabase<{ n: number | string }>(
    data,
    `select count(*) as n from events where merchant_id in (${merchants.map((m) => quote(m.id)).join(',')})${ofType}`,
  );
  return Number(row?.n ?? 0);
}

/** Deliveries by status (pending, succeeded, retrying, …). */
export async function deliveriesByStatus(data: AkweData): Promise<Record<string, number>> {
  const rows = await queryDatabase<{ status: string; n: number | string }>(data, 'select status, count(*) as n from webhook_deliveries group by status');
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Polls the receiver until `done(stats)` or the time runs out; resolves with the last stats and whether it finished. */
export async function waitForReceiver(
  receiver: Receiver,
  done: (stats: ReceiverStats) => boolean,
  timeoutMs: number,
  onTick?: (stats: ReceiverStats) => void | Promise<void>,
): Promise<{ stats: ReceiverStats; finished: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await receiver.stats();
    if (done(stats)) return { stats, finished: true };
    if (Date.now() > deadline) return { stats, finished: false };
    await onTick?.(stats);
    await new Promise((r) => setTimeout(r, 100));
  }
}
