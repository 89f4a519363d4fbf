import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Headers and fields that may hold secrets: never written to a log line. */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.secret',
  '*.apiKey',
  '*.password',
];

/**
 * A checkout token is a capability (whoever holds the page's address can pay the payment), so the
 * request log shows `/checkout/[redacted]` instead of it.
 */
function withoutCheckoutToken(url: string): string {
  return url.replace(/(\/checkout\/)[A-Za-z0-9_-]+/, '$1[redacted]');
}

// A query parameter whose name holds one of these words (api_key, access_token, client_secret,
// apiKey, password…) carries a credential. Akwe reads none from the query, but a client may send
// one there (`?api_key=…` is refused with 401), and the URL is logged.
const credentialName = /key|token|secret|passw|pwd|signature|credential|auth/i;
/** A query string wherever it sits: from a `?` to the fragment or the end of the word. */
const queryString = /\?[^#\s]*/g;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** One `name=value` of a query: a credential's value goes, and a `?` inside another value is a query again. */
function redactedParameter(parameter: string): string {
  const equals = parameter.indexOf('=');
  if (equals === -1) {
    // `api_key%3Dak_live_…`: the `=` itself was encoded, yet a server decoding the query reads a key.
    const encodedEquals = /%3d/i.exec(parameter);
    if (encodedEquals === null) return parameter;
    const name = parameter.slice(0, encodedEquals.index);
    return credentialName.test(decoded(name)) ? `${name}${encodedEquals[0]}[redacted]` : parameter;
  }
  const name = parameter.slice(0, equals);
  const value = parameter.slice(equals + 1);
  if (value === '') return parameter;
  if (credentialName.test(decoded(name))) return `${name}=[redacted]`;
  return `${name}=${value.replace(queryString, redactedQuery)}`;
}

function redactedQuery(query: string): string {
  return `?${query
    .slice(1)
    .split(/([&;])/)
    .map((part, index) => (index % 2 === 1 ? part : redactedParameter(part)))
    .join('')}`;
}

/**
 * The text with the value of every credential-named query parameter replaced by `[redacted]`,
 * wherever a URL sits in it (a request's URL, an error message quoting one). A value runs to the
 * next `&` or `;`, the fragment or white space, so quotes and a second `?` inside it go too. The
 * name stays, so the log still says what was sent.
 */
export function withoutQueryCredentials(text: string): string {
  if (!text.includes('?')) return text;
  return text.replace(queryString, redactedQuery);
}

/** Error messages and stacks can quote the request's URL (a 404's "Route GET:/… not found"). */
function errorSerializer(error: Error) {
  const serialized = pino.stdSerializers.err(error);
  if (serialized === undefined || serialized === null) return serialized;
  if (typeof serialized.message === 'string') serialized.message = withoutQueryCredentials(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = withoutQueryCredentials(serialized.stack);
  return serialized;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request fields, with the checkout token and query credentials taken out of the URL. */
function requestSerializer(req: LoggedRequest) {
  return { method: req.method, url: withoutQueryCredentials(withoutCheckoutToken(req.url)), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/** JSON lines by default; pretty only when a person is watching a terminal. */
export function createLogger(options: { level: string; destination?: DestinationStream; pretty?: boolean }): Logger {
  const base = {
    level: options.level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { req: requestSerializer, err: errorSerializer },
    // A message string may quote a URL too (Fastify's own lines do).
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? withoutQueryCredentials(arg) : arg)),
        );
      },
    },
  };
  if (options.destination) return pino(base, options.destination);
  if ((options.pretty ?? process.stdout.isTTY) && prettyPrinterInstalled()) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  return pino(base);
}

/** pino-pretty is a development dependency: a production install logs JSON even on a terminal. */
function prettyPrinterInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
