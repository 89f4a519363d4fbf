import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import type {
  ClaimResult,
  ClaimWrite,
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotencyScope,
  IdempotencyState,
  IdempotencyStore,
  RecoveryPoint,
  StoredResponse,
} from '../../core/idempotency/idempotency-store.js';
import { IdempotencyClaimLost } from '../../core/idempotency/request-journal.js';
import type { Environment } from '../../core/shared/environment.js';
import { ResponseSealing } from '../sealed-responses.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Database, IdempotencyRecordTable } from '../schema.js';
import { quote, type OneStatement } from '../postgres/one-statement.js';

/** A claim that keeps meeting a record that vanishes or expires gives up after this many tries. */
const MAX_CLAIM_ATTEMPTS = 5;

const PRIMARY_KEY = ['merchant_id', 'environment', 'method', 'route', 'idempotency_key'] as const;

/**
 * Idempotency records in `idempotency_records`, the same statements on SQLite and PostgreSQL.
 * A claim is an INSERT … ON CONFLICT DO NOTHING on the primary key: the database, never a
 * read-then-write in memory, decides which of two simultaneous requests owns the key.
 */
export class IdempotencyRepository implements IdempotencyStore {
  // Every creation claims and completes a key: these two are built once.
  private readonly insertClaim;
  private readonly completeClaim;

  private readonly writes: ClaimWrites;
  private readonly byKey;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sealing: ResponseSealing = new ResponseSealing(),
  ) {
    this.writes = new ClaimWrites(db, sealing);
    this.byKey = new PreparedQuery(db, (db, merchantId: string, environment: string, method: string, route: string, key: string, now: string) =>
      db
        .selectFrom('idempotency_records')
        .selectAll()
        .where((eb) => isRecord(eb, { merchantId, environment: environment as Environment, method, route, key }))
        .where('expires_at', '>', now),
    );
    this.insertClaim = new PreparedQuery(
      db,
      (
        db,
        merchantId: string,
        environment: string,
        method: string,
        route: string,
        key: string,
        requestHash: string,
        now: string,
        expiresAt: string,
        leaseToken: string,
        lockedUntil: string,
      ) =>
        db
          .insertInto('idempotency_records')
          .values({
            merchant_id: merchantId,
            environment,
            method,
            route,
            idempotency_key: key,
            request_hash: requestHash,
            state: 'in_progress' satisfies IdempotencyState,
            response_status: null,
            response_body: null,
            created_at: now,
            expires_at: expiresAt,
            lease_token: leaseToken,
            locked_until: lockedUntil,
          })
          .onConflict((conflict) => conflict.columns([...PRIMARY_KEY]).doNothing())
          .returningAll(),
    );
    this.completeClaim = new PreparedQuery(
      db,
      (db, merchantId: string, environment: Environment, method: string, route: string, key: string, createdAt: string, leaseToken: string, status: number, body: string) =>
        db
          .updateTable('idempotency_records')
          .set({ state: 'completed' satisfies IdempotencyState, response_status: status, response_body: body })
          .where((eb) => isClaim(eb, { merchantId, environment, method, route, key, createdAt }))
          // A holder whose claim was taken over after its lease writes nothing.
          .where('lease_token', '=', leaseToken),
    );
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const { merchantId, environment, method, route, key, requestHash, now, expiresAt, leaseToken, lockedUntil } = claim;
      const inserted = await this.insertClaim.first(this.db, merchantId, environment, method, route, key, requestHash, now, expiresAt, leaseToken, lockedUntil);
      if (inserted) return { outcome: 'claimed', record: recordFromRow(inserted, this.sealing) };

      const existing = await this.db
        .selectFrom('idempotency_records')
        .selectAll()
        .where((eb) => isRecord(eb, claim))
        .executeTakeFirst();
      // Released or purged between the insert and this read: the key is free again.
      if (!existing) continue;
      if (existing.expires_at > claim.now) return { outcome: 'existing', record: recordFromRow(existing, this.sealing) };
      // Expired: it no longer counts. Delete that version only (another request may replace it
      // first; the conditions make this delete a no-op then) and claim again.
      await this.db
        .deleteFrom('idempotency_records')
        .where((eb) => isRecord(eb, claim))
        .where('created_at', '=', existing.created_at)
        .where('expires_at', '<=', claim.now)
        .execute();
    }
    return { outcome: 'contended' };
  }

  async find(scope: IdempotencyScope, now: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.byKey.first(this.db, scope.merchantId, scope.environment, scope.method, scope.route, scope.key, now);
    return row && recordFromRow(row, this.sealing);
  }

  async takeOver(record: IdempotencyRecord, leaseToken: string, lockedUntil: string, now: string): Promise<IdempotencyRecord | undefined> {
    let query = this.db
      .updateTable('idempotency_records')
      .set({ lease_token: leaseToken, locked_until: lockedUntil })
      .where((eb) => isRecord(eb, record))
      .where('created_at', '=', record.createdAt)
      .where('state', '=', 'in_progress' satisfies IdempotencyState)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]));
    query = record.leaseToken === null ? query.where('lease_token', 'is', null) : query.where('lease_token', '=', record.leaseToken);
    const row = await query.returningAll().executeTakeFirst();
    return row && recordFromRow(row, this.sealing);
  }

  async write(write: ClaimWrite): Promise<void> {
    await this.writes.apply(this.db, write);
  }

  /** The same write inside a caller's transaction (a phase of a payment or refund). */
  writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> {
    return this.writes.apply(executor, write);
  }

  /**
   * The same write as the gate `gate` of a one-statement phase (PostgreSQL): it returns one row when
   * it wrote; none means another request holds the key (IdempotencyClaimLost, as `writeIn` throws).
   */
  addTo(statement: OneStatement, gate: string, write: ClaimWrite): void {
    this.writes.addTo(statement, gate, write);
  }

  /** The record a write leaves, every column (a row of PostgreSQL's outcome statement). */
  recordRow(write: ClaimWrite) {
    return this.writes.recordRow(write);
  }

  async endLease(scope: IdempotencyScope, leaseToken: string, now: string): Promise<void> {
    await this.db
      .updateTable('idempotency_records')
      .set({ locked_until: now })
      .where((eb) => isRecord(eb, scope))
      .where('lease_token', '=', leaseToken)
      .where('state', '=', 'in_progress' satisfies IdempotencyState)
      .execute();
  }

  async complete(record: IdempotencyRecord, response: StoredResponse): Promise<boolean> {
    const { merchantId, environment, method, route, key, createdAt, leaseToken } = record;
    const result = await this.completeClaim.execute(
      this.db,
      merchantId,
      environment,
      method,
      route,
      key,
      createdAt,
      leaseToken ?? '',
      response.status,
      this.sealing.toColumn(response)!,
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async release(record: IdempotencyRecord): Promise<boolean> {
    const result = await this.db
      .deleteFrom('idempotency_records')
      .where((eb) => isClaim(eb, record))
      .where('lease_token', '=', record.leaseToken ?? '')
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async purgeExpired(now: string, limit: number): Promise<number> {
    if (!Number.isInteger(limit) || limit <= 0) throw new RangeError(`purgeExpired: limit must be a positive integer, got ${limit}`);
    // PostgreSQL has no DELETE … LIMIT: the batch is chosen by primary key in a subquery
    // (row values work on both dialects), and the outer condition re-checks expiry.
    const batch = this.db
      .selectFrom('idempotency_records')
      .select([...PRIMARY_KEY])
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .$asTuple(...PRIMARY_KEY);
    const result = await this.db
      .deleteFrom('idempotency_records')
      .where((eb) => eb(eb.refTuple(...PRIMARY_KEY), 'in', batch))
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

type RecordsBuilder = ExpressionBuilder<Database, 'idempotency_records'>;

/** One record, by primary key. */
function isRecord(eb: RecordsBuilder, scope: IdempotencyScope): Expression<SqlBool> {
  return eb.and([
    eb('merchant_id', '=', scope.merchantId),
    eb('environment', '=', scope.environment),
    eb('method', '=', scope.method),
    eb('route', '=', scope.route),
    eb('idempotency_key', '=', scope.key),
  ]);
}

/** This very claim, still in progress: not a later claim of the same key after expiry. */
function isClaim(eb: RecordsBuilder, record: IdempotencyScope & Pick<IdempotencyRecord, 'createdAt'>): Expression<SqlBool> {
  return eb.and([isRecord(eb, record), eb('state', '=', 'in_progress' satisfies IdempotencyState), eb('created_at', '=', record.createdAt)]);
}

function recordFromRow(row: Selectable<IdempotencyRecordTable>, sealing: ResponseSealing): IdempotencyRecord {
  return {
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    method: row.method,
    route: row.route,
    key: row.idempotency_key,
    requestHash: row.request_hash,
    state: row.state as IdempotencyState,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    responseBody: sealing.fromColumn(row.response_body),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    leaseToken: row.lease_token,
    lockedUntil: row.locked_until,
    recoveryPoint: row.recovery_point as RecoveryPoint,
    resourceId: row.resource_id,
  };
}

/**
 * The claim writes of recorded phases, compiled once (every payment creation makes two). A first
 * claim is an INSERT that may replace only a record whose window has passed; a later write is an
 * UPDATE guarded by the lease token. No row written means another request holds the key.
 */
class ClaimWrites {
  private readonly insert;
  private readonly update;

  constructor(
    db: Kysely<Database>,
    private readonly sealing: ResponseSealing,
  ) {
    this.insert = new PreparedQuery(
      db,
      (
        db,
        merchantId: string,
        environment: string,
        method: string,
        route: string,
        key: string,
        requestHash: string,
        state: string,
        responseStatus: number | null,
        responseBody: string | null,
        now: string,
        expiresAt: string,
        leaseToken: string,
        lockedUntil: string,
        recoveryPoint: string,
        resourceId: string | null,
      ) =>
        db
          .insertInto('idempotency_records')
          .values({
            merchant_id: merchantId,
            environment,
            method,
            route,
            idempotency_key: key,
            request_hash: requestHash,
            state,
            response_status: responseStatus,
            response_body: responseBody,
            created_at: now,
            expires_at: expiresAt,
            lease_token: leaseToken,
            locked_until: lockedUntil,
            recovery_point: recoveryPoint,
            resource_id: resourceId,
          })
          .onConflict((conflict) =>
            conflict
              .columns([...PRIMARY_KEY])
              .doUpdateSet((eb) => ({
                request_hash: eb.ref('excluded.request_hash'),
                state: eb.ref('excluded.state'),
                response_status: eb.ref('excluded.response_status'),
                response_body: eb.ref('excluded.response_body'),
                created_at: eb.ref('excluded.created_at'),
                expires_at: eb.ref('excluded.expires_at'),
                lease_token: eb.ref('excluded.lease_token'),
                locked_until: eb.ref('excluded.locked_until'),
                recovery_point: eb.ref('excluded.recovery_point'),
                resource_id: eb.ref('excluded.resource_id'),
              }))
              // Only a record whose 24-hour window has passed may be replaced.
              .where('idempotency_records.expires_at', '<=', now),
          )
          .returning('created_at'),
    );
    this.update = new PreparedQuery(
      db,
      (
        db,
        merchantId: string,
        environment: string,
        method: string,
        route: string,
        key: string,
        leaseToken: string,
        state: string,
        responseStatus: number | null,
        responseBody: string | null,
        recoveryPoint: string,
        resourceId: string | null,
      ) =>
        db
          .updateTable('idempotency_records')
          .set({ state, response_status: responseStatus, response_body: responseBody, recovery_point: recoveryPoint, resource_id: resourceId })
          .where((eb) => isRecord(eb, { merchantId, environment: environment as Environment, method, route, key }))
          .where('lease_token', '=', leaseToken)
          .where('state', '=', 'in_progress' satisfies IdempotencyState),
    );
  }

  /** The record a write leaves (every column), for the one-statement phases of PostgreSQL. */
  recordRow({ claim, recoveryPoint, resourceId, response }: ClaimWrite) {
    return {
      merchant_id: claim.merchantId,
      environment: claim.environment,
      method: claim.method,
      route: claim.route,
      idempotency_key: claim.key,
      request_hash: claim.requestHash,
      state: (response ? 'completed' : 'in_progress') satisfies IdempotencyState,
      response_status: response?.status ?? null,
      response_body: this.sealing.toColumn(response),
      created_at: claim.now,
      expires_at: claim.expiresAt,
      lease_token: claim.leaseToken,
      locked_until: claim.lockedUntil,
      recovery_point: recoveryPoint,
      resource_id: resourceId,
    };
  }

  /** `apply` as a gate of a one-statement phase: the same insert or update, with the same conditions. */
  addTo(statement: OneStatement, gate: string, write: ClaimWrite): void {
    const { claim } = write;
    const p = (value: unknown) => statement.param(value);
    const row = this.recordRow(write);
    if (write.insert) {
      const replaced = Object.keys(row).filter((column) => !(PRIMARY_KEY as readonly string[]).includes(column));
      const body =
        statement.insertRow('idempotency_records', row) +
        ` on conflict (${PRIMARY_KEY.map(quote).join(', ')}) do update set ${replaced.map((column) => `${quote(column)} = excluded.${quote(column)}`).join(', ')}` +
        // Only a record whose 24-hour window has passed may be replaced.
        ` where "idempotency_records"."expires_at" <= ${p(claim.now)} returning 1`;
      statement.add(gate, body, { gate: true });
      return;
    }
    const body =
      `update "idempotency_records" set "state" = ${p(row.state)}, "response_status" = ${p(row.response_status)}, "response_body" = ${p(row.response_body)}, ` +
      `"recovery_point" = ${p(row.recovery_point)}, "resource_id" = ${p(row.resource_id)} ` +
      `where "merchant_id" = ${p(claim.merchantId)} and "environment" = ${p(claim.environment)} and "method" = ${p(claim.method)} and "route" = ${p(claim.route)} ` +
      `and "idempotency_key" = ${p(claim.key)} and "lease_token" = ${p(claim.leaseToken)} and "state" = 'in_progress' and ${statement.guard} returning 1`;
    statement.add(gate, body, { gate: true });
  }

  async apply(executor: Kysely<Database>, { claim, insert, recoveryPoint, resourceId, response }: ClaimWrite): Promise<void> {
    const state: IdempotencyState = response ? 'completed' : 'in_progress';
    const status = response?.status ?? null;
    const body = this.sealing.toColumn(response);
    const { merchantId, environment, method, route, key } = claim;
    if (insert) {
      const row = await this.insert.first(
        executor,
        merchantId,
        environment,
        method,
        route,
        key,
        claim.requestHash,
        state,
        status,
        body,
        claim.now,
        claim.expiresAt,
        claim.leaseToken,
        claim.lockedUntil,
        recoveryPoint,
        resourceId,
      );
      if (!row) throw new IdempotencyClaimLost();
      return;
    }
    const result = await this.update.execute(executor, merchantId, environment, method, route, key, claim.leaseToken, state, status, body, recoveryPoint, resourceId);
    if (Number(result.numAffectedRows ?? 0) !== 1) throw new IdempotencyClaimLost();
  }
}
