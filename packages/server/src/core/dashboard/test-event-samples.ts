/**
 * The sample object a dashboard "test event" carries (docs/dashboard.md "Developers"): a made-up
 * payment, refund, payout, batch, transfer, settlement or settlement account of the endpoint's
 * merchant and environment, in the status the event type names. Every id starts with
 * `00000000-7e57-` (a valid UUID: the contracts say so), every
 * reference with `akwe_test_event_`, the metadata says `akwe_test_event: "true"` and the
 * description says no money moved: a receiver can tell it from real traffic, and its lookups of
 * these ids find nothing.
 */
import type { EventSubject } from '../events/stored-event.js';
import type { PaymentStatus, RefundStatus } from '../payments/payment.js';
import type { PayoutStatus } from '../payouts/payout.js';
import type { BulkBatchStatus, BulkItemStatus } from '../bulk/bulk-batch.js';
import type { SettlementStatus } from '../settlements/settlement.js';
import type { TenantScope } from '../shared/environment.js';

/**
 * Sample ids stay UUIDs (the contracts declare them so; a strict client would refuse anything
 * else) but all begin with this: zeros, then "7e57" ("test").
 */
export const TEST_ID_PREFIX = '00000000-7e57-';
export const TEST_REFERENCE_PREFIX = 'akwe_test_event_';
const DESCRIPTION = 'Akwe test event sent from the dashboard: sample data, no money moved.';
const METADATA = { akwe_test_event: 'true' };
const PHONE = '+2290197000000';

/** The subject kinds a test event can be about, by event family. */
export function subjectKindOf(type: string): EventSubject['kind'] | undefined {
  if (type.startsWith('collect.payment.')) return 'payment';
  if (type.startsWith('collect.refund.')) return 'refund';
  if (type.startsWith('payout.')) return 'payout';
  if (type.startsWith('bulk_payment.')) return 'bulk_batch';
  if (type.startsWith('transfer.')) return 'transfer';
  if (type.startsWith('settlement_account.')) return 'settlement_account';
  if (type.startsWith('settlement.')) return 'settlement';
  if (type.startsWith('payment_link.')) return 'payment_link';
  if (type.startsWith('merchant.')) return 'merchant';
  return undefined;
}

/** The lines' status in a sample batch of that status. */
function itemStatusOf(status: BulkBatchStatus): BulkItemStatus {
  if (status === 'completed' || status === 'failed' || status === 'cancelled' || status === 'processing') return status;
  return status === 'partially_completed' ? 'completed' : 'pending';
}

const change = (type: string) => type.slice(type.lastIndexOf('.') + 1);
const isFailure = (status: string) => /failed|cancelled|expired/i.test(status);

/** The sample object of an event of `type` (a known type), made at `now`; `newId` gives the ids, behind TEST_ID_PREFIX. */
export function sampleSubject(type: string, scope: TenantScope, now: string, newId: () => string): EventSubject {
  // A UUIDv7 from newId with its first 13 characters replaced: version and variant stay valid.
  const id = () => `${TEST_ID_PREFIX}${newId().slice(TEST_ID_PREFIX.length)}`;
  const reference = `${TEST_REFERENCE_PREFIX}${newId().slice(-12)}`;
  const owner = { merchantId: scope.merchantId, environment: scope.environment, createdAt: now, updatedAt: now };
  const kind = subjectKindOf(type);
  const payment = (status: PaymentStatus) => ({
    ...owner,
    id: id(),
    reference,
    status,
    amountMinor: 500_000,
    currency: 'XOF' as const,
    country: 'BJ' as const,
    mode: 'direct' as const,
    operator: 'mtn_bj',
    phone: PHONE,
    description: DESCRIPTION,
    callbackUrl: null,
    customerFirstName: 'Test',
    customerLastName: 'Event',
    pspReference: null,
    message: null,
    failureCode: isFailure(status) ? ('payer_declined' as const) : null,
    metadata: { ...METADATA },
    otpAttempts: 0,
    refundedMinor: status === 'refunded' ? 500_000 : 0,
    expiresAt: new Date(Date.parse(now) + 15 * 60_000).toISOString(),
    version: 1,
    operatorCall: null,
    operatorCallStartedAt: null,
  });
  switch (kind) {
    case 'payment': {
      const status = (type === 'collect.payment.created' ? 'pending' : change(type)) as PaymentStatus;
      return { kind, payment: payment(status) };
    }
    case 'refund': {
      const paid = payment('completed');
      const status = (type === 'collect.refund.created' ? 'pending' : change(type)) as RefundStatus;
      const refund = {
        ...owner,
        id: id(),
        paymentId: paid.id,
        paymentReference: paid.reference,
        amountMinor: 100_000,
        currency: paid.currency,
        status,
        reason: DESCRIPTION,
        pspReference: null,
      };
      return { kind, refund, payment: { ...paid, refundedMinor: status === 'completed' ? 100_000 : 0 } };
    }
    case 'payout': {
      const statuses: Record<string, PayoutStatus> = { initiated: 'PENDING', updated: 'PROCESSING', completed: 'COMPLETED', failed: 'FAILED', cancelled: 'CANCELLED' };
      const status = statuses[change(type)] ?? 'PENDING';
      return {
        kind,
        payout: {
          ...owner,
          id: id(),
          reference,
          status,
          amountMinor: 250_000,
          feeMinor: 3_750,
          currency: 'XOF',
          country: 'BJ',
          operator: 'mtn_bj',
          phone: PHONE,
          recipientFirstName: 'Test',
          recipientLastName: 'Event',
          description: DESCRIPTION,
          pspReference: null,
          message: null,
          failureCode: isFailure(status) ? 'payer_not_found' : null,
          metadata: { ...METADATA },
          handoffStartedAt: null,
          handedOff: status !== 'PENDING',
          nextCheckAt: null,
          version: 1,
        },
      };
    }
    case 'bulk_batch': {
      const status = change(type) as BulkBatchStatus;
      const done = status !== 'processing';
      return {
        kind,
        batch: {
          ...owner,
          id: id(),
          name: `${TEST_REFERENCE_PREFIX}batch`,
          description: DESCRIPTION,
          status,
          source: 'api',
          currency: 'XOF',
          itemCount: 2,
          totalAmountMinor: 500_000,
          totalFeeMinor: 7_500,
          metadata: { ...METADATA },
          validatedAt: now,
          completedAt: done ? now : null,
          version: 1,
        },
        totals: [{ status: itemStatusOf(status), count: 2, amountMinor: 500_000, feeMinor: 7_500 }],
      };
    }
    case 'transfer': {
      const sent = change(type) === 'sent';
      return {
        kind,
        transfer: {
          id: id(),
          merchantId: scope.merchantId,
          environment: scope.environment,
          direction: sent ? 'sent' : 'received',
          senderId: sent ? scope.merchantId : id(),
          receiverId: sent ? id() : scope.merchantId,
          reference: sent ? reference : null,
          amountMinor: 100_000,
          currency: 'XOF',
          description: DESCRIPTION,
          metadata: sent ? { ...METADATA } : {},
          createdAt: now,
        },
      };
    }
    case 'settlement': {
      const status = (change(type) === 'created' ? 'pending' : change(type)) as SettlementStatus;
      const settlementId = id();
      return {
        kind,
        settlement: {
          ...owner,
          id: settlementId,
          reference,
          accountId: id(),
          kind: 'wallet',
          status,
          origin: 'api',
          amountMinor: 1_000_000,
          feeMinor: 15_000,
          currency: 'XOF',
          sequence: 1,
          destination: { kind: 'wallet', country: 'BJ', operator: 'mtn_bj', phone: PHONE, holderName: 'Test Event' },
          payoutId: settlementId,
          bankReference: null,
          failureCode: status === 'failed' ? 'payer_not_found' : null,
          failureMessage: status === 'failed' ? DESCRIPTION : null,
          openingAvailableMinor: 1_000_000,
          closingAvailableMinor: 0,
          openingReservedMinor: 0,
          closingReservedMinor: 1_000_000,
          description: DESCRIPTION,
          metadata: { ...METADATA },
          settledAt: status === 'paid' || status === 'failed' ? now : null,
          version: 1,
        },
      };
    }
    case 'payment_link': {
      const linkId = id();
      return {
        kind,
        view: {
          id: linkId,
          completedPayments: 0,
          status: change(type) === 'deactivated' ? 'inactive' : 'active',
          link: {
            ...owner,
            id: linkId,
            slug: `test_event_${newId().replace(/-/g, '').slice(-21)}`,
            amountMinor: 500_000,
            minAmountMinor: null,
            maxAmountMinor: null,
            currency: 'XOF',
            countries: ['BJ'],
            description: DESCRIPTION,
            reusable: true,
            maxPayments: null,
            expiresAt: null,
            returnUrl: null,
            metadata: { ...METADATA },
            deactivatedAt: change(type) === 'deactivated' ? now : null,
            version: 1,
          },
        },
      };
    }
    case 'settlement_account':
      return {
        kind,
        account: {
          ...owner,
          id: id(),
          kind: 'wallet',
          currency: 'XOF',
          country: 'BJ',
          holderName: 'Test Event',
          operator: 'mtn_bj',
          phone: PHONE,
          iban: null,
          bankName: null,
          description: DESCRIPTION,
          metadata: { ...METADATA },
          usableFrom: now,
          removedAt: change(type) === 'removed' ? now : null,
          version: 1,
        },
      };
    case 'merchant': {
      const rejected = change(type) === 'rejected';
      return {
        kind,
        // A made-up account like every sample object (the envelope's merchant_id stays the real one).
        merchant: { id: id(), name: DESCRIPTION, status: 'active', kycStatus: rejected ? 'rejected' : 'validated', createdAt: now, updatedAt: now },
        kycRejectionReason: rejected ? 'A sample reason (akwe_test_event).' : null,
      };
    }
    default:
      throw new Error(`no test event sample for ${type}`);
  }
}
