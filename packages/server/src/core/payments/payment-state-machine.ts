import { AkweError } from '../errors/index.js';
import { paymentStatuses, type Payment, type PaymentStatus } from './payment.js';

/**
 * Every allowed status change, as one table (the contract's transitions plus ours; docs/decisions.md):
 * creation outcomes, operator answers, OTP confirmation, the sandbox `pay`, cancel from any
 * non-final state, expiry of non-final payments, and `refunded` once refunds reach the amount.
 * Anything not listed is refused.
 */
export const initialStatuses: readonly PaymentStatus[] = ['pending', 'processing', 'awaiting_otp', 'awaiting_payment'];

export const transitions: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  awaiting_payment: ['processing', 'awaiting_otp', 'pending', 'completed', 'failed', 'cancelled', 'expired'],
  awaiting_otp: ['pending', 'completed', 'failed', 'cancelled', 'expired'],
  processing: ['pending', 'completed', 'failed', 'cancelled', 'expired'],
  pending: ['processing', 'awaiting_otp', 'completed', 'failed', 'cancelled', 'expired'],
  completed: ['refunded'],
  failed: [],
  cancelled: [],
  expired: [],
  refunded: [],
};

/** Statuses no operator answer can change (a completed payment may still be refunded). */
export const finalStatuses: readonly PaymentStatus[] = ['completed', 'failed', 'cancelled', 'expired', 'refunded'];

/** Every other status: the ones expiry and cancel still apply to (derived, so a new status cannot be missed). */
export const nonFinalStatuses: readonly PaymentStatus[] = paymentStatuses.filter((status) => !finalStatuses.includes(status));

export function isFinal(status: PaymentStatus): boolean {
  return finalStatuses.includes(status);
}

/**
 * Past its lifetime at `now` (ISO-8601) and not final: it takes nothing more (no payment, no code),
 * even before the expiry worker records it as `expired`.
 */
export function isPastExpiry(payment: Pick<Payment, 'status' | 'expiresAt'>, now: string): boolean {
  return !isFinal(payment.status) && payment.expiresAt <= now;
}

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return transitions[from].includes(to);
}

export function assertTransition(from: PaymentStatus, to: PaymentStatus): void {
  if (!canTransition(from, to)) {
    throw new AkweError('invalid_state_transition', `A payment cannot go from ${from} to ${to}.`);
  }
}
