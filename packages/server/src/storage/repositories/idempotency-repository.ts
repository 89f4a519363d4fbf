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
  constructor(private readonly db: Kysely<Database>) {}

  async claim(claim: IdempotencyClaim): Promise<ClaimResult> {
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const inserted = await this.db
        .insertInto('idempotency_records')
        .values({
          merchant_id: claim.merchantId,
          environment: claim.environment,
          method: claim.method,
          route: claim.route,
          idempotency_key: claim.key,
          request_hash: claim.requestHash,
          state: 'in_progress' satisfies IdempotencyState,
          response_status: null,
          response_body: null,
          created_at: claim.now,
          expires_at: claim.expiresAt,
        })
        .onConflict((conflict) => conflict.columns([...PRIMARY_KEY]).doNothing())
        .returningAll()
        .executeTakeFirst();
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
    const result = await this.db
      .updateTable('idempotency_records')
      .set({ state: 'completed' satisfies IdempotencyState, response_status: response.status, response_body: response.body })
      .where((eb) => isClaim(eb, record))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
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
function isClaim(eb: RecordsBuilder, record: IdempotencyRecord): Expression<SqlBool> {
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
