import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether an operator call is made by a background check (reconciliation, payout status checks,
 * re-reads for reversals) rather than for a merchant's request. A connector's circuit breaker
 * counts only the calls merchants see: a worker asking a slow operator about old payments must
 * not, on its own, turn every new payment away (docs/operators.md "Operator health").
 */
const background = new AsyncLocalStorage<true>();

/** Runs `work` with every operator call it makes marked as a background check. */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/** Whether the operator call being made now is a background check. */
export function isBackgroundCall(): boolean {
  return background.getStore() === true;
}
