/** Helpers of the live-mode suites: waiting on a real server, and an operators file for the mocks. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The mocks' operators file, written to a temporary folder, with every call's timeout set to
 * `timeoutMs`: MTN's five chained calls must fit in half the server's IDEMPOTENCY_LEASE_SECONDS.
 */
export function operatorsFileFor(mocks: OperatorMocks, timeoutMs: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'akwe-operators-'));
  const file = join(dir, 'operators.json');
  const operators = Object.fromEntries(Object.entries(mocks.operatorsFile.operators).map(([slug, entry]) => [slug, { ...(entry as object), timeout_ms: timeoutMs }]));
  writeFileSync(file, JSON.stringify({ operators }));
  return file;
}
