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

export interface OperatorsFileChoices {
  /** Operators left out of the file (a live request for them finds no connector). */
  leaveOut?: string[];
  /** This connector's routes first wherever an operator has one (a suite about that provider). */
  first?: string;
  /** Routes of these connectors left out (a suite that needs one route per operator, or another provider's). */
  without?: string[];
}

/**
 * The mocks' operators file, written to a temporary folder, with every call's timeout set to
 * `timeoutMs`: MTN's five chained calls must fit in half the server's IDEMPOTENCY_LEASE_SECONDS.
 */
export function operatorsFileFor(mocks: OperatorMocks, timeoutMs: number, choices: OperatorsFileChoices = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'akwe-operators-'));
  const file = join(dir, 'operators.json');
  // pawaPay's availability is read again after 5 s (the least it takes), so a test sees a change soon.
  const withTimeout = (entry: unknown) => ({
    ...(entry as object),
    timeout_ms: timeoutMs,
    ...((entry as { connector?: string }).connector === 'pawapay' ? { availability_ttl_ms: 5_000 } : {}),
  });
  const kept = (routes: unknown[]) => routes.filter((route) => !choices.without?.includes((route as { connector?: string }).connector ?? ''));
  const ordered = (routes: unknown[]) =>
    choices.first === undefined
      ? routes
      : [...routes].sort((a, b) => Number((b as { connector?: string }).connector === choices.first) - Number((a as { connector?: string }).connector === choices.first));
  // An operator with several routes is a list: each route gets the timeout.
  const operators = Object.fromEntries(
    Object.entries(mocks.operatorsFile.operators)
      .filter(([slug]) => !choices.leaveOut?.includes(slug))
      .map(([slug, entry]) => [slug, kept(Array.isArray(entry) ? ordered(entry) : [entry])] as const)
      .filter(([, routes]) => routes.length > 0)
      .map(([slug, routes]) => [slug, routes.length === 1 ? withTimeout(routes[0]) : routes.map(withTimeout)]),
  );
  writeFileSync(file, JSON.stringify({ operators }));
  return file;
}
