import { notFoundIn } from '../shared/not-found.js';
import { randomBytes } from 'node:crypto';
import { AkweError } from '../errors/index.js';
import { EVENT_TYPES, isKnownEventPattern, knownEventPatterns } from '../events/event-types.js';
import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import type { Clock, ContractVersions, EventStore, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import { CALLBACK_DESTINATION, subscribes, type WebhookApiVersion, type WebhookDelivery, type WebhookEndpoint } from './webhook-endpoint.js';
import type { Page, PageRequest } from '../shared/pagination.js';

/**
 * Endpoints per merchant and environment (Stripe allows 16 too). Each endpoint is a delivery
 * stream with its own in-flight budget, so an unbounded number would let one merchant's slow
 * receivers hold every delivery slot.
 */
export const MAX_ENDPOINTS_PER_SCOPE = 16;
import type { EventFilters, NewDelivery, WebhookStore } from './webhook-store.js';

export interface WebhookServiceDeps {
  store: WebhookStore;
  events: EventStore;
  clock: Clock;
  newId: IdSource;
  /** The webhook versions and what each can carry (the contract registry). */
  contracts: ContractVersions;
}

export interface EndpointInput {
  url: string;
  eventTypes?: string[];
  description?: string | null;
  enabled?: boolean;
  apiVersion?: WebhookApiVersion;
  /** null: back to the default. */
  maxInFlight?: number | null;
}

/** Longest overlap during which the previous secret keeps signing after a rotation. */
export const MAX_ROTATION_OVERLAP_SECONDS = 7 * 86_400;
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 86_400;

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Webhook endpoints, the callback secret, fan-out planning and resend: everything but the sending. */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  async createEndpoint(scope: TenantScope, input: EndpointInput, request: RecordedRequest<WebhookEndpoint> = {}): Promise<WebhookEndpoint> {
    const now = this.now();
    const apiVersion = this.checkVersion(input.apiVersion ?? this.deps.contracts.defaultWebhookVersion);
    const endpoint: WebhookEndpoint = {
      id: this.deps.newId(),
      merchantId: scope.merchantId,
      environment: scope.environment,
      url: this.checkUrl(scope, input.url),
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      eventTypes: this.typesItCanReceive(apiVersion, this.checkTypes(input.eventTypes ?? [])),
      apiVersion,
      maxInFlight: input.maxInFlight ?? null,
      secret: newSigningSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    };
    // The endpoint, the claim and the stored response commit together (docs/architecture.md "Recorded phases").
    const claim = finishWrite(request, endpoint.id, endpoint);
    await this.deps.store.insertEndpoint(endpoint, MAX_ENDPOINTS_PER_SCOPE, claim);
    reportCommitted(request, claim);
    return endpoint;
  }

  async getEndpoint(scope: TenantScope, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.deps.store.findEndpoint(scope, id);
    if (!endpoint) throw await this.endpointNotFound(scope, id);
    return endpoint;
  }

  private endpointNotFound(scope: TenantScope, id: string): Promise<AkweError> {
    return notFoundIn(scope, 'webhook endpoint', id, (other) => this.deps.store.findEndpoint(other, id));
  }

  listEndpoints(scope: TenantScope, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.deps.store.pageEndpoints(scope, page);
  }

  async updateEndpoint(scope: TenantScope, id: string, changes: Partial<EndpointInput>): Promise<WebhookEndpoint> {
    const current = await this.getEndpoint(scope, id);
    const enabling = changes.enabled === true && !current.enabled;
    const apiVersion = changes.apiVersion === undefined ? current.apiVersion : this.checkVersion(changes.apiVersion);
    const next: WebhookEndpoint = {
      ...current,
      url: changes.url === undefined ? current.url : this.checkUrl(scope, changes.url),
      eventTypes: this.typesItCanReceive(apiVersion, changes.eventTypes === undefined ? current.eventTypes : this.checkTypes(changes.eventTypes)),
      description: changes.description === undefined ? current.description : changes.description,
      enabled: changes.enabled ?? current.enabled,
      apiVersion,
      maxInFlight: changes.maxInFlight === undefined ? current.maxInFlight : changes.maxInFlight,
      disabledReason: enabling ? null : current.disabledReason,
      updatedAt: this.now(),
    };
    await this.deps.store.updateEndpoint(next);
    return next;
  }

  async deleteEndpoint(scope: TenantScope, id: string): Promise<void> {
    if (!(await this.deps.store.deleteEndpoint(scope, id, this.now()))) throw await this.endpointNotFound(scope, id);
  }

  /** A new secret at once; the previous one keeps signing (a second v1) for the overlap. */
  async rotateSecret(scope: TenantScope, id: string, overlapSeconds = DEFAULT_ROTATION_OVERLAP_SECONDS, request: RecordedRequest<WebhookEndpoint> = {}): Promise<WebhookEndpoint> {
    if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_ROTATION_OVERLAP_SECONDS) {
      throw new AkweError('validation_error', `overlap_seconds must be from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}`, { field: 'overlap_seconds' });
    }
    const current = await this.getEndpoint(scope, id);
    const now = this.deps.clock.now();
    const next: WebhookEndpoint = {
      ...current,
      secret: newSigningSecret(),
      previousSecret: overlapSeconds > 0 ? current.secret : null,
      previousSecretExpiresAt: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000).toISOString() : null,
      updatedAt: now.toISOString(),
    };
    // With an Idempotency-Key, the new secret and the (sealed) answer showing it commit together:
    // a retry after a lost answer gets that secret again instead of rotating a second time.
    const claim = finishWrite(request, next.id, next);
    await this.deps.store.updateEndpoint(next, claim);
    reportCommitted(request, claim);
    return next;
  }

  /** The scope an endpoint lives in, for operator tools that name an endpoint by id alone. */
  async scopeOfEndpoint(id: string): Promise<TenantScope> {
    const endpoint = await this.deps.store.findEndpointById(id);
    if (!endpoint) throw new AkweError('not_found', `No webhook endpoint ${id}.`);
    return { merchantId: endpoint.merchantId, environment: endpoint.environment };
  }

  listAllEndpoints(filter: { merchantId?: string; environment?: string }): Promise<WebhookEndpoint[]> {
    return this.deps.store.listAllEndpoints(filter);
  }

  callbackSecret(scope: TenantScope): Promise<string> {
    return this.deps.store.callbackSecret(scope, newSigningSecret, this.now());
  }

  /** Where one event goes: every enabled endpoint subscribed to its type, and the payment's callback_url. */
  planDeliveries(event: StoredEvent, endpoints: WebhookEndpoint[]): NewDelivery[] {
    const targets: NewDelivery[] = endpoints
      .filter((endpoint) => endpoint.enabled && subscribes(endpoint, event.type))
      .filter((endpoint) => this.receives(endpoint, event))
      .map((endpoint) => ({ destination: endpoint.id, endpointId: endpoint.id, targetUrl: endpoint.url, apiVersion: endpoint.apiVersion }));
    // A payment's callback_url gets that payment's events (its refunds' too); payouts and batches have none.
    const callbackUrl = event.subject.kind === 'payment' || event.subject.kind === 'refund' ? event.subject.payment.callbackUrl : null;
    if (callbackUrl) targets.push({ destination: CALLBACK_DESTINATION, endpointId: null, targetUrl: callbackUrl, apiVersion: this.deps.contracts.callbackWebhookVersion });
    return targets;
  }

  fanOut(limit = 100): Promise<number> {
    return this.deps.store.fanOut(limit, this.now(), (event, endpoints) => this.planDeliveries(event, endpoints), this.deps.newId);
  }

  /** Sends an event again: to one endpoint (subscribed or not), or to all its destinations. */
  async resend(scope: TenantScope, eventId: string, endpointId?: string, request: RecordedRequest<WebhookDelivery[]> = {}): Promise<WebhookDelivery[]> {
    const event = await this.deps.events.findById(scope, eventId);
    if (!event) throw await notFoundIn(scope, 'event', eventId, (other) => this.deps.events.findById(other, eventId));
    let targets: NewDelivery[];
    if (endpointId !== undefined) {
      const endpoint = await this.getEndpoint(scope, endpointId);
      if (!endpoint.enabled) throw new AkweError('validation_error', 'The endpoint is disabled; enable it first.', { field: 'endpoint_id' });
      const limit = this.deps.contracts.receivingLimit(endpoint.apiVersion);
      if (!this.receives(endpoint, event))
        throw new AkweError('validation_error', `A ${endpoint.apiVersion} endpoint receives ${limit?.receives} only; this is a ${event.subject.kind} event.`, {
          field: 'endpoint_id',
        });
      targets = [{ destination: endpoint.id, endpointId: endpoint.id, targetUrl: endpoint.url, apiVersion: endpoint.apiVersion }];
    } else {
      targets = this.planDeliveries(event, await this.deps.store.listEndpoints(scope));
    }
    let claim: ClaimWrite | undefined;
    const deliveries = await this.deps.store.resend(event, targets, this.now(), this.deps.newId, (result) => (claim = finishWrite(request, null, result)));
    reportCommitted(request, claim);
    return deliveries;
  }

  /** Where one event went: its deliveries with every try. Another scope's event has none here. */
  deliveriesOfEvent(scope: TenantScope, eventId: string) {
    return this.deps.store.deliveriesOfEvent(scope, eventId);
  }

  listDeliveries(scope: TenantScope, endpointId: string, page: PageRequest) {
    return this.getEndpoint(scope, endpointId).then(() => this.deps.store.listDeliveries(scope, endpointId, page));
  }

  listEvents(scope: TenantScope, filters: EventFilters, page: PageRequest) {
    if (filters.types) knownTypesOnly(filters.types, 'type');
    return this.deps.store.listEvents(scope, filters, page);
  }

  /** The patterns an event stream filters on, checked as endpoint subscriptions are (exact types, `family.*`, `*`). */
  checkEventPatterns(types: string[], field: string): string[] {
    return knownTypesOnly(types, field);
  }

  /** The scope's events after `afterId`, oldest first (GET /events/stream). */
  eventsAfter(scope: TenantScope, afterId: string, limit: number) {
    return this.deps.store.eventsAfter(scope, afterId, limit);
  }

  /** The ids of the scope's events after `afterId`, oldest first (the stream's look for late commits). */
  eventIdsAfter(scope: TenantScope, afterId: string, limit: number) {
    return this.deps.store.eventIdsAfter(scope, afterId, limit);
  }

  eventsWithIds(scope: TenantScope, ids: string[]) {
    return this.deps.store.eventsWithIds(scope, ids);
  }

  private checkUrl(scope: TenantScope, raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AkweError('validation_error', 'url must be an absolute http(s) URL', { field: 'url' });
    }
    if (url.username || url.password) throw new AkweError('validation_error', 'url must not carry credentials', { field: 'url' });
    if (url.protocol === 'https:') return url.toString();
    if (url.protocol === 'http:' && scope.environment === 'test') return url.toString();
    throw new AkweError('validation_error', scope.environment === 'live' ? 'A live endpoint must use https://' : 'url must be http:// or https://', { field: 'url' });
  }

  /** Whether the endpoint's contract can carry the event (the earlier collect contract knows payment events only). */
  private receives(endpoint: WebhookEndpoint, event: StoredEvent): boolean {
    return this.deps.contracts.receivingLimit(endpoint.apiVersion)?.subjects.includes(event.subject.kind) ?? true;
  }

  /**
   * `types` when an endpoint of `apiVersion` can receive each: an endpoint limited to a family
   * (the earlier contract: `collect.payment.*`) would be subscribed to nothing by a pattern matching
   * none of its events (`payout.*`, `collect.refund.*`, `bulk_payment.completed`): refused, naming it.
   */
  private typesItCanReceive(apiVersion: WebhookApiVersion, types: string[]): string[] {
    const limit = this.deps.contracts.receivingLimit(apiVersion);
    if (limit === undefined) return types;
    const receivable = EVENT_TYPES.filter((type) => subscribes({ eventTypes: [limit.family] }, type));
    const unreachable = types.find((pattern) => !receivable.some((type) => subscribes({ eventTypes: [pattern] }, type)));
    if (unreachable !== undefined) {
      throw new AkweError(
        'validation_error',
        `A ${apiVersion} endpoint receives ${limit.receives} only (${limit.family}); ${JSON.stringify(unreachable)} would never reach it. Use an api_version ${this.deps.contracts.defaultWebhookVersion} endpoint for ${limit.others}.`,
        { field: 'events' },
      );
    }
    return types;
  }

  /** A version the contracts know; the HTTP schema and the CLI already offer only these. */
  private checkVersion(apiVersion: WebhookApiVersion): WebhookApiVersion {
    const known = this.deps.contracts.webhookVersions;
    if (!known.includes(apiVersion)) throw new AkweError('validation_error', `api_version must be one of ${known.join(', ')}`, { field: 'api_version' });
    return apiVersion;
  }

  private checkTypes(types: string[]): string[] {
    return [...new Set(knownTypesOnly(types, 'events'))];
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

/** `types` when every one is a known event type or family; else 400 naming the first unknown one and the known ones. */
function knownTypesOnly(types: string[], field: string): string[] {
  const unknown = types.find((type) => !isKnownEventPattern(type));
  if (unknown !== undefined) {
    throw new AkweError('validation_error', `Unknown event type ${JSON.stringify(unknown)}. Known: ${knownEventPatterns().join(', ')}.`, { field });
  }
  return types;
}
