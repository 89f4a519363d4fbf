import v8 from 'node:v8';

/** How far V8 lets the heap grow past what the last full collection kept, in percent. */
export const HEAP_GROWING_PERCENT = 25;

/**
 * For the long-running commands (serve, worker). A burst of work (a 10 000-line bulk batch, a
 * webhook backlog) allocates fast, and with its default growth V8 lets the heap reach 150 MB of
 * mostly garbage before its first full collection; the resident memory stays there afterwards.
 * Growing by a quarter at a time keeps the bulk bench's growth at 16 to 45 MB instead of 55 to
 * 108 MB (docs/performance.md "Bulk payments"). A `--heap-growing-percent` in NODE_OPTIONS wins.
 */
export function limitHeapGrowth(): void {
  if (process.env.NODE_OPTIONS?.includes('--heap-growing-percent') || process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent'))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
