import { AkweError } from '../errors/index.js';
import type { PayoutStatus } from './payout.js';

/**
 * The payout transitions (the contract says PENDING first; the rest is ours, docs/payouts.md): the
 * operator takes it (PROCESSING) or refuses it at once (FAILED, CANCELLED); a payout in flight
 * ends COMPLETED, FAILED or CANCELLED. Final statuses never change.
 */
const transitions: Readonly<Record<PayoutStatus, readonly PayoutStatus[]>> = {
  PENDING: ['PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'],
  PROCESSING: ['COMPLETED', 'FAILED', 'CANCELLED'],
  COMPLETED: [],
  FAILED: [],
  CANCELLED: [],
};

export function canMovePayout(from: PayoutStatus, to: PayoutStatus): boolean {
  return transitions[from].includes(to);
}

export function assertPayoutTransition(from: PayoutStatus, to: PayoutStatus): void {
  if (!canMovePayout(from, to)) throw new AkweError('invalid_state_transition', `A payout cannot go from ${from} to ${to}.`);
}
