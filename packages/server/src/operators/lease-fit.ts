import type { ConnectorFamily } from './connector-family.js';

/**
 * The request lease bounds every operator call (docs/operators.md "Faults"): after the lease,
 * recovery may ask the operator about the same reference and send it again if the operator does not
 * know it. A call still on its way then could arrive after that ask, and be paid twice but for the
 * operator's own idempotency. So the longest one operation of a connector can take (its timeout
 * times the exchanges it may chain) must fit in half the lease, leaving the other half as margin.
 */
export const LEASE_SHARE_FOR_CALLS = 0.5;

/**
 * Why an entry's call timeout does not fit the lease, or undefined when it fits. `at` names the
 * entry (e.g. `OPERATORS_FILE x: operators.mtn_bj`); every route of an operator is checked with it.
 */
export function leaseMisfit(family: ConnectorFamily<never>, entry: unknown, leaseSeconds: number, at: string): string | undefined {
  const budget = family.callBudget(entry as never);
  const worstMs = budget.timeoutMs * budget.exchanges;
  const allowedMs = leaseSeconds * 1000 * LEASE_SHARE_FOR_CALLS;
  if (worstMs <= allowedMs) return undefined;
  const fitting = Math.floor(allowedMs / budget.exchanges);
  return (
    `${at}.timeout_ms: one ${family.name} operation may chain ${budget.exchanges} calls of ${budget.timeoutMs} ms (${worstMs} ms), ` +
    `more than half the request lease (IDEMPOTENCY_LEASE_SECONDS=${leaseSeconds}: ${allowedMs} ms); ` +
    `a call could then reach the operator after recovery asked about it and be sent twice. Set timeout_ms to at most ${fitting}, or raise the lease`
  );
}
