import type { CatalogOperator } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Payment, PaymentStatus, Refund } from '../payments/payment.js';
import type { Payout, PayoutAnswer } from '../payouts/payout.js';

/**
 * What an operator answered. `path` lists the statuses the payment went through, in order
 * (e.g. processing then completed when the customer approved the push at once); the last is current.
 */
export interface OperatorAnswer {
  path: PaymentStatus[];
  pspReference?: string;
  message?: string;
  /** Why, when the path ends failed or cancelled (the core defaults it when the operator gives none). */
  failureCode?: FailureCode;
  /** Where the customer goes on to pay on the operator's own page (Wave's checkout), when it has one. */
  redirectUrl?: string;
}

export type OtpAnswer = OperatorAnswer | { rejected: true };

export interface RefundAnswer {
  /** `pending` when the operator took the refund and has not finished it yet. */
  status: 'completed' | 'failed' | 'pending';
  pspReference?: string;
  message?: string;
}

// One interface per flow: a connector offers only the flows its operator has. Every call names the
// payment, refund or payout by our own id, which the connector passes to the operator as its
// idempotency / correlation reference, so the operator can later be asked what became of it. A call
// must give up well within the idempotency lease (60 s by default): after the lease another run may
// ask the operator about the same reference.

/** Collection started from the API: a push to the phone (or an OTP sent, for OTP operators). */
export interface PushCollection {
  startCollection(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer>;
}

/** The customer pays a hosted checkout with this phone and operator. */
export interface HostedCollection {
  payCheckout(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer>;
}

/** The customer's one-time code, for operators that confirm collections by OTP. */
export interface OtpConfirmation {
  confirmOtp(payment: Payment, otp: string): Promise<OtpAnswer>;
}

/** Where the operator stands on a collection. */
export interface CollectionStatus {
  /**
   * The statuses the last call took our reference (the payment id) through, or undefined when the
   * operator never received a call for it.
   */
  queryStatus(payment: Payment): Promise<OperatorAnswer | undefined>;
}

export interface RefundFlow {
  refund(payment: Payment, refund: Refund): Promise<RefundAnswer>;
  /** Where the operator stands on a refund (our refund id), or undefined when it never received it. */
  queryRefund(refund: Refund): Promise<RefundAnswer | undefined>;
}

export interface PayoutFlow {
  /** Sends a payout to the beneficiary's wallet, our payout id as the operator's reference. */
  sendPayout(payout: Payout, operator: CatalogOperator): Promise<PayoutAnswer>;
  /** Where the operator stands on a payout (our id), or undefined when it never received it. */
  queryPayout(payout: Payout): Promise<PayoutAnswer | undefined>;
}

/**
 * One operator family's connector (the sandbox simulator is one). The flows it leaves out are what
 * its operator does not offer through Akwe: the catalog and the core read support from here.
 */
export interface OperatorConnector {
  /** The family's name, as in `operators/<family>/` and the callback routes (e.g. `mtn-momo`). */
  readonly family: string;
  readonly push?: PushCollection;
  readonly hosted?: HostedCollection;
  readonly otp?: OtpConfirmation;
  readonly status?: CollectionStatus;
  readonly refunds?: RefundFlow;
  readonly payouts?: PayoutFlow;
  /** A harmless call per part of the connector (a token, a balance), for `akwe operators check`. */
  check?(): Promise<ConnectorCheck[]>;
  /** How the operator is doing (its circuit breaker); a connector without one is always available. */
  health?(): OperatorHealth;
  /** While `unavailable`: how long until it takes a call again (ms), for `Retry-After`. */
  unavailableForMs?(): number;
  /**
   * How long after a payout completed its operator may still reverse it (ms); absent when it
   * cannot. Completed payouts are read again for that long, and a reversal becomes a discrepancy.
   */
  readonly payoutReversalWindowMs?: number;
  /** For operators that sign their callbacks (Wave): whether this raw body and headers came from them. */
  verifyWebhook?(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowSeconds: number): boolean;
}

/** One part of a connector checked against its operator (e.g. MTN's collection product). */
export interface ConnectorCheck {
  part: string;
  ok: boolean;
  detail: string;
}

/** Whether a connector can take traffic now (its circuit breaker's view). */
export type OperatorHealth = 'available' | 'degraded' | 'unavailable';

/**
 * Picks the connector for an operator (by its catalog gateway code) in an environment: test always
 * reaches the sandbox; live the connector configured for that operator, or none.
 */
export interface OperatorConnectors {
  connectorFor(environment: Environment, gatewayCode: string): OperatorConnector | undefined;
  /** How the operator's connector is doing; `unavailable` when none is configured. */
  health(environment: Environment, gatewayCode: string): OperatorHealth;
  /** The live connectors of one family (each once), e.g. to check a signed callback against each. */
  liveConnectorsOf(family: string): OperatorConnector[];
}
