import type { BulkBatch, BulkStatusTotal } from '../bulk/bulk-batch.js';
import type { Payment, Refund } from '../payments/payment.js';
import type { Payout } from '../payouts/payout.js';
import type { Transfer } from '../transfers/transfer.js';
import type { Settlement } from '../settlements/settlement.js';
import type { SettlementAccount } from '../settlements/settlement-account.js';
import type { Environment } from '../shared/environment.js';
import type { Merchant } from '../merchants/merchant.js';
import type { PaymentLinkView } from '../payment-links/payment-link.js';

/** What an event is about, as the domain saw it at that moment; each contract renders it at its edge. */
export type EventSubject =
  | { kind: 'payment'; payment: Payment }
  | { kind: 'refund'; refund: Refund; payment: Payment }
  | { kind: 'payout'; payout: Payout }
  | { kind: 'transfer'; transfer: Transfer }
  | { kind: 'settlement'; settlement: Settlement }
  | { kind: 'settlement_account'; account: SettlementAccount }
  | { kind: 'payment_link'; view: PaymentLinkView }
  | { kind: 'bulk_batch'; batch: BulkBatch; totals: BulkStatusTotal[] }
  /** The account itself: a KYC decision (the reason when rejected). */
  | { kind: 'merchant'; merchant: Merchant; kycRejectionReason: string | null };

/** The merchant reference of what an event is about (GET /events?reference=). */
export function subjectReference(subject: EventSubject): string {
  switch (subject.kind) {
    case 'payout':
      return subject.payout.reference;
    case 'transfer':
      // The receiver's side has no reference of its own: GET /events?reference=<transfer id>.
      return subject.transfer.reference ?? subject.transfer.id;
    case 'settlement':
      return subject.settlement.reference;
    case 'settlement_account':
      return subject.account.id; // an account has no merchant reference: GET /events?reference=<account id>
    case 'payment_link':
      return subject.view.link.id; // a link has no merchant reference: GET /events?reference=<link id>
    case 'bulk_batch':
      return subject.batch.id; // a batch has no merchant reference: GET /events?reference=<batch id>
    case 'merchant':
      return subject.merchant.id; // GET /events?reference=<merchant id>
    default:
      return subject.payment.reference;
  }
}

/**
 * One outbox row, written in the same transaction as the change it reports. The envelope sent to
 * receivers (docs/webhooks.md) is built from it by the contract's mapper, never stored twice.
 */
export interface StoredEvent {
  id: string;
  merchantId: string;
  environment: Environment;
  type: string;
  createdAt: string;
  subject: EventSubject;
}
