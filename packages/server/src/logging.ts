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

/** JSON lines by default; pretty only when a person is watching a terminal. */
export function createLogger(options: { level: string; destination?: DestinationStream; pretty?: boolean }): Logger {
  const base = { level: options.level, redact: { paths: redactedPaths, censor: '[redacted]' } };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty ?? process.stdout.isTTY) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  return pino(base);
}
