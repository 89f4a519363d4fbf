/**
 * One HTTP try of one webhook delivery (docs/webhooks.md). The sender only talks to
 * the receiver and reports what happened; what to do next (retry, give up, disable the endpoint)
 * is decided in core/webhooks/delivery-outcome.ts.
 *
 * - The target is checked first (ssrf-guard.ts), and the connection goes to the address that was
 *   checked: the connection's lookup returns it, so a second DNS answer (DNS rebinding) is never
 *   asked for. The URL's host stays in the Host header and, for HTTPS, in the TLS server name and
 *   the certificate check.
 * - Connections are kept alive and reused, in one pool per origin and checked address (undici):
 *   a pooled socket only ever serves the address it was opened to, and a new address gets a new
 *   pool. Idle pools close after a while; at most MAX_POOLS are kept.
 * - Redirects are never followed: a 3xx is an answer like any other.
 * - One deadline covers the whole try (resolution, connection, request, response headers and the
 *   excerpt). If it passes before the response headers, the try failed; if the headers (and so
 *   the status) had arrived, the try is answered with the excerpt read so far.
 * - At most 1024 bytes of the answer are read; a longer answer's connection is then dropped, so a
 *   receiver streaming a huge body costs nothing. A short answer read to its end keeps it.
 * - send() never throws: every failure is a `failed` answer.
 */
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { Pool } from 'undici';
import { systemClock } from '../core/shared/clock.js';
import { checkTarget, type Resolver } from './ssrf-guard.js';

export interface WebhookDelivery {
  url: string;
  /** The raw JSON body, sent byte for byte (UTF-8). */
  body: string;
  /**
   * Extra headers (signature, event id, …). They may replace Content-Type and User-Agent; Host,
   * Content-Length, Transfer-Encoding and Connection are the sender's own and are left out.
   */
  headers: Record<string, string>;
  timeoutMs: number;
  /** Ends the try before its deadline (the process is shutting down): a failed try, retried later. */
  signal?: AbortSignal;
}

export interface WebhookAnswer {
  /** failed = no HTTP answer (refused target, DNS, connect, timeout, reset). */
  outcome: 'answered' | 'failed';
  statusCode?: number;
  durationMs: number;
  /** First 1024 bytes of the answer, as text (a character cut at the limit is left out). */
  bodyExcerpt?: string;
  /** From Retry-After (seconds or HTTP date), when present and valid. */
  retryAfterSeconds?: number;
  /** Short reason for failed (e.g. 'timeout after 30000 ms', 'refused target: 10.0.0.1 is private'). */
  error?: string;
}

export const DEFAULT_USER_AGENT = 'Akwe-Webhooks/1.0 (+https://github.com/akwe)';
export const EXCERPT_BYTES = 1024;
const SENDER_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect']);
const MAX_ERROR_LENGTH = 200;
/** Pools kept at once (origin and address pairs); the least recently used closes first. */
const MAX_POOLS = 512;
/** Connections per pool: above every stream's in-flight bound (delivery-budgets.ts). */
const CONNECTIONS_PER_POOL = 64;
/** An idle kept-alive connection closes after this (receivers often close at 5 s themselves). */
const KEEP_ALIVE_MS = 4_000;

class Deadline extends Error {}
class Cancelled extends Error {}
const CANCELLED_ERROR = 'cancelled: the sender is shutting down';

export class WebhookSender {
  private readonly allowPrivate: boolean;
  private readonly allowedPorts: readonly number[] | undefined;
  private readonly resolver: Resolver | undefined;
  private readonly userAgent: string;
  private readonly clock: { now(): Date };
  private readonly pools = new Map<string, Pool>();

  /**
   * `allowPrivate`: the development setting (loopback and private targets allowed). `resolver`
   * replaces the system resolver (tests). `clock` is the "now" an HTTP-date Retry-After is
   * measured from; durations use a monotonic timer. `allowedPorts`: the only ports a target may
   * use (live senders: 443 and 8443), the default port of the scheme counting as that port.
   */
  constructor(options: { allowPrivate: boolean; resolver?: Resolver; userAgent?: string; clock?: { now(): Date }; allowedPorts?: readonly number[] }) {
    this.allowPrivate = options.allowPrivate;
    this.allowedPorts = options.allowedPorts;
    this.resolver = options.resolver;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.clock = options.clock ?? systemClock;
  }

  async send(delivery: WebhookDelivery): Promise<WebhookAnswer> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (error: string): WebhookAnswer => ({ outcome: 'failed', durationMs: elapsed(), error: truncate(error) });

    let url: URL;
    try {
      url = new URL(delivery.url);
    } catch {
      return failed('invalid URL');
    }
    const { timeoutMs } = delivery;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return failed(`invalid timeout: ${timeoutMs}`);

    if (delivery.signal?.aborted) return failed(CANCELLED_ERROR);
    const abort = new AbortController();
    // setTimeout cannot wait longer than 2^31 - 1 ms; a longer deadline would fire at once.
    const timer = setTimeout(() => abort.abort(new Deadline()), Math.min(timeoutMs, 2 ** 31 - 1));
    const cancel = () => abort.abort(new Cancelled());
    delivery.signal?.addEventListener('abort', cancel, { once: true });
    const timedOut = () => failed(abort.signal.reason instanceof Cancelled ? CANCELLED_ERROR : `timeout after ${timeoutMs} ms`);
    try {
      const check = await Promise.race([checkTarget(url, { allowPrivate: this.allowPrivate, resolver: this.resolver, allowedPorts: this.allowedPorts }), aborted(abort.signal)]);
      if (!check.ok) return failed(`refused target: ${check.reason}`);
      let response;
      try {
        response = await this.pool(url, check.address, check.family).request({
          method: 'POST',
          path: `${url.pathname}${url.search}`,
          headers: this.headers(url, delivery.headers),
          body: Buffer.from(delivery.body, 'utf8'),
          signal: abort.signal,
          // The deadline above governs; undici's own timers must not end the try earlier.
          headersTimeout: 0,
          bodyTimeout: 0,
        });
      } catch (error) {
        return abort.signal.aborted ? timedOut() : failed(describeError(error));
      }
      const statusCode = response.statusCode;
      const retryAfterSeconds = parseRetryAfter(headerValue(response.headers['retry-after']), this.clock.now());
      const decoder = new StringDecoder('utf8');
      let excerpt = '';
      let bytes = 0;
      try {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          const wanted = chunk.subarray(0, EXCERPT_BYTES - bytes);
          bytes += wanted.length;
          excerpt += decoder.write(wanted);
          // Enough read: the rest is dropped, and with it this connection.
          if (bytes >= EXCERPT_BYTES) {
            response.body.destroy();
            break;
          }
        }
        if (bytes < EXCERPT_BYTES) excerpt += decoder.end();
      } catch {
        // The deadline or a reset in the middle of the body: the status stands, with what was read.
        response.body.destroy();
      }
      return { outcome: 'answered', statusCode, durationMs: elapsed(), bodyExcerpt: storable(excerpt), ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
    } catch (error) {
      return error instanceof Deadline || abort.signal.aborted ? timedOut() : failed(describeError(error));
    } finally {
      clearTimeout(timer);
      delivery.signal?.removeEventListener('abort', cancel);
    }
  }

  /** Closes every kept connection (shutdown). */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => {})));
  }

  /** The pool for this origin and checked address: its connections go nowhere else. */
  private pool(url: URL, address: string, family: 4 | 6): Pool {
    const key = `${url.origin}|${address}`;
    const existing = this.pools.get(key);
    if (existing && !existing.destroyed && !existing.closed) {
      // Map order is use order: re-inserting marks it most recently used.
      this.pools.delete(key);
      this.pools.set(key, existing);
      return existing;
    }
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    // The only answer the connection's lookup gets: the address checkTarget approved.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    };
    const pool = new Pool(url.origin, {
      connections: CONNECTIONS_PER_POOL,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
      // The certificate is checked against the URL's host name, never the address.
      connect: { lookup, ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}) },
    });
    this.pools.set(key, pool);
    if (this.pools.size > MAX_POOLS) {
      const [oldestKey, oldest] = this.pools.entries().next().value!;
      this.pools.delete(oldestKey);
      void oldest.close().catch(() => {});
    }
    return pool;
  }

  private headers(url: URL, given: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = {};
    const names = new Map<string, string>();
    const set = (name: string, value: string) => {
      const lower = name.toLowerCase();
      const previous = names.get(lower);
      if (previous !== undefined) delete headers[previous];
      names.set(lower, name);
      headers[name] = value;
    };
    set('Content-Type', 'application/json');
    set('User-Agent', this.userAgent);
    for (const [name, value] of Object.entries(given)) {
      if (!SENDER_HEADERS.has(name.toLowerCase())) set(name, value);
    }
    // url.host: the host as written (brackets kept for IPv6), with the port unless it is the default.
    set('Host', url.host);
    return headers;
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIME = '(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})';
/** The three HTTP-date forms of RFC 9110 §5.6.7: IMF-fixdate, then the obsolete RFC 850 and asctime. */
const HTTP_DATES = [
  new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (?<day>\\d{2}) (?<month>[A-Z][a-z]{2}) (?<year>\\d{4}) ${TIME} GMT$`),
  new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (?<day>\\d{2})-(?<month>[A-Z][a-z]{2})-(?<year>\\d{2}) ${TIME} GMT$`),
  new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?<month>[A-Z][a-z]{2}) (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`),
];

/**
 * Retry-After (RFC 9110 §10.2.3): whole seconds, or an HTTP date turned into seconds from `now`
 * (0 when already past). Anything else, fractions, negative numbers and impossible dates included,
 * is ignored (undefined).
 */
function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) {
    const seconds = Number(value);
    return Number.isSafeInteger(seconds) ? seconds : undefined;
  }
  const at = parseHttpDate(value);
  if (at === undefined) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

function parseHttpDate(value: string): number | undefined {
  const fields = HTTP_DATES.map((pattern) => pattern.exec(value)?.groups).find((groups) => groups !== undefined);
  if (fields === undefined) return undefined;
  const month = MONTHS.indexOf(fields.month!);
  const day = Number(fields.day!.trim());
  let year = Number(fields.year!);
  // RFC 850 two-digit years: 70–99 are 19xx, the rest 20xx.
  if (fields.year!.length === 2) year += year < 70 ? 2000 : 1900;
  const [hour, minute, second] = [Number(fields.hour), Number(fields.minute), Number(fields.second)];
  if (month < 0 || hour > 23 || minute > 59 || second > 60) return undefined;
  const at = new Date(Date.UTC(year, month, day, hour, minute, Math.min(second, 59)));
  // Date.UTC rolls 31 Feb over into March: refuse impossible dates instead.
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month || at.getUTCDate() !== day) return undefined;
  return at.getTime();
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const message = error.message !== '' ? error.message : typeof code === 'string' ? code : error.name;
    return truncate(typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message);
  }
  return truncate(String(error));
}

function truncate(text: string): string {
  return storable(text.length <= MAX_ERROR_LENGTH ? text : `${text.slice(0, MAX_ERROR_LENGTH - 1)}…`);
}

/**
 * A receiver's words as text every database stores: PostgreSQL refuses NUL (U+0000) in `text`, and
 * one such answer would fail the batch of results written with it, every merchant's.
 */
function storable(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\ufffd') : text;
}
