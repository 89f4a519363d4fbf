import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { TenantScope } from '../shared/environment.js';
import type { DeliveryBudgets } from './delivery-budgets.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { DeliveryAttempt, DeliveryStatus, WebhookDelivery, WebhookEndpoint } from './webhook-endpoint.js';

/** A delivery to create: where an event goes and in which contract's shape. */
export type NewDelivery = Pick<WebhookDelivery, 'destination' | 'endpointId' | 'targetUrl' | 'apiVersion'>;

export interface DeliveryUpdate {
  status: DeliveryStatus;
  nextAttemptAt: string;
  lastStatusCode: number | null;
  lastError: string | null;
  succeededAt: string | null;
}

export type { Page } from '../shared/pagination.js';

export interface ClaimedForSending {
  claimed: WebhookDelivery[];
  /** Rejects if the read fails: each send then fails, and its claim is taken over once its lease runs out. */
  loading: Promise<Map<string, SendingContext>>;
}

export interface ClaimOptions {
  now: string;
  limit: number;
  leaseUntil: string;
  claimToken: string;
  budgets: DeliveryBudgets;
  /** A stream's lowered bound while its receiver pushes back (back-off); none by default. */
  streamCap?: (stream: string) => number;
  /** Streams told to wait (Retry-After): none of their deliveries is claimed. */
  pausedStreams?: readonly string[];
  /**
   * Deliveries of this process whose receiver has answered and whose result is being written:
   * still `delivering` in the database, but no longer a request in flight, so they do not count
   * against the budgets here (other processes count them until the result is written).
   */
  answered?: ReadonlySet<string>;
}

/** What sending a delivery needs: its event and, for an endpoint delivery, the endpoint (absent once deleted). */
export interface SendingContext {
  event: StoredEvent;
  endpoint: WebhookEndpoint | undefined;
}

/** The outcome of one try, for recordTries. */
export interface TryResult {
  delivery: WebhookDelivery;
  claimToken: string;
  attempt: DeliveryAttempt;
  update: DeliveryUpdate;
  disableEndpoint?: { reason: string };
}

/** GET /events filters (the page fields aside). */
export interface EventFilters {
  types?: string[];
  /** The merchant reference of the object the events are about. */
  reference?: string;
  createdGte?: string;
  createdLte?: string;
}

export interface WebhookStore {
  /**
   * Inserts the endpoint, with the request's claim and response (`claim`) in the same transaction.
   * Refuses (endpoint_limit_reached) when the scope holds `maxPerScope` endpoints already.
   */
  insertEndpoint(endpoint: WebhookEndpoint, maxPerScope: number, claim?: ClaimWrite): Promise<void>;
  findEndpoint(scope: TenantScope, id: string): Promise<WebhookEndpoint | undefined>;
  /** Every endpoint of the scope (fan-out, resend). */
  listEndpoints(scope: TenantScope): Promise<WebhookEndpoint[]>;
  /** The scope's endpoints for the API list, newest first. */
  pageEndpoints(scope: TenantScope, page: PageRequest): Promise<Page<WebhookEndpoint>>;
  updateEndpoint(endpoint: WebhookEndpoint, claim?: ClaimWrite): Promise<void>;
  /** Deletes the endpoint; its deliveries still waiting are cancelled, their history kept. */
  deleteEndpoint(scope: TenantScope, id: string, now: string): Promise<boolean>;

  /** Operator tools (the CLI) only: endpoints by id or across merchants, never reachable with an API key. */
  findEndpointById(id: string): Promise<WebhookEndpoint | undefined>;
  listAllEndpoints(filter: { merchantId?: string; environment?: string }): Promise<WebhookEndpoint[]>;

  /** The merchant's callback_url signing secret for the environment, created on first use. */
  callbackSecret(scope: TenantScope, create: () => string, now: string): Promise<string>;

  /**
   * Turns events not yet fanned out into deliveries, in event order, and marks them done, in one
   * transaction per batch (rows claimed with SKIP LOCKED where the database can). `plan` gets each
   * event with its merchant's enabled endpoints in that environment.
   */
  fanOut(limit: number, now: string, plan: (event: StoredEvent, endpoints: WebhookEndpoint[]) => NewDelivery[], newId: () => string): Promise<number>;

  /**
   * Takes up to `limit` due deliveries (and those whose lease ran out: a crashed worker), oldest due
   * first, within the budgets (what is in flight in every process counts), marking them
   * `delivering` under `claimToken` until `leaseUntil`; returned in their claimed state.
   */
  claimDue(options: ClaimOptions): Promise<WebhookDelivery[]>;
  /**
   * `claimDue`, and the claim's `loadForSending`: read inside the claim's transaction where that
   * costs nothing more (SQLite, in-process), after it otherwise (`loading` then runs while the
   * caller goes on).
   */
  claimForSending(options: ClaimOptions): Promise<ClaimedForSending>;
  /** The event and (for endpoint deliveries) the endpoint each claimed delivery needs, by delivery id; absent when its event is gone. */
  loadForSending(deliveries: readonly WebhookDelivery[]): Promise<Map<string, SendingContext>>;
  /**
   * Records tries in one transaction: each try's attempt row and its delivery's next state, only
   * where the claim is still ours (false at that index otherwise). With `disableEndpoint` (a 410),
   * the endpoint is disabled and its other waiting deliveries cancelled in the same transaction.
   */
  recordTries(tries: readonly TryResult[]): Promise<boolean[]>;

  /**
   * Queues the event again for these destinations: new deliveries, or existing ones reset to pending.
   * `claimFor` gives the request's claim and response for the resulting deliveries, written in the same transaction.
   */
  resend(
    event: StoredEvent,
    targets: NewDelivery[],
    now: string,
    newId: () => string,
    claimFor?: (deliveries: WebhookDelivery[]) => ClaimWrite | undefined,
  ): Promise<WebhookDelivery[]>;
  listDeliveries(scope: TenantScope, endpointId: string, page: PageRequest): Promise<Page<WebhookDelivery & { attemptsLog: DeliveryAttempt[] }>>;
  /** One event's deliveries in the scope (one per destination), oldest first, with their tries. */
  deliveriesOfEvent(scope: TenantScope, eventId: string): Promise<(WebhookDelivery & { attemptsLog: DeliveryAttempt[] })[]>;
  listEvents(scope: TenantScope, filters: EventFilters, page: PageRequest): Promise<Page<StoredEvent>>;
  /** Up to `limit` of the scope's events with an id greater than `afterId`, oldest first (the event stream). */
  eventsAfter(scope: TenantScope, afterId: string, limit: number): Promise<StoredEvent[]>;
  /** The ids only of `eventsAfter`, from the index (the event stream's check for late commits). */
  eventIdsAfter(scope: TenantScope, afterId: string, limit: number): Promise<string[]>;
  /** The scope's events among these ids, oldest first. */
  eventsWithIds(scope: TenantScope, ids: string[]): Promise<StoredEvent[]>;
}
