import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { AkweError } from '../../core/errors/index.js';
import { subjectReference, type StoredEvent } from '../../core/events/stored-event.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import {
  CALLBACK_DESTINATION,
  type DeliveryAttempt,
  type DeliveryStatus,
  type WebhookApiVersion,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../core/webhooks/webhook-endpoint.js';
import type { ClaimedForSending, ClaimOptions, EventFilters, NewDelivery, SendingContext, TryResult, WebhookStore } from '../../core/webhooks/webhook-store.js';
import { mapPage, type Page, type PageRequest } from '../../core/shared/pagination.js';
import { listPage, listRows } from '../list-query.js';
import { eventListRows } from './event-repository.js';
import { chooseDeliveries, hostOf, InFlightCounts, saturation, streamOf, type DeliverySlot } from '../../core/webhooks/delivery-budgets.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { DatabaseCapabilities } from '../database.js';
import type { Database, WebhookAttemptTable, WebhookDeliveryTable, WebhookEndpointTable } from '../schema.js';
import type { SecretBox } from '../secret-box.js';
import { eventFromRow, scopedEvents, withBasePayload } from './event-repository.js';

const waiting: DeliveryStatus[] = ['pending', 'retrying'];

/** Delivery rows one fan-out insert writes (about 20 bound values each: within both databases' limits). */
const DELIVERY_ROWS_PER_INSERT = 500;

/** Tries whose status changes one statement writes (9 bound values each: well within both databases' limits). */
const TRIES_PER_STATEMENT = 200;

/**
 * The status changes of `tries` as one UPDATE … FROM (VALUES …), both databases: each delivery
 * changes only while the try's claim still holds it (same claim token, still delivering). Returns
 * the ids it changed. VALUES columns are column1…column9 on both; integers are cast, since
 * PostgreSQL types untyped parameters in a VALUES list as text.
 */
async function recordTryUpdates(trx: Transaction<Database>, tries: readonly TryResult[]): Promise<string[]> {
  const rows = tries.map(
    ({ delivery, claimToken, attempt, update }) =>
      sql`(${delivery.id}, ${claimToken}, ${update.status}, cast(${attempt.attemptNumber} as integer), ${update.nextAttemptAt}, cast(${update.lastStatusCode} as integer), ${update.lastError}, ${update.succeededAt}, ${attempt.attemptedAt})`,
  );
  const result = await sql<{ id: string }>`
    update webhook_deliveries set
      status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
      last_error = v.last_error, succeeded_at = v.succeeded_at, locked_until = null, claim_token = null, updated_at = v.updated_at
    from (
      select column1 as id, column2 as claim_token, column3 as status, column4 as attempts, column5 as next_attempt_at,
        column6 as last_status_code, column7 as last_error, column8 as succeeded_at, column9 as updated_at
      from (values ${sql.join(rows)}) as tries
    ) as v
    where webhook_deliveries.id = v.id and webhook_deliveries.claim_token = v.claim_token and webhook_deliveries.status = 'delivering'
    returning webhook_deliveries.id`.execute(trx);
  return result.rows.map((row) => row.id);
}

/** What the claim's budgets need of a delivery (read instead of whole rows), with its endpoint's own bound (null for callbacks and endpoints without one). */
interface SlotRow {
  id: string;
  stream: string;
  merchant_id: string;
  target_host: string;
  subject_reference: string | null;
  max_in_flight: number | null;
}

function slotOf(row: SlotRow): DeliverySlot {
  return { id: row.id, stream: row.stream, merchantId: row.merchant_id, host: row.target_host, subject: row.subject_reference, streamLimit: row.max_in_flight };
}

function deliveryFromRow(row: Selectable<WebhookDeliveryTable>): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    destination: row.destination,
    stream: row.stream,
    targetHost: row.target_host,
    endpointId: row.endpoint_id,
    targetUrl: row.target_url,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    apiVersion: row.api_version as WebhookApiVersion,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lockedUntil: row.locked_until,
    claimToken: row.claim_token,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    succeededAt: row.succeeded_at,
  };
}

function attemptFromRow(row: Selectable<WebhookAttemptTable>): DeliveryAttempt {
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    attemptNumber: row.attempt_number,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    responseExcerpt: row.response_excerpt,
    error: row.error,
  };
}

/**
 * The oldest events not yet fanned out, in event order: those with a row in `event_fanout_queue`
 * (migration 0041). Exported so the query-plan test reads this very query.
 */
export function unfannedEventsQuery(db: Kysely<Database>, limit: number) {
  return db.selectFrom('event_fanout_queue as q').innerJoin('events as e', 'e.id', 'q.event_id').selectAll('e').select(withBasePayload('e')).orderBy('q.event_id').limit(limit);
}

export class WebhookRepository implements WebhookStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DatabaseCapabilities,
    private readonly secrets: SecretBox,
    /** Makes a request's idempotency claim write inside our transactions. */
    private readonly claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    /** Told after a commit that made deliveries due, so the delivery job wakes at once. */
    private readonly signals?: Pick<WorkSignals, 'notify'>,
  ) {}

  async insertEndpoint(endpoint: WebhookEndpoint, maxPerScope: number, claim?: ClaimWrite): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The claim first: when another request holds the key, nothing else is written.
      if (claim) await this.claims.writeIn(trx, claim);
      // Creations of one merchant queue on its row, so two at once cannot both take the last place.
      if (this.capabilities.rowLocks) await trx.selectFrom('merchants').select('id').where('id', '=', endpoint.merchantId).forUpdate().execute();
      const { count } = await this.scoped(trx, endpoint)
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxPerScope) {
        throw new AkweError('endpoint_limit_reached', `At most ${maxPerScope} webhook endpoints per merchant and environment; delete one first.`);
      }
      await trx.insertInto('webhook_endpoints').values(this.endpointToRow(endpoint)).execute();
    });
  }

  async findEndpoint(scope: TenantScope, id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.scoped(this.db, scope).where('id', '=', id).executeTakeFirst();
    return row && this.endpointFromRow(row);
  }

  async listEndpoints(scope: TenantScope): Promise<WebhookEndpoint[]> {
    return (await this.scoped(this.db, scope).orderBy('id').execute()).map((row) => this.endpointFromRow(row));
  }

  async pageEndpoints(scope: TenantScope, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    const endpoints = listRows(this.db.selectFrom('webhook_endpoints').selectAll(), { scope });
    return listPage({ all: endpoints, filtered: endpoints }, page, (row) => this.endpointFromRow(row));
  }

  async updateEndpoint(endpoint: WebhookEndpoint, claim?: ClaimWrite): Promise<void> {
    const { id, merchant_id, environment, created_at: _c, ...columns } = this.endpointToRow(endpoint);
    await this.db.transaction().execute(async (trx) => {
      // The claim first: when another request holds the key, nothing else is written.
      if (claim) await this.claims.writeIn(trx, claim);
      await trx.updateTable('webhook_endpoints').set(columns).where('id', '=', id).where('merchant_id', '=', merchant_id).where('environment', '=', environment).execute();
      // What still waits goes where the endpoint now points (a URL given up must not get its retries).
      await trx
        .updateTable('webhook_deliveries')
        .set({ target_url: endpoint.url, target_host: hostOf(endpoint.url) })
        .where('endpoint_id', '=', id)
        .where('status', 'in', waiting)
        .where('target_url', '<>', endpoint.url)
        .execute();
      // Disabled means nothing more is sent: what waits is cancelled, as on deletion.
      if (!endpoint.enabled) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'cancelled', last_error: 'endpoint disabled', updated_at: endpoint.updatedAt })
          .where('endpoint_id', '=', id)
          .where('status', 'in', waiting)
          .execute();
      }
    });
  }

  async deleteEndpoint(scope: TenantScope, id: string, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const found = await this.scoped(trx, scope).where('id', '=', id).executeTakeFirst();
      if (!found) return false;
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', last_error: 'endpoint deleted', updated_at: now })
        .where('endpoint_id', '=', id)
        .where('status', 'in', waiting)
        .execute();
      // Deliveries keep their history (destination still names the endpoint) once it is gone.
      await trx.updateTable('webhook_deliveries').set({ endpoint_id: null }).where('endpoint_id', '=', id).execute();
      await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
      return true;
    });
  }

  private async endpointEnabled(trx: Transaction<Database>, id: string): Promise<boolean> {
    const row = await trx.selectFrom('webhook_endpoints').select('enabled').where('id', '=', id).executeTakeFirst();
    return row !== undefined && row.enabled === 1;
  }

  async findEndpointById(id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.endpointFromRow(row);
  }

  async listAllEndpoints(filter: { merchantId?: string; environment?: string }): Promise<WebhookEndpoint[]> {
    let query = this.db.selectFrom('webhook_endpoints').selectAll().orderBy('id');
    if (filter.merchantId) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.environment) query = query.where('environment', '=', filter.environment);
    return (await query.execute()).map((row) => this.endpointFromRow(row));
  }

  async callbackSecret(scope: TenantScope, create: () => string, now: string): Promise<string> {
    const find = () =>
      this.db.selectFrom('callback_secrets').select('secret_encrypted').where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment).executeTakeFirst();
    const existing = await find();
    if (existing) return this.secrets.open(existing.secret_encrypted);
    // Two first calls at once: the primary key keeps one secret, and both read that one back.
    await this.db
      .insertInto('callback_secrets')
      .values({ merchant_id: scope.merchantId, environment: scope.environment, secret_encrypted: this.secrets.seal(create()), created_at: now })
      .onConflict((oc) => oc.columns(['merchant_id', 'environment']).doNothing())
      .execute();
    return this.secrets.open((await find())!.secret_encrypted);
  }

  async fanOut(limit: number, now: string, plan: (event: StoredEvent, endpoints: WebhookEndpoint[]) => NewDelivery[], newId: () => string): Promise<number> {
    let planned = 0;
    const events = await this.db.transaction().execute(async (trx) => {
      let query = unfannedEventsQuery(trx, limit);
      // The queue rows are what a pass takes; the events themselves are not locked.
      if (this.capabilities.skipLocked) query = query.forUpdate(['q']).skipLocked();
      const rows = await query.execute();
      // A batch holds many events of few tenants: their enabled endpoints in one read per pass.
      const tenantKey = (scope: TenantScope) => `${scope.merchantId} ${scope.environment}`;
      const endpointsByTenant = new Map<string, WebhookEndpoint[]>();
      const merchants = [...new Set(rows.map((row) => row.merchant_id))];
      const endpointRows =
        merchants.length === 0 ? [] : await trx.selectFrom('webhook_endpoints').selectAll().where('merchant_id', 'in', merchants).where('enabled', '=', 1).orderBy('id').execute();
      for (const endpointRow of endpointRows) {
        const endpoint = this.endpointFromRow(endpointRow);
        const key = tenantKey(endpoint);
        const tenantEndpoints = endpointsByTenant.get(key);
        if (tenantEndpoints) tenantEndpoints.push(endpoint);
        else endpointsByTenant.set(key, [endpoint]);
      }
      const enabledEndpoints = (scope: TenantScope): WebhookEndpoint[] => endpointsByTenant.get(tenantKey(scope)) ?? [];
      const deliveryRows: Selectable<WebhookDeliveryTable>[] = [];
      for (const row of rows) {
        const event = eventFromRow(row);
        for (const delivery of plan(event, enabledEndpoints(event))) deliveryRows.push(this.newDeliveryRow(event, delivery, now, newId()));
      }
      planned = deliveryRows.length;
      // The pass's deliveries in a few multi-row inserts, not one per event (a round trip each on PostgreSQL).
      for (let start = 0; start < deliveryRows.length; start += DELIVERY_ROWS_PER_INSERT) {
        await trx
          .insertInto('webhook_deliveries')
          .values(deliveryRows.slice(start, start + DELIVERY_ROWS_PER_INSERT))
          .onConflict((oc) => oc.columns(['event_id', 'destination']).doNothing())
          .execute();
      }
      // One statement for the whole batch (a few hundred ids at most, well within both databases' limits).
      if (rows.length > 0) {
        await trx
          .deleteFrom('event_fanout_queue')
          .where(
            'event_id',
            'in',
            rows.map((row) => row.id),
          )
          .execute();
      }
      // Where a worker's transaction waits for ours (signalsBeforeCommit), the delivery job need
      // not wait for this commit's sync to learn of the deliveries.
      if (planned > 0 && this.capabilities.signalsBeforeCommit) this.signals?.notify('deliveries');
      return rows.length;
    });
    if (planned > 0 && !this.capabilities.signalsBeforeCommit) this.signals?.notify('deliveries');
    return events;
  }

  claimDue(options: ClaimOptions): Promise<WebhookDelivery[]> {
    // PostgreSQL: two reads and one conditional UPDATE, no transaction around them (see claimIn).
    // SQLite: reads outside a transaction would wait for a sync; inside one they see the batch.
    return this.capabilities.concurrentWriters ? this.claimIn(this.db, options) : this.db.transaction().execute((trx) => this.claimIn(trx, options));
  }

  async claimForSending(options: ClaimOptions): Promise<ClaimedForSending> {
    if (this.capabilities.concurrentWriters) {
      // A server apart: the read runs beside the next pass.
      const claimed = await this.claimDue(options);
      return { claimed, loading: this.loadForSending(claimed) };
    }
    // One writer in this process: the read inside the claim's transaction costs nothing more,
    // while a read after it would wait for a sync of its own (reads outside a transaction wait
    // until what they saw is durable, and other commits keep coming).
    return this.db.transaction().execute(async (trx) => {
      const claimed = await this.claimIn(trx, options);
      return { claimed, loading: Promise.resolve(await this.loadIn(trx, claimed)) };
    });
  }

  /**
   * Three statements: what is in flight, the due candidates (each waiting status and the expired
   * leases, read in index order, one UNION ALL), and one UPDATE of the chosen rows that checks
   * again that each is still due. Nothing is locked before that UPDATE: a row another process
   * claimed meanwhile fails the check (PostgreSQL re-reads a row it waited for), so it is never
   * claimed twice, and no candidate the budgets leave out is locked or written.
   */
  private async claimIn(db: Kysely<Database>, options: ClaimOptions): Promise<WebhookDelivery[]> {
    const { now, limit, leaseUntil, claimToken, budgets } = options;
    const streamCap = options.streamCap ?? (() => Number.POSITIVE_INFINITY);
    const slotsOf = db
      .selectFrom('webhook_deliveries as d')
      .leftJoin('webhook_endpoints as e', 'e.id', 'd.destination')
      .select(['d.id', 'd.stream', 'd.merchant_id', 'd.target_host', 'd.subject_reference', 'd.next_attempt_at', 'e.max_in_flight']);
    // What is in flight now, in every process (live leases), counts against the budgets.
    const answered = options.answered;
    const leased = await slotsOf.where('d.status', '=', 'delivering').where('d.locked_until', '>', now).execute();
    const inFlight = (answered && answered.size > 0 ? leased.filter((row) => !answered.has(row.id)) : leased).map(slotOf);
    const counts = new InFlightCounts(inFlight);
    const full = saturation(counts, inFlight, budgets, streamCap);
    const excludedStreams = [...full.streams, ...(options.pausedStreams ?? [])];

    // Each waiting status, and the claims whose lease ran out (a worker that died mid-delivery),
    // read in index order and merged: no sort of the whole backlog on every pass. Only what the
    // budgets need is read: most of the window is not chosen (docs/performance.md "Webhook claims").
    const window = limit * 4;
    const due = (status: DeliveryStatus) => {
      let query = slotsOf.where('d.status', '=', status);
      query = status === 'delivering' ? query.where('d.locked_until', '<=', now) : query.where('d.next_attempt_at', '<=', now).orderBy('d.next_attempt_at').orderBy('d.id');
      // A backlog that cannot be sent now must not fill the window and hide everyone else's work.
      if (excludedStreams.length > 0) query = query.where('d.stream', 'not in', excludedStreams);
      if (full.merchants.size > 0) query = query.where('d.merchant_id', 'not in', [...full.merchants]);
      if (full.hosts.size > 0) query = query.where('d.target_host', 'not in', [...full.hosts]);
      return db.selectFrom(query.limit(window).as(`due_${status}`)).selectAll();
    };
    const rows = await due('pending').unionAll(due('retrying')).unionAll(due('delivering')).execute();
    rows.sort((a, b) => (a.next_attempt_at === b.next_attempt_at ? (a.id < b.id ? -1 : 1) : a.next_attempt_at < b.next_attempt_at ? -1 : 1));
    const candidates = rows.slice(0, window);
    if (candidates.length === 0) return [];

    const chosenIds = chooseDeliveries(candidates.map(slotOf), counts, limit, budgets, streamCap);
    if (chosenIds.length === 0) return [];
    const claimed = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivering', locked_until: leaseUntil, claim_token: claimToken, updated_at: now })
      .where('id', 'in', chosenIds)
      .where((eb) => eb.or([eb.and([eb('status', 'in', waiting), eb('next_attempt_at', '<=', now)]), eb.and([eb('status', '=', 'delivering'), eb('locked_until', '<=', now)])]))
      .returningAll()
      .execute();
    // In the order chosen (oldest due first), whatever order the database returns them in.
    const byId = new Map(claimed.map((row) => [row.id, deliveryFromRow(row)]));
    return chosenIds.flatMap((id) => byId.get(id) ?? []);
  }

  loadForSending(deliveries: readonly WebhookDelivery[]): Promise<Map<string, SendingContext>> {
    return this.loadIn(this.db, deliveries);
  }

  private async loadIn(db: Kysely<Database>, deliveries: readonly WebhookDelivery[]): Promise<Map<string, SendingContext>> {
    const loaded = new Map<string, SendingContext>();
    if (deliveries.length === 0) return loaded;
    // One read of the events and one of the endpoints for a whole claim, not two per delivery.
    const eventIds = [...new Set(deliveries.map((d) => d.eventId))];
    const endpointIds = [...new Set(deliveries.map((d) => d.destination).filter((d) => d !== CALLBACK_DESTINATION))];
    // Both reads at once: on SQLite each read outside a transaction waits for the sync that makes
    // what it saw durable, and two in a row would wait for two.
    const [eventRows, endpointRows] = await Promise.all([
      db.selectFrom('events').selectAll().select(withBasePayload('events')).where('id', 'in', eventIds).execute(),
      endpointIds.length === 0 ? [] : db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', endpointIds).execute(),
    ]);
    const events = new Map(eventRows.map((row) => [row.id, eventFromRow(row)]));
    const endpoints = new Map(endpointRows.map((row) => [row.id, this.endpointFromRow(row)]));
    for (const delivery of deliveries) {
      const event = events.get(delivery.eventId);
      if (event) loaded.set(delivery.id, { event, endpoint: endpoints.get(delivery.destination) });
    }
    return loaded;
  }

  async recordTries(tries: readonly TryResult[]): Promise<boolean[]> {
    if (tries.length === 0) return [];
    // Many results, one commit: the attempt rows and status changes of a batch land together, the
    // status changes as one statement (one round trip on PostgreSQL, not one per try).
    return this.db.transaction().execute(async (trx) => {
      const ours = new Set<string>();
      for (let start = 0; start < tries.length; start += TRIES_PER_STATEMENT) {
        for (const id of await recordTryUpdates(trx, tries.slice(start, start + TRIES_PER_STATEMENT))) ours.add(id);
      }
      // Our lease ran out and another worker took the delivery over: its result is the one that counts.
      const recorded = tries.map(({ delivery }) => ours.has(delivery.id));
      const attempts: Selectable<WebhookAttemptTable>[] = [];
      for (const [index, { delivery, attempt, update, disableEndpoint }] of tries.entries()) {
        if (!recorded[index]) continue;
        attempts.push({
          id: attempt.id,
          delivery_id: attempt.deliveryId,
          attempt_number: attempt.attemptNumber,
          attempted_at: attempt.attemptedAt,
          status_code: attempt.statusCode,
          duration_ms: attempt.durationMs,
          response_excerpt: attempt.responseExcerpt,
          error: attempt.error,
        });
        // Deleted (or disabled) while this try was in flight: the try is recorded, no retry follows.
        if (update.status === 'retrying' && delivery.destination !== CALLBACK_DESTINATION && !(await this.endpointEnabled(trx, delivery.destination))) {
          await trx.updateTable('webhook_deliveries').set({ status: 'cancelled', last_error: 'endpoint deleted or disabled' }).where('id', '=', delivery.id).execute();
        }
        if (disableEndpoint && delivery.endpointId) {
          await trx
            .updateTable('webhook_endpoints')
            .set({ enabled: 0, disabled_reason: disableEndpoint.reason, updated_at: attempt.attemptedAt })
            .where('id', '=', delivery.endpointId)
            .execute();
          await trx
            .updateTable('webhook_deliveries')
            .set({ status: 'cancelled', last_error: disableEndpoint.reason, updated_at: attempt.attemptedAt })
            .where('endpoint_id', '=', delivery.endpointId)
            .where('status', 'in', waiting)
            .execute();
        }
      }
      if (attempts.length > 0) await trx.insertInto('webhook_attempts').values(attempts).execute();
      return recorded;
    });
  }

  async resend(
    event: StoredEvent,
    targets: NewDelivery[],
    now: string,
    newId: () => string,
    claimFor?: (deliveries: WebhookDelivery[]) => ClaimWrite | undefined,
  ): Promise<WebhookDelivery[]> {
    const resent = await this.db.transaction().execute(async (trx) => {
      const ids: string[] = [];
      for (const target of targets) {
        const existing = await trx
          .selectFrom('webhook_deliveries')
          .select(['id', 'status'])
          .where('event_id', '=', event.id)
          .where('destination', '=', target.destination)
          .executeTakeFirst();
        if (!existing) {
          const row = this.newDeliveryRow(event, target, now, newId());
          await trx.insertInto('webhook_deliveries').values(row).execute();
          ids.push(row.id);
        } else {
          // A delivery in flight is left to finish; any other starts again from the first try.
          if (existing.status !== 'delivering') {
            await trx
              .updateTable('webhook_deliveries')
              .set({ status: 'pending', attempts: 0, next_attempt_at: now, target_url: target.targetUrl, api_version: target.apiVersion, succeeded_at: null, updated_at: now })
              .where('id', '=', existing.id)
              .execute();
          }
          ids.push(existing.id);
        }
      }
      const deliveries = ids.length === 0 ? [] : (await trx.selectFrom('webhook_deliveries').selectAll().where('id', 'in', ids).orderBy('id').execute()).map(deliveryFromRow);
      const claim = claimFor?.(deliveries);
      if (claim) await this.claims.writeIn(trx, claim);
      return deliveries;
    });
    this.signals?.notify('deliveries');
    return resent;
  }

  async listDeliveries(scope: TenantScope, endpointId: string, page: PageRequest): Promise<Page<WebhookDelivery & { attemptsLog: DeliveryAttempt[] }>> {
    const endpointDeliveries = listRows(this.db.selectFrom('webhook_deliveries').selectAll().where('destination', '=', endpointId), { scope });
    const deliveries = await listPage({ all: endpointDeliveries, filtered: endpointDeliveries }, page, deliveryFromRow);
    const ids = deliveries.data.map((d) => d.id);
    const attempts = ids.length === 0 ? [] : (await this.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', ids).orderBy('id').execute()).map(attemptFromRow);
    return mapPage(deliveries, (delivery) => ({ ...delivery, attemptsLog: attempts.filter((a) => a.deliveryId === delivery.id) }));
  }

  async deliveriesOfEvent(scope: TenantScope, eventId: string): Promise<(WebhookDelivery & { attemptsLog: DeliveryAttempt[] })[]> {
    const rows = await listRows(this.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId), { scope })
      .query.orderBy('id')
      .execute();
    const deliveries = rows.map(deliveryFromRow);
    const ids = deliveries.map((d) => d.id);
    const attempts = ids.length === 0 ? [] : (await this.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', ids).orderBy('id').execute()).map(attemptFromRow);
    return deliveries.map((delivery) => ({ ...delivery, attemptsLog: attempts.filter((a) => a.deliveryId === delivery.id) }));
  }

  async listEvents(scope: TenantScope, filters: EventFilters, page: PageRequest): Promise<Page<StoredEvent>> {
    return listPage({ all: eventListRows(this.db, scope, {}), filtered: eventListRows(this.db, scope, filters) }, page, eventFromRow);
  }

  async eventsAfter(scope: TenantScope, afterId: string, limit: number): Promise<StoredEvent[]> {
    // Served by the events_scope_id index: (merchant, environment, id).
    const rows = await scopedEvents(this.db, scope).where('id', '>', afterId).orderBy('id', 'asc').limit(limit).execute();
    return rows.map(eventFromRow);
  }

  async eventIdsAfter(scope: TenantScope, afterId: string, limit: number): Promise<string[]> {
    // Only columns of the events_scope_id index: read from the index alone.
    const rows = await this.db
      .selectFrom('events')
      .select('id')
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .where('id', '>', afterId)
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  async eventsWithIds(scope: TenantScope, ids: string[]): Promise<StoredEvent[]> {
    if (ids.length === 0) return [];
    const rows = await scopedEvents(this.db, scope).where('id', 'in', ids).orderBy('id', 'asc').execute();
    return rows.map(eventFromRow);
  }

  private scoped(db: Kysely<Database> | Transaction<Database>, scope: TenantScope) {
    return db.selectFrom('webhook_endpoints').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
  }

  private newDeliveryRow(event: StoredEvent, target: NewDelivery, now: string, id: string): Selectable<WebhookDeliveryTable> {
    return {
      id,
      event_id: event.id,
      destination: target.destination,
      endpoint_id: target.endpointId,
      target_url: target.targetUrl,
      stream: streamOf(target.destination, target.targetUrl, CALLBACK_DESTINATION),
      target_host: hostOf(target.targetUrl),
      subject_reference: subjectReference(event.subject),
      merchant_id: event.merchantId,
      environment: event.environment,
      api_version: target.apiVersion,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      claim_token: null,
      last_status_code: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      succeeded_at: null,
    };
  }

  private endpointFromRow(row: Selectable<WebhookEndpointTable>): WebhookEndpoint {
    return {
      id: row.id,
      merchantId: row.merchant_id,
      environment: row.environment as Environment,
      url: row.url,
      description: row.description,
      enabled: row.enabled === 1,
      eventTypes: JSON.parse(row.event_types) as string[],
      apiVersion: row.api_version as WebhookApiVersion,
      secret: this.secrets.open(row.secret_encrypted),
      previousSecret: row.previous_secret_encrypted ? this.secrets.open(row.previous_secret_encrypted) : null,
      previousSecretExpiresAt: row.previous_secret_expires_at,
      disabledReason: row.disabled_reason,
      maxInFlight: row.max_in_flight,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private endpointToRow(endpoint: WebhookEndpoint): Selectable<WebhookEndpointTable> {
    return {
      id: endpoint.id,
      merchant_id: endpoint.merchantId,
      environment: endpoint.environment,
      url: endpoint.url,
      description: endpoint.description,
      enabled: endpoint.enabled ? 1 : 0,
      event_types: JSON.stringify(endpoint.eventTypes),
      api_version: endpoint.apiVersion,
      secret_encrypted: this.secrets.seal(endpoint.secret),
      previous_secret_encrypted: endpoint.previousSecret ? this.secrets.seal(endpoint.previousSecret) : null,
      previous_secret_expires_at: endpoint.previousSecretExpiresAt,
      disabled_reason: endpoint.disabledReason,
      max_in_flight: endpoint.maxInFlight,
      created_at: endpoint.createdAt,
      updated_at: endpoint.updatedAt,
    };
  }
}
