/**
 * One HTTP try of one webhook delivery (PRODUCT.md "Events and webhooks"). The sender only talks to
 * the receiver and reports what happened; what to do next (retry, give up, disable the endpoint)
 * is decided in core/webhooks/delivery-outcome.ts.
 *
 * - The target is checked first (ssrf-guard.ts), and the connection goes to the address that was
 *   checked: node's own lookup is replaced by one that returns it, so a second DNS answer (DNS
 *   rebinding) is never asked for. The URL's host stays in the Host header and, for HTTPS, in
 *   the TLS server name and the certificate check.
 * - Redirects are never followed: a 3xx is an answer like any other.
 * - One deadline covers the whole try (resolution, connection, request, response headers and the
 *   excerpt). If it passes before the response headers, the try failed; if the headers (and so
 *   the status) had arrived, the try is answered with the excerpt read so far.
 * - At most 1024 bytes of the answer are read; the connection is then destroyed, so a receiver
 *   streaming a huge body costs nothing.
 * - send() never throws: every failure is a `failed` answer.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
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
const SENDER_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
const MAX_ERROR_LENGTH = 200;

export class WebhookSender {
  private readonly allowPrivate: boolean;
  private readonly resolver: Resolver | undefined;
  private readonly userAgent: string;
  private readonly clock: { now(): Date };

  /**
   * `allowPrivate`: the development setting (loopback and private targets allowed). `resolver`
   * replaces the system resolver (tests). `clock` is the "now" an HTTP-date Retry-After is
   * measured from; durations use a monotonic timer.
   */
  constructor(options: { allowPrivate: boolean; resolver?: Resolver; userAgent?: string; clock?: { now(): Date } }) {
    this.allowPrivate = options.allowPrivate;
    this.resolver = options.resolver;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.clock = options.clock ?? systemClock;
  }

  async send(delivery: WebhookDelivery): Promise<WebhookAnswer> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      return await this.exchange(delivery, elapsed);
    } catch (error) {
      return { outcome: 'failed', durationMs: elapsed(), error: describeError(error) };
    }
  }

  private exchange(delivery: WebhookDelivery, elapsed: () => number): Promise<WebhookAnswer> {
    const failed = (error: string): WebhookAnswer => ({ outcome: 'failed', durationMs: elapsed(), error: truncate(error) });

    let url: URL;
    try {
      url = new URL(delivery.url);
    } catch {
      return Promise.resolve(failed('invalid URL'));
    }
    const { timeoutMs } = delivery;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return Promise.resolve(failed(`invalid timeout: ${timeoutMs}`));
    const payload = Buffer.from(delivery.body, 'utf8');

    return new Promise<WebhookAnswer>((resolve) => {
      let done = false;
      let req: ClientRequest | undefined;
      let res: IncomingMessage | undefined;
      /** Set once the response headers are in: the answer as it stands. */
      let answeredSoFar: (() => WebhookAnswer) | undefined;

      const finish = (answer: WebhookAnswer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        // Nothing more is read: the socket goes, with whatever the receiver still wanted to send.
        res?.destroy();
        req?.destroy();
        resolve(answer);
      };

      // setTimeout cannot wait longer than 2^31 - 1 ms; a longer deadline would fire at once.
      const timer = setTimeout(() => finish(answeredSoFar?.() ?? failed(`timeout after ${timeoutMs} ms`)), Math.min(timeoutMs, 2 ** 31 - 1));

      const start = (address: string, family: 4 | 6) => {
        const https = url.protocol === 'https:';
        const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
        // The only answer node's connection will get: the address checkTarget approved.
        const lookup: LookupFunction = (_hostname, options, callback) => {
          if (options.all) callback(null, [{ address, family }]);
          else callback(null, address, family);
        };
        const options: RequestOptions = {
          method: 'POST',
          protocol: url.protocol,
          hostname,
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          headers: this.headers(url, delivery.headers, payload.length),
          lookup,
          // A fresh connection for every try: no pooled socket to an address checked for another try.
          agent: false,
          // The certificate is checked against the URL's host name, never the address.
          ...(https && isIP(hostname) === 0 ? { servername: hostname } : {}),
        };
        req = https ? httpsRequest(options) : httpRequest(options);
        req.on('error', (error) => finish(answeredSoFar?.() ?? failed(describeError(error))));
        req.on('response', (response) => {
          res = response;
          const statusCode = response.statusCode ?? 0;
          const retryAfterSeconds = parseRetryAfter(response.headers['retry-after'], this.clock.now());
          const decoder = new StringDecoder('utf8');
          let excerpt = '';
          let bytes = 0;
          const answer = (): WebhookAnswer => ({
            outcome: 'answered',
            statusCode,
            durationMs: elapsed(),
            bodyExcerpt: excerpt,
            ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
          });
          answeredSoFar = answer;
          response.on('data', (chunk: Buffer) => {
            if (done) return;
            const wanted = chunk.subarray(0, EXCERPT_BYTES - bytes);
            bytes += wanted.length;
            excerpt += decoder.write(wanted);
            if (bytes >= EXCERPT_BYTES) finish(answer());
          });
          response.on('end', () => {
            if (done) return;
            excerpt += decoder.end();
            finish(answer());
          });
          // A reset in the middle of the body: the status stands, with the excerpt read so far.
          response.on('error', () => finish(answer()));
          response.on('close', () => finish(answer()));
        });
        req.end(payload);
      };

      checkTarget(url, { allowPrivate: this.allowPrivate, resolver: this.resolver }).then(
        (check) => {
          if (done) return;
          if (!check.ok) return finish(failed(`refused target: ${check.reason}`));
          try {
            start(check.address, check.family);
          } catch (error) {
            // http.request throws synchronously on, for instance, a header value with a newline.
            finish(failed(describeError(error)));
          }
        },
        (error: unknown) => finish(failed(describeError(error))),
      );
    });
  }

  private headers(url: URL, given: Record<string, string>, contentLength: number): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
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
    set('Content-Length', String(contentLength));
    // url.host: the host as written (brackets kept for IPv6), with the port unless it is the default.
    set('Host', url.host);
    return headers;
  }
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
  return text.length <= MAX_ERROR_LENGTH ? text : `${text.slice(0, MAX_ERROR_LENGTH - 1)}…`;
}
