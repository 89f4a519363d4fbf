import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether an operator call is made by a background check (reconciliation, payout status checks,
 * re-reads for reversals) rather than for a merchant's request. A connector's circuit breaker
 * counts only the calls merchants see: a worker asking a slow operator about old payments must
 * not, on its own, turn every new payment away (docs/operators.md "Operator health").
 */
const background = new AsyncLocalStorage<true>();
/** Background runs under way in this process. */
let running = 0;

/** Runs `work` with every operator call it makes marked as a background check. */
export async function inBackground<T>(work: () => Promise<T>): Promise<T> {
  running += 1;
  try {
    return await background.run(true, work);
  } finally {
    running -= 1;
    // On Node 20 an AsyncLocalStorage that has run keeps a hook on every promise of the process
    // (about 4 % of a payment creation's CPU); with no background run left it is switched off.
    if (running === 0) background.disable();
  }
}

/** Whether the operator call being made now is a background check. */
export function isBackgroundCall(): boolean {
  return background.getStore() === true;
}
