import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import type {
  ClaimResult,
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotencyScope,
  IdempotencyState,
  IdempotencyStore,
} from '../../core/idempotency/idempotency-store.js';
import type { Environment } from '../../core/shared/environment.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Database, IdempotencyRecordTable } from '../schema.js';

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

  constructor(private readonly db: Kysely<Database>) {
    this.insertClaim = new PreparedQuery(
      db,
      (db, merchantId: string, environment: string, method: string, route: string, key: string, requestHash: string, now: string, expiresAt: string) =>
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
          })
          .onConflict((conflict) => conflict.columns([...PRIMARY_KEY]).doNothing())
          .returningAll(),
    );
    this.completeClaim = new PreparedQuery(
      db,
      (db, merchantId: string, environment: Environment, method: string, route: string, key: string, createdAt: string, status: number, body: string) =>
        db
          .updateTable('idempotency_records')
          .set({ state: 'completed' satisfies IdempotencyState, response_status: status, response_body: body })
          .where((eb) => isClaim(eb, { merchantId, environment, method, route, key, createdAt })),
    );
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const { merchantId, environment, method, route, key, requestHash, now, expiresAt } = claim;
      const inserted = await this.insertClaim.first(this.db, merchantId, environment, method, route, key, requestHash, now, expiresAt);
      if (inserted) return { outcome: 'claimed', record: recordFromRow(inserted) };

      const existing = await this.db
        .selectFrom('idempotency_records')
        .selectAll()
        .where((eb) => isRecord(eb, claim))
        .executeTakeFirst();
      // Released or purged between the insert and this read: the key is free again.
      if (!existing) continue;
      if (existing.expires_at > claim.now) return { outcome: 'existing', record: recordFromRow(existing) };
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

  async complete(record: IdempotencyRecord, response: { status: number; body: string }): Promise<boolean> {
    const { merchantId, environment, method, route, key, createdAt } = record;
    const result = await this.completeClaim.execute(this.db, merchantId, environment, method, route, key, createdAt, response.status, response.body);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async release(record: IdempotencyRecord): Promise<boolean> {
    const result = await this.db
      .deleteFrom('idempotency_records')
      .where((eb) => isClaim(eb, record))
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

function recordFromRow(row: Selectable<IdempotencyRecordTable>): IdempotencyRecord {
  return {
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    method: row.method,
    route: row.route,
    key: row.idempotency_key,
    requestHash: row.request_hash,
    state: row.state as IdempotencyState,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    responseBody: row.response_body,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
