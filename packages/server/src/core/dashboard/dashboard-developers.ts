import { auditEntry } from './dashboard-user.js';
import { AkweError } from '../errors/index.js';
import type { ApiKey } from '../merchants/api-key.js';
import type { IssuedKey, MerchantService } from '../merchants/merchant-service.js';
import type { Scope } from '../merchants/scopes.js';
import { isoNow, type Clock } from '../shared/clock.js';
import type { Environment, TenantScope } from '../shared/environment.js';
import type { IdSource } from '../shared/ids.js';
import { EVENT_TYPES } from '../events/event-types.js';
import type { StoredEvent } from '../events/stored-event.js';
import type { ContractVersions } from '../ports.js';
import { subscribes } from '../webhooks/webhook-endpoint.js';
import { sampleSubject, subjectKindOf } from './test-event-samples.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { WebhookDelivery, WebhookEndpoint } from '../webhooks/webhook-endpoint.js';
import type { EndpointInput, WebhookService } from '../webhooks/webhook-service.js';
import type { MemberCaller } from './dashboard-service.js';
import { scopesBeyondCreator, sessionKeyScopes } from './key-scope-bounds.js';
import type { Role } from './permissions.js';
import type { AuditAction, AuditEntry, DashboardStore, RequestOrigin } from './dashboard-user.js';

export interface DashboardDevelopersDeps {
  store: DashboardStore;
  merchants: MerchantService;
  webhooks: WebhookService;
  clock: Clock;
  newId: IdSource;
  /** What each webhook version can carry (a test event must be one the endpoint can receive). */
  contracts: ContractVersions;
  /** Stores a test event as already fanned out, so that only its one delivery sends it. */
  testEvents: TestEventWrites;
}

/** A key as the dashboard lists it: with the scopes it holds beyond its creator's current role (none for the CLI's keys). */
export interface ListedKey {
  key: ApiKey;
  beyondCreator: Scope[];
}

export interface OverScopedKey extends ListedKey {
  /** The creator's role now; null when they are no longer a member. */
  creatorRole: Role | null;
}

export interface TestEventWrites {
  insertFannedOutEvent(event: StoredEvent): Promise<void>;
}

/** The type a test event has when none is asked for: the one most integrations handle first, else the first the endpoint receives. */
const PREFERRED_TEST_TYPES = ['collect.payment.completed', ...EVENT_TYPES];

/**
 * The dashboard's developers section (docs/dashboard.md, "Developers"): API keys and webhook
 * endpoints of the caller's merchant in the active environment, each change in the audit log.
 * The caller comes from DashboardService.actingIn, which has checked membership and role; this
 * class keeps every object inside that merchant and environment (another's id: 404).
 */
export class DashboardDevelopers {
  constructor(private readonly deps: DashboardDevelopersDeps) {}

  /** Newest first, each with what it holds beyond its creator's current role (shown as a warning). */
  async listKeys(caller: MemberCaller, environment: Environment): Promise<ListedKey[]> {
    const keys = (await this.deps.merchants.listKeys({ merchantId: caller.merchantId })).filter((key) => key.environment === environment).reverse();
    const roles = new Map((await this.deps.store.listMembers(caller.merchantId)).map((member) => [member.userId, member.role]));
    return keys.map((key) => ({ key, beyondCreator: scopesBeyondCreator(key, key.createdByUserId === null ? undefined : roles.get(key.createdByUserId)) }));
  }

  /**
   * Keys, not revoked, made in a session and holding more than their creator's current role (the
   * role changed, or the creator left the merchant, or the key predates the bound); for
   * `akwe keys over-scoped`, across merchants or for one.
   */
  async overScopedKeys(filter: { merchantId?: string } = {}): Promise<OverScopedKey[]> {
    const found: OverScopedKey[] = [];
    for (const key of await this.deps.merchants.listKeys(filter)) {
      if (key.createdByUserId === null || key.revokedAt !== null) continue;
      const creatorRole = (await this.deps.store.findMembership(key.createdByUserId, key.merchantId))?.role;
      const beyondCreator = scopesBeyondCreator(key, creatorRole);
      if (beyondCreator.length > 0) found.push({ key, creatorRole: creatorRole ?? null, beyondCreator });
    }
    return found;
  }

  /**
   * Holds at most the caller's role (key-scope-bounds.ts): empty means the caller's scopes. A live
   * key may be made before the KYC is validated, without money-out scopes. The secret is in the answer only.
   */
  async createKey(caller: MemberCaller, environment: Environment, scopes: Scope[], origin: RequestOrigin): Promise<IssuedKey> {
    const merchant = await this.deps.merchants.getMerchant(caller.merchantId);
    const held = sessionKeyScopes({ role: caller.role, requested: scopes, environment, kycValidated: merchant.kycStatus === 'validated' });
    const issued = await this.deps.merchants.createKey({ merchantId: caller.merchantId, environment, scopes: held, createdByUserId: caller.user.id });
    await this.audit(caller, 'api_key.created', `${issued.key.id} (${environment}, ${issued.key.keyPrefix}…${issued.key.keyLastFour})`, origin);
    return issued;
  }

  /** Revoked through MerchantService, which forgets the key in every process's cache at once. */
  async revokeKey(caller: MemberCaller, environment: Environment, keyId: string, origin: RequestOrigin): Promise<ApiKey> {
    const key = (await this.listKeys(caller, environment)).find((listed) => listed.key.id === keyId.toLowerCase())?.key;
    if (!key) throw new AkweError('not_found', `no API key with id ${keyId}`);
    if (key.revokedAt !== null) return key;
    const revoked = await this.deps.merchants.revokeKey(key.id);
    await this.audit(caller, 'api_key.revoked', `${key.id} (${environment}, ${key.keyPrefix}…${key.keyLastFour})`, origin);
    return revoked;
  }

  listEndpoints(caller: MemberCaller, environment: Environment, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.deps.webhooks.listEndpoints(scopeOf(caller, environment), page);
  }

  async createEndpoint(caller: MemberCaller, environment: Environment, input: EndpointInput, origin: RequestOrigin): Promise<WebhookEndpoint> {
    const endpoint = await this.deps.webhooks.createEndpoint(scopeOf(caller, environment), input);
    await this.audit(caller, 'webhook_endpoint.created', `${endpoint.id} (${environment}) ${endpoint.url}`, origin);
    return endpoint;
  }

  async updateEndpoint(caller: MemberCaller, environment: Environment, id: string, changes: Partial<EndpointInput>, origin: RequestOrigin): Promise<WebhookEndpoint> {
    const endpoint = await this.deps.webhooks.updateEndpoint(scopeOf(caller, environment), id, changes);
    const changed = Object.entries(changes)
      .filter(([, value]) => value !== undefined)
      .map(([name]) => name);
    await this.audit(caller, 'webhook_endpoint.updated', `${endpoint.id} (${environment}): ${changed.join(', ') || 'nothing'}`, origin);
    return endpoint;
  }

  async rotateSecret(caller: MemberCaller, environment: Environment, id: string, overlapSeconds: number | undefined, origin: RequestOrigin): Promise<WebhookEndpoint> {
    const endpoint = await this.deps.webhooks.rotateSecret(scopeOf(caller, environment), id, overlapSeconds);
    await this.audit(caller, 'webhook_endpoint.secret_rotated', `${endpoint.id} (${environment})`, origin);
    return endpoint;
  }

  deliveriesOfEvent(caller: MemberCaller, environment: Environment, eventId: string) {
    return this.deps.webhooks.deliveriesOfEvent(scopeOf(caller, environment), eventId);
  }

  listDeliveries(caller: MemberCaller, environment: Environment, endpointId: string, page: PageRequest) {
    return this.deps.webhooks.listDeliveries(scopeOf(caller, environment), endpointId, page);
  }

  async resend(caller: MemberCaller, environment: Environment, eventId: string, endpointId: string | undefined, origin: RequestOrigin): Promise<WebhookDelivery[]> {
    const deliveries = await this.deps.webhooks.resend(scopeOf(caller, environment), eventId, endpointId);
    await this.audit(caller, 'event.resent', `${eventId} (${environment}) to ${endpointId ?? 'all its destinations'}`, origin);
    return deliveries;
  }

  /**
   * Sends a sample event (test-event-samples.ts) to one endpoint through the normal pipeline: the
   * event is stored as already fanned out, so no other endpoint gets it, and one delivery to this
   * endpoint is queued; the worker renders it in the endpoint's api_version, signs and sends it,
   * and it shows in the endpoint's deliveries. `type` must be one the endpoint receives; absent:
   * `collect.payment.completed` if it does, else the first type it receives.
   */
  async sendTestEvent(caller: MemberCaller, environment: Environment, endpointId: string, type: string | undefined, origin: RequestOrigin): Promise<WebhookDelivery> {
    const scope = scopeOf(caller, environment);
    const endpoint = await this.deps.webhooks.getEndpoint(scope, endpointId);
    if (!endpoint.enabled) throw AkweError.ofField('validation_error', 'endpoint', 'The endpoint is disabled; enable it first.');
    const receives = (candidate: string) => {
      const kind = subjectKindOf(candidate);
      const limit = this.deps.contracts.receivingLimit(endpoint.apiVersion);
      return kind !== undefined && subscribes(endpoint, candidate) && (limit === undefined || limit.subjects.includes(kind));
    };
    if (type !== undefined && !EVENT_TYPES.includes(type)) throw AkweError.ofField('validation_error', 'type', `type must be an event type (${EVENT_TYPES.join(', ')}).`);
    const chosen = type ?? PREFERRED_TEST_TYPES.find(receives);
    if (chosen === undefined || !receives(chosen)) {
      throw AkweError.ofField(
        'validation_error',
        'type',
        `This endpoint does not receive ${chosen ?? 'any known event type'} (its events: ${endpoint.eventTypes.join(', ') || 'all'}; version ${endpoint.apiVersion}).`,
      );
    }
    const now = isoNow(this.deps.clock);
    const event: StoredEvent = {
      id: this.deps.newId(),
      merchantId: caller.merchantId,
      environment,
      type: chosen,
      createdAt: now,
      subject: sampleSubject(chosen, scope, now, this.deps.newId),
    };
    await this.deps.testEvents.insertFannedOutEvent(event);
    const [delivery] = await this.deps.webhooks.resend(scope, event.id, endpoint.id);
    await this.audit(caller, 'webhook_endpoint.test_event_sent', `${endpoint.id} (${environment}): ${chosen}, event ${event.id}`, origin);
    return delivery!;
  }

  /** Newest first; `startingAfter` must be a row of this merchant's log (as list cursors elsewhere), else 400 invalid_cursor. */
  async auditLog(caller: MemberCaller, page: { limit: number; startingAfter?: string }): Promise<{ data: AuditEntry[]; hasMore: boolean }> {
    const found = await this.deps.store.pageAudit(caller.merchantId, page);
    if (!found) throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this log.');
    return found;
  }

  /**
   * A signed-in user's call on the merchant API (a refund, a payout, an export…), recorded after
   * the answer by http/plugins/session-audit.ts; the route has already checked the membership.
   */
  async recordApiCall(call: { userId: string; merchantId: string; action: `api.${string}`; target: string }, origin: RequestOrigin): Promise<void> {
    await this.deps.store.insertAudit(auditEntry(this.deps, { action: call.action, userId: call.userId, merchantId: call.merchantId, target: call.target }, origin));
  }

  private async audit(caller: MemberCaller, action: AuditAction, target: string, origin: RequestOrigin): Promise<void> {
    await this.deps.store.insertAudit(auditEntry(this.deps, { action, userId: caller.user.id, merchantId: caller.merchantId, target }, origin));
  }
}

const scopeOf = (caller: MemberCaller, environment: Environment): TenantScope => ({ merchantId: caller.merchantId, environment });
