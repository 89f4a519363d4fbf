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
  /** What the connector keeps about the payment for its later calls (stored as the payment's operatorState). */
  operatorState?: Readonly<Record<string, string>>;
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

/** What a provider says its account (the route's float) holds now, in minor units of its currency. */
export interface ProviderBalance {
  amountMinor: number;
  currency: string;
}

/** Reads the provider account that pays this route's payouts, where its API offers a balance read. */
export interface BalanceRead {
  readBalance(): Promise<ProviderBalance>;
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
  /** The float's balance (docs/operations.md "Floats"); absent where the provider's API has no balance read. */
  readonly balance?: BalanceRead;
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
  /**
   * For operators that sign their callbacks (Wave, pawaPay): whether this raw body and headers came
   * from them. Signatures that cover the request line (pawaPay's) read it from the HTTP/2-style
   * pseudo-headers `:method`, `:authority` and `:path` the route adds.
   */
  verifyWebhook?(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowSeconds: number): boolean;
  /**
   * True for a connector without a network between us and its operator (the sandbox): a send its
   * operator does not know never arrived and never will, so recovery may send it again at once.
   * Absent: a send may reach the operator late, and is sent again only after a grace (docs/operators.md "Faults").
   */
  readonly sendsArriveAtOnce?: boolean;
  /**
   * True for a connector whose answers are decided in this process and sent nowhere (the sandbox):
   * there is no call to recover from, so a new direct payment asks it before writing anything and
   * commits the payment with its outcome in one phase (docs/architecture.md "Recorded phases").
   */
  readonly decidesInProcess?: boolean;
  /** False when the connector has no key to check callbacks with (pawaPay without signed callbacks); absent means it has one. */
  readonly signsCallbacks?: boolean;
  /** Where its provider's API offers statements: the daily reconciliation fetches them (docs/operations.md "Reconciliation"). */
  readonly statements?: StatementFetch;
}

/** A provider's statement of one UTC day, fetched from its API, in the provider's report format. */
export interface StatementFetch {
  /** Connectors with the same key read the same statement (one pawaPay wallet serves every operator of a country): fetched once. */
  readonly key: string;
  fetch(day: string): Promise<string>;
}

/**
 * A call that got no answer at all (a timeout, a cut connection): unlike an answer, even an error
 * one, its request may still reach the operator later. Connectors' HTTP clients throw it.
 */
export class OperatorNoAnswer extends Error {}

/** One part of a connector checked against its operator (e.g. MTN's collection product). */
export interface ConnectorCheck {
  part: string;
  ok: boolean;
  detail: string;
}

/** Whether a connector can take traffic now (its circuit breaker's view). */
export type OperatorHealth = 'available' | 'degraded' | 'unavailable';

/**
 * The flows a route of the operators file may be restricted to for new requests: `collect`
 * (direct, hosted and OTP collections, with their status checks and refunds) and `payout`.
 */
export const routeFlows = ['collect', 'payout'] as const;
export type RouteFlow = (typeof routeFlows)[number];

/**
 * One way of reaching a catalog operator: a connector with its own credentials and circuit
 * breaker. An operator has one or more, in order; new requests take the first that is up and
 * offers the flow, and what a route took stays with it (its name is recorded on the resource).
 */
export interface OperatorRoute {
  /** Unique among the operator's routes (the connector family's name unless the file names it). */
  name: string;
  /** How metrics, logs and the back office name it: `<slug>/<name>`, e.g. `mtn_bj/mtn-momo`. */
  label: string;
  connector: OperatorConnector;
  /** The flows new requests may take through it; undefined: every flow its connector offers. */
  flows?: readonly RouteFlow[];
  /** Under this balance (minor units) the route's float is low: new payouts go to another route (`low_float_minor`). */
  lowFloatMinor?: number;
}

/**
 * Picks the connector for an operator (by its catalog gateway code) in an environment: test always
 * reaches the sandbox; live the routes configured for that operator, or none.
 */
export interface OperatorConnectors {
  /** The operator's routes in order (test: the sandbox alone); empty when none is configured. */
  routesFor(environment: Environment, gatewayCode: string): readonly OperatorRoute[];
  /**
   * The connector of one route (`route` null or absent: the first, as for resources recorded
   * before routes existed); undefined when the operator or that route is not configured.
   */
  connectorFor(environment: Environment, gatewayCode: string, route?: string | null): OperatorConnector | undefined;
  /** How the operator's best route is doing; `unavailable` when none is configured. */
  health(environment: Environment, gatewayCode: string): OperatorHealth;
  /** The live connectors of one family (each once), e.g. to check a signed callback against each. */
  liveConnectorsOf(family: string): OperatorConnector[];
}
