/** A logger whose lines (JSON text, one per entry) are kept in memory for a test to read. */
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/logging.js';

export function capturedLog(level = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level, destination: sink }), lines };
}
