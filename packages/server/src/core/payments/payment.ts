import type { CountryCode, Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Metadata } from '../shared/metadata.js';

export const paymentStatuses = ['pending', 'processing', 'awaiting_otp', 'awaiting_payment', 'completed', 'failed', 'cancelled', 'expired', 'refunded'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const paymentModes = ['direct', 'hosted'] as const;
export type PaymentMode = (typeof paymentModes)[number];

/** An operator call that changes a payment; while one is in flight the payment records which. */
export const operatorCalls = ['start_collection', 'pay_checkout', 'confirm_otp'] as const;
export type OperatorCall = (typeof operatorCalls)[number];

/** A collection from a customer's wallet. Amounts are centimes; phones E.164. */
export interface Payment {
  id: string;
  merchantId: string;
  environment: Environment;
  reference: string;
  status: PaymentStatus;
  amountMinor: number;
  currency: Currency;
  country: CountryCode;
  mode: PaymentMode;
  /** Canonical slug; for hosted payments, set once the customer pays (or when the merchant preselects it). */
  operator: string | null;
  phone: string | null;
  description: string | null;
  callbackUrl: string | null;
  customerFirstName: string | null;
  customerLastName: string | null;
  pspReference: string | null;
  /** Last word from the operator (why it failed, what it waits for). */
  message: string | null;
  /** Why a failed, cancelled or expired payment did not complete; null otherwise. */
  failureCode: FailureCode | null;
  metadata: Metadata;
  otpAttempts: number;
  refundedMinor: number;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  /** Bumped on every write; writes compare it, so two concurrent changes cannot both win. */
  version: number;
  /**
   * The recovery point of an operator call: set in the transaction before the call, cleared in the
   * one that records its answer. Still set after its lease means the run that made it is gone.
   */
  operatorCall: OperatorCall | null;
  /** When the call's current holder took it (the start of its lease). */
  operatorCallStartedAt: string | null;
  /**
   * Hosted payments: the unguessable secret in `checkout_url` (32 random bytes, base64url); null or
   * absent for direct ones (and in snapshots written before the checkout page existed).
   */
  checkoutToken?: string | null;
  /** Hosted payments: the merchant's page the final checkout state links back to. */
  returnUrl?: string | null;
  /**
   * Live payments an operator is working on (pending, processing): when the reconciliation worker
   * next asks the operator about it, in case its callback never comes; null when nothing is due.
   */
  nextCheckAt?: string | null;
  /** Hosted payments paid on an operator's own page (Wave): where the customer goes on to pay. */
  operatorRedirectUrl?: string | null;
  /**
   * The route of its operator that holds the payment (OPERATORS_FILE: e.g. `mtn-momo`): set when the
   * payment is handed to one, and every later call goes there. Null or absent: made before routes were
   * recorded (the operator's first route), or not yet handed to an operator (hosted).
   */
  route?: string | null;
  /**
   * What the route's connector keeps about the payment between calls (Orange: the pay_token its
   * status query needs, a hash of the notif_token its callback must carry); never shown.
   */
  operatorState?: Readonly<Record<string, string>> | null;
  /**
   * A live payment its operator still held as pending when its lifetime ended: it is asked about
   * again until this instant before it expires (docs/operators.md "Expiry of live payments").
   */
  expiryGraceUntil?: string | null;
  /**
   * When the open operator call was last sent, kept once its lease is taken over (a resume, an
   * ended lease); null or absent: the lease start (`operatorCallStartedAt`) is the send time.
   */
  operatorSentAt?: string | null;
  /** The payment link the customer paid through (core/payment-links); null or absent: none. */
  paymentLinkId?: string | null;
}

export const refundStatuses = ['pending', 'completed', 'failed'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

export interface Refund {
  id: string;
  paymentId: string;
  paymentReference: string;
  merchantId: string;
  environment: Environment;
  amountMinor: number;
  currency: Currency;
  status: RefundStatus;
  reason: string | null;
  pspReference: string | null;
  createdAt: string;
  updatedAt: string;
  /** When recovery last sent the refund again; null or absent: its creation was its only send. */
  sentAt?: string | null;
}
