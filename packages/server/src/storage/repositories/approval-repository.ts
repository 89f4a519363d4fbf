import type { ExpressionBuilder, Kysely, Selectable, Updateable } from 'kysely';
import type { ApprovalKind, ApprovalRequest, ApprovalRequestBody, ApprovalStatus, ApprovalStore, ApprovalThreshold, StoredApprovalStatus } from '../../core/approvals/approval.js';
import type { Environment } from '../../core/shared/environment.js';
import type { ApprovalRequestTable, Database } from '../schema.js';

const fromRow = (row: Selectable<ApprovalRequestTable>): ApprovalRequest => ({
  id: row.id,
  merchantId: row.merchant_id,
  environment: row.environment as Environment,
  kind: row.kind as ApprovalKind,
  request: JSON.parse(row.request) as ApprovalRequestBody,
  amountMinor: Number(row.amount_minor),
  currency: row.currency,
  approvalRequired: Number(row.approval_required) === 1,
  makerId: row.maker_id,
  status: row.status as ApprovalStatus,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at,
  reason: row.reason,
  resultId: row.result_id,
  resultStatus: row.result_status,
  errorCode: row.error_code,
  errorMessage: row.error_message,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  expiresAt: row.expires_at,
});

type Changes = Parameters<ApprovalStore['move']>[2];

const changesToRow = (changes: Changes): Updateable<ApprovalRequestTable> => {
  const row: Updateable<ApprovalRequestTable> = { status: changes.status };
  if (changes.decidedBy !== undefined) row.decided_by = changes.decidedBy;
  if (changes.decidedAt !== undefined) row.decided_at = changes.decidedAt;
  if (changes.reason !== undefined) row.reason = changes.reason;
  if (changes.resultId !== undefined) row.result_id = changes.resultId;
  if (changes.resultStatus !== undefined) row.result_status = changes.resultStatus;
  if (changes.errorCode !== undefined) row.error_code = changes.errorCode;
  if (changes.errorMessage !== undefined) row.error_message = changes.errorMessage;
  if (changes.updatedAt !== undefined) row.updated_at = changes.updatedAt;
  if (changes.expiresAt !== undefined) row.expires_at = changes.expiresAt;
  return row;
};

/** Approval policies and requests (migrations 0025 and 0030), the same statements on SQLite and PostgreSQL. */
export class ApprovalRepository implements ApprovalStore {
  constructor(private readonly db: Kysely<Database>) {}

  async policy(merchantId: string): Promise<ApprovalThreshold[]> {
    const rows = await this.db.selectFrom('approval_policies').select(['currency', 'threshold_minor']).where('merchant_id', '=', merchantId).orderBy('currency').execute();
    return rows.map((row) => ({ currency: row.currency, thresholdMinor: Number(row.threshold_minor) }));
  }

  async setPolicy(merchantId: string, thresholds: ApprovalThreshold[], by: string, at: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('approval_policies').where('merchant_id', '=', merchantId).execute();
      if (thresholds.length === 0) return;
      await trx
        .insertInto('approval_policies')
        .values(thresholds.map((t) => ({ merchant_id: merchantId, currency: t.currency, threshold_minor: t.thresholdMinor, updated_by: by, updated_at: at })))
        .execute();
    });
  }

  async insert(request: ApprovalRequest): Promise<void> {
    await this.db
      .insertInto('approval_requests')
      .values({
        id: request.id,
        merchant_id: request.merchantId,
        environment: request.environment,
        kind: request.kind,
        request: JSON.stringify(request.request),
        amount_minor: request.amountMinor,
        currency: request.currency,
        approval_required: request.approvalRequired ? 1 : 0,
        maker_id: request.makerId,
        status: request.status,
        decided_by: request.decidedBy,
        decided_at: request.decidedAt,
        reason: request.reason,
        result_id: request.resultId,
        result_status: request.resultStatus,
        error_code: request.errorCode,
        error_message: request.errorMessage,
        created_at: request.createdAt,
        updated_at: request.updatedAt,
        expires_at: request.expiresAt,
      })
      .execute();
  }

  async find(merchantId: string, environment: Environment, id: string): Promise<ApprovalRequest | undefined> {
    const row = await this.db
      .selectFrom('approval_requests')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('environment', '=', environment)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  async openForBatch(merchantId: string, environment: Environment, batchId: string, now: string): Promise<ApprovalRequest | undefined> {
    const rows = await this.db
      .selectFrom('approval_requests')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('environment', '=', environment)
      .where('kind', '=', 'batch')
      .where((eb) => eb.or([eb('status', '=', 'approved'), eb.and([eb('status', '=', 'pending'), unexpired(eb, now)])]))
      .orderBy('id', 'desc')
      .execute();
    return rows.map(fromRow).find((request) => (request.request as { batch_id: string }).batch_id === batchId);
  }

  async page(
    merchantId: string,
    environment: Environment,
    filter: { status?: ApprovalStatus; limit: number; startingAfter?: string; now: string },
  ): Promise<{ data: ApprovalRequest[]; hasMore: boolean } | undefined> {
    if (filter.startingAfter !== undefined && !(await this.find(merchantId, environment, filter.startingAfter))) return undefined;
    // Ids are time-ordered (UUIDv7): newest first is id descending, on the list indexes.
    let query = this.db.selectFrom('approval_requests').selectAll().where('merchant_id', '=', merchantId).where('environment', '=', environment);
    // `expired` is a pending request past its expiry; `pending`, one not yet past it.
    if (filter.status === 'expired') query = query.where('status', '=', 'pending').where('expires_at', '<=', filter.now);
    else if (filter.status === 'pending') query = query.where('status', '=', 'pending').where((eb) => unexpired(eb, filter.now));
    else if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.startingAfter !== undefined) query = query.where('id', '<', filter.startingAfter);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(filter.limit + 1)
      .execute();
    return { data: rows.slice(0, filter.limit).map(fromRow), hasMore: rows.length > filter.limit };
  }

  async move(id: string, from: StoredApprovalStatus, changes: Changes, condition: { updatedAt?: string; unexpiredAt?: string } = {}): Promise<boolean> {
    let update = this.db.updateTable('approval_requests').set(changesToRow(changes)).where('id', '=', id).where('status', '=', from);
    if (condition.updatedAt !== undefined) update = update.where('updated_at', '=', condition.updatedAt);
    const { unexpiredAt } = condition;
    if (unexpiredAt !== undefined) update = update.where((eb) => unexpired(eb, unexpiredAt));
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

/** Not expired at `now`: no expiry (never waited), or one still ahead. */
const unexpired = (eb: ExpressionBuilder<Database, 'approval_requests'>, now: string) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);
