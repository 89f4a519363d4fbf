/**
 * How `serve` and `worker` end: SIGTERM or SIGINT drains and exits 0; a database that can no
 * longer be written safely (see AkweDatabase.onFatal) drains and exits 1, so the supervisor
 * restarts the process and SQLite recovers from what is on disk. Either way, a drain that fails
 * or outlasts the timeout exits 1.
 */
import type { Logger } from 'pino';
import type { AkweDatabase } from '../storage/database.js';

export interface ProcessLifetimeOptions {
  /** Drains and closes everything (RunningServer.shutdown, the worker's shutdown). */
  shutdown(): Promise<void>;
  timeoutMs: number;
  logger: Logger;
  /** process.exit unless a test watches instead. */
  exit?: (code: number) => void;
}

export interface ProcessLifetime {
  /** Exits once the signal arrives. */
  stopOnSignals(signals?: NodeJS.Signals[]): void;
  /** Exits 1 once the database fails. */
  stopWhenDatabaseFails(database: AkweDatabase): void;
}

export function processLifetime({ shutdown, timeoutMs, logger, exit = (code) => process.exit(code) }: ProcessLifetimeOptions): ProcessLifetime {
  let stopping = false;
  const stopThenExit = (code: number) => {
    // A signal after a database failure (or a second signal) changes nothing: one drain, one exit.
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      logger.error(`shutdown took longer than ${timeoutMs} ms; exiting`);
      exit(1);
    }, timeoutMs).unref();
    shutdown().then(
      () => exit(code),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  return {
    stopOnSignals(signals = ['SIGTERM', 'SIGINT']) {
      for (const signal of signals) {
        process.once(signal, () => {
          logger.info(`${signal} received`);
          stopThenExit(0);
        });
      }
    },
    stopWhenDatabaseFails(database) {
      database.onFatal((error) => {
        logger.fatal({ err: error }, 'the database can no longer be written safely; stopping so a restart recovers from what is on disk');
        stopThenExit(1);
      });
    },
  };
}
