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

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request fields, with the checkout token taken out of the URL. */
function requestSerializer(req: LoggedRequest) {
  return { method: req.method, url: withoutCheckoutToken(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/** JSON lines by default; pretty only when a person is watching a terminal. */
export function createLogger(options: { level: string; destination?: DestinationStream; pretty?: boolean }): Logger {
  const base = { level: options.level, redact: { paths: redactedPaths, censor: '[redacted]' }, serializers: { req: requestSerializer } };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty ?? process.stdout.isTTY) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  return pino(base);
}
