import { paymentStatuses, refundStatuses } from '../payments/payment.js';

/**
 * Every event type Akwe emits (the current contract's names), in one list: webhook endpoints and event
 * filters are checked against it, so a typo is refused instead of silently matching nothing.
 */
export const EVENT_TYPES: readonly string[] = [
  'collect.payment.created',
  // A payment's later status changes, `pending` included (a hosted payment goes back to it when paid).
  ...paymentStatuses.map((status) => `collect.payment.${status}`),
  ...refundStatuses.map((status) => (status === 'pending' ? 'collect.refund.created' : `collect.refund.${status}`)),
  'payout.initiated',
  'payout.updated',
  'payout.completed',
  'payout.failed',
  'payout.cancelled',
  'bulk_payment.processing',
  'bulk_payment.completed',
  'bulk_payment.partially_completed',
  'bulk_payment.failed',
  'bulk_payment.cancelled',
  'transfer.sent',
  'transfer.received',
  'settlement.created',
  'settlement.paid',
  'settlement.failed',
  'settlement_account.created',
  'settlement_account.updated',
  'settlement_account.removed',
  'payment_link.created',
  'payment_link.updated',
  'payment_link.deactivated',
  'merchant.kyc.validated',
  'merchant.kyc.rejected',
];

/** `collect.payment.*`-style families: every prefix of a known type, with `.*`. */
const EVENT_FAMILIES: readonly string[] = [
  ...new Set(
    EVENT_TYPES.flatMap((type) =>
      type
        .split('.')
        .slice(0, -1)
        .map((_, index, parts) => `${parts.slice(0, index + 1).join('.')}.*`),
    ),
  ),
];

/** Whether `pattern` names a known type, a known family (`collect.payment.*`) or everything (`*`). */
export function isKnownEventPattern(pattern: string): boolean {
  return pattern === '*' || EVENT_TYPES.includes(pattern) || EVENT_FAMILIES.includes(pattern);
}

/** The accepted patterns, for error messages and documentation. */
export function knownEventPatterns(): string[] {
  return ['*', ...EVENT_FAMILIES, ...EVENT_TYPES];
}
