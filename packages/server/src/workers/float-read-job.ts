import type { FloatWatch } from '../core/floats/float-watch.js';
import type { WorkerJob } from './worker-pool.js';

/**
 * Reads the live routes' provider floats that are due (docs/operations.md "Floats"). Each route is
 * due every FLOAT_READ_INTERVAL_SECONDS; a look every few seconds finds the ones that are, and the
 * claim in the database keeps two workers from reading one route twice.
 */
export function floatReadJob(watch: FloatWatch, options: { idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'float-read', idleDelayMs: options.idleDelayMs ?? 5_000, runOnce: () => watch.readDue() };
}
