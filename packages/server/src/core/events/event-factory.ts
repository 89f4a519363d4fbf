import type { BulkBatch, BulkBatchStatus, BulkStatusTotal } from '../bulk/bulk-batch.js';
import type { Clock, IdSource } from '../ports.js';
import type { Payment, PaymentStatus, Refund } from '../payments/payment.js';
import type { Payout } from '../payouts/payout.js';
import type { Transfer } from '../transfers/transfer.js';
import type { Settlement } from '../settlements/settlement.js';
import type { SettlementAccount } from '../settlements/settlement-account.js';
import type { StoredEvent } from './stored-event.js';
import type { Merchant } from '../merchants/merchant.js';
import type { PaymentLinkView } from '../payment-links/payment-link.js';
import type { Environment } from '../shared/environment.js';

export type PayoutEventType = 'initiated' | 'updated' | 'completed' | 'failed' | 'cancelled';

/** Builds outbox rows; one place decides event ids, times and kinds (each contract renders them, event_version included). */
export class EventFactory {
  constructor(
    private readonly clock: Clock,
    private readonly newId: IdSource,
  ) {}

  paymentCreated(payment: Payment): StoredEvent {
    return this.payment('collect.payment.created', payment);
  }

  /** The event of the status a payment just entered: `collect.payment.<status>`. */
  paymentEntered(status: PaymentStatus, payment: Payment): StoredEvent {
    return this.payment(`collect.payment.${status}`, payment);
  }

  refund(type: 'created' | 'completed' | 'failed', refund: Refund, payment: Payment): StoredEvent {
    // Snapshots: payments and refunds hold only primitives, so a shallow copy cannot share state.
    return this.base(`collect.refund.${type}`, payment, { kind: 'refund', refund: { ...refund }, payment: { ...payment } });
  }

  /** payout.initiated, .updated, .completed, .failed, .cancelled (docs/webhooks.md). */
  payout(type: PayoutEventType, payout: Payout): StoredEvent {
    return this.base(`payout.${type}`, payout, { kind: 'payout', payout: { ...payout, metadata: { ...payout.metadata } } });
  }

  /** transfer.sent (the sender's, its side) or transfer.received (the receiver's, its side). */
  transfer(type: 'sent' | 'received', side: Transfer): StoredEvent {
    return this.base(`transfer.${type}`, side, { kind: 'transfer', transfer: { ...side, metadata: { ...side.metadata } } });
  }

  /** settlement.created, .paid, .failed (docs/settlements.md). */
  settlement(type: 'created' | 'paid' | 'failed', settlement: Settlement): StoredEvent {
    return this.base(`settlement.${type}`, settlement, {
      kind: 'settlement',
      settlement: { ...settlement, destination: { ...settlement.destination }, metadata: { ...settlement.metadata } },
    });
  }

  /** settlement_account.created, .updated, .removed: a change to where money goes is always told. */
  settlementAccount(type: 'created' | 'updated' | 'removed', account: SettlementAccount): StoredEvent {
    return this.base(`settlement_account.${type}`, account, { kind: 'settlement_account', account: { ...account, metadata: { ...account.metadata } } });
  }

  /** payment_link.created, .updated, .deactivated (docs/payment-links.md). */
  paymentLink(type: 'created' | 'updated' | 'deactivated', view: PaymentLinkView): StoredEvent {
    const { link } = view;
    return this.base(`payment_link.${type}`, link, {
      kind: 'payment_link',
      view: { ...view, link: { ...link, countries: [...link.countries], metadata: { ...link.metadata } } },
    });
  }

  /** bulk_payment.processing (validated), .completed, .partially_completed, .failed, .cancelled (docs/bulk.md). */
  bulkBatch(status: Exclude<BulkBatchStatus, 'draft'>, batch: BulkBatch, totals: BulkStatusTotal[]): StoredEvent {
    return this.base(`bulk_payment.${status}`, batch, { kind: 'bulk_batch', batch: { ...batch, metadata: { ...batch.metadata } }, totals: totals.map((total) => ({ ...total })) });
  }

  /**
   * merchant.kyc.validated, .rejected: the platform's KYC decision, told in `environment` (the
   * decision concerns the whole account: one event per environment, so test endpoints hear it too).
   */
  merchantKyc(decision: 'validated' | 'rejected', merchant: Merchant, kycRejectionReason: string | null, environment: Environment): StoredEvent {
    return this.base(`merchant.kyc.${decision}`, { merchantId: merchant.id, environment }, { kind: 'merchant', merchant: { ...merchant }, kycRejectionReason });
  }

  private payment(type: string, payment: Payment): StoredEvent {
    return this.base(type, payment, { kind: 'payment', payment: { ...payment } });
  }

  private base(type: string, owner: Pick<Payment, 'merchantId' | 'environment'>, subject: StoredEvent['subject']): StoredEvent {
    return { id: this.newId(), merchantId: owner.merchantId, environment: owner.environment, type, createdAt: this.clock.now().toISOString(), subject };
  }
}
