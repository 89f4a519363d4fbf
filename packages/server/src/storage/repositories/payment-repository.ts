import { sql, type Kysely, type Transaction } from 'kysely';
import { AkweError } from '../../core/errors/index.js';
import type { Payment, Refund } from '../../core/payments/payment.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import {
  RefundTakenOver,
  type LockedChange,
  type PaymentLinkUse,
  type PaymentChange,
  type PaymentFilters,
  type PaymentStore,
  type RefundFilters,
} from '../../core/payments/payment-store.js';
import { nonFinalStatuses } from '../../core/payments/payment-state-machine.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import { keysetQuery } from '../keyset-page.js';
import { createdWithin, listPage, listRows } from '../list-query.js';
import { metadataEntries } from './metadata-entries.js';
import type { DatabaseCapabilities } from '../database.js';
import type { Database } from '../schema.js';
import { PreparedInsert, PreparedQuery, PreparedUpdate } from '../prepared-query.js';
import { isUniqueViolation } from '../unique-violation.js';
import { addEventInserts, EventOutbox } from './event-repository.js';
import { OneStatement } from '../postgres/one-statement.js';
import { PaymentPostingBatcher, type PaymentStatementWriter, type StatementClaims } from '../postgres/payment-posting-batcher.js';
import { IdempotencyClaimLost } from '../../core/idempotency/request-journal.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { LedgerRepository } from './ledger-repository.js';
import type { LedgerPosting } from '../../core/ledger/ledger.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { paymentFromRow, paymentToRow, refundFromRow, refundToRow } from './payment-rows.js';

/** A payment through a link in one of these statuses no longer holds one of its uses (PaymentLinkUse). */
const linkUseReleasedBy = ['failed', 'cancelled', 'expired'] as const;

/** Thrown inside a transaction to roll it back when the payment changed under us. */
class VersionConflict extends Error {}

/**
 * Non-final payments whose expiry has passed, soonest first. The statuses are SQL literals, the
 * same list as the condition of the partial index payments_expiring (expires_at), so both
 * databases prove the index applies and the worker never scans the payments' history.
 */
export function dueForExpiryQuery(db: Kysely<Database> | Transaction<Database>, now: string, limit: number) {
  return (
    db
      .selectFrom('payments')
      .selectAll()
      .where(
        'status',
        'in',
        nonFinalStatuses.map((status) => sql.lit(status)),
      )
      .where('expires_at', '<=', now)
      // An operator call in flight decides first (or its recovery does): expiry must not race it.
      .where('operator_call', 'is', null)
      // A live payment its operator still held as pending at expiry waits out its grace (0032).
      .where((eb) => eb.or([eb('expiry_grace_until', 'is', null), eb('expiry_grace_until', '<=', now)]))
      .orderBy('expires_at')
      .limit(limit)
  );
}

/** A hosted payment by its checkout token; exported so the query-plan test reads this very query. */
export function checkoutQuery(db: Kysely<Database>, token: string) {
  return db.selectFrom('payments').selectAll().where('checkout_token', '=', token).where('mode', '=', 'hosted');
}

/**
 * A page of a merchant's payments, newest first. Exported so the query-plan test checks the very
 * query the list runs. A metadata filter starts from the metadata index and pages on its object
 * id, so a rare key/value is found without reading the merchant's other payments.
 */
export function paymentListQuery(db: Kysely<Database>, scope: TenantScope, filters: PaymentFilters, page: PageRequest) {
  const { query, idColumn } = paymentListRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The merchant's payments that the filters keep, before paging. */
export function paymentListRows(db: Kysely<Database>, scope: TenantScope, filters: PaymentFilters) {
  return listRows(db.selectFrom('payments').selectAll('payments'), {
    scope,
    table: 'payments',
    metadata: { objectType: 'payment', match: filters.metadata },
    filters: [
      ['status', '=', filters.status],
      ['mode', '=', filters.mode],
      ['operator', 'in', filters.operators],
      ['reference', '=', filters.reference || undefined],
      ['phone', '=', filters.phone || undefined],
      ['payment_link_id', '=', filters.paymentLinkId || undefined],
      ...createdWithin(filters),
    ],
  });
}

/** A page of one payment's refunds, newest first. */
export function refundListQuery(db: Kysely<Database>, scope: TenantScope, paymentId: string, page: PageRequest) {
  const { query, idColumn } = refundListRows(db, scope, paymentId);
  return keysetQuery(query, idColumn, page);
}

/** One payment's refunds, before paging. */
export function refundListRows(db: Kysely<Database>, scope: TenantScope, paymentId: string) {
  return listRows(refundsWithReference(db).where('refunds.payment_id', '=', paymentId), { scope, table: 'refunds' });
}

/** A page of the scope's refunds of every payment, newest first (the query-plan tests read it). */
export function allRefundListQuery(db: Kysely<Database>, scope: TenantScope, filters: RefundFilters, page: PageRequest) {
  const { query, idColumn } = allRefundRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The scope's refunds of every payment that the filters keep, before paging. */
export function allRefundRows(db: Kysely<Database>, scope: TenantScope, filters: RefundFilters) {
  return listRows(refundsWithReference(db), { scope, table: 'refunds', filters: [['status', '=', filters.status], ...createdWithin(filters)] });
}

/** Refund rows with their payment's reference, which the domain Refund carries. */
function refundsWithReference(db: Kysely<Database>) {
  return db.selectFrom('refunds').innerJoin('payments', 'payments.id', 'refunds.payment_id').selectAll('refunds').select('payments.reference as payment_reference');
}

export class PaymentRepository implements PaymentStore {
  // Every creation runs these: built once (see prepared-query.ts).
  private readonly paymentRows: PreparedInsert<'payments'>;
  private readonly paymentUpdates: PreparedUpdate<'payments'>;
  /** PostgreSQL's one-statement phases (capability oneStatementPhases); none on SQLite. */
  private readonly statements?: PaymentStatementWriter;
  private readonly outbox: EventOutbox;
  private readonly byId;
  private readonly byReference;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DatabaseCapabilities,
    /** Makes a request's idempotency claim write inside our transactions. */
    private readonly claims: StatementClaims & { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    /** Writes the ledger postings of a change inside its transaction (or its one statement). */
    private readonly ledger: Pick<LedgerRepository, 'post' | 'fitsOneStatement' | 'addAccountsCheck' | 'addPostings' | 'accountsKey' | 'postingRows' | 'lockOrder' | 'now'>,
    /** Told after a commit that wrote events, so the fan-out wakes at once. */
    private readonly signals?: Pick<WorkSignals, 'notify' | 'wakeLocal'>,
  ) {
    this.paymentRows = new PreparedInsert(db, 'payments');
    this.paymentUpdates = new PreparedUpdate(db, 'payments');
    this.outbox = new EventOutbox(db);
    if (capabilities.oneStatementPhases) this.statements = new PaymentPostingBatcher(db, claims, ledger);
    const scoped = (db: Kysely<Database>, merchantId: string, environment: Environment) =>
      db.selectFrom('payments').selectAll().where('merchant_id', '=', merchantId).where('environment', '=', environment);
    this.byId = new PreparedQuery(db, (db, merchantId: string, environment: Environment, id: string) => scoped(db, merchantId, environment).where('id', '=', id));
    this.byReference = new PreparedQuery(db, (db, merchantId: string, environment: Environment, reference: string) =>
      scoped(db, merchantId, environment).where('reference', '=', reference),
    );
  }

  async insert(payment: Payment, events: PaymentChange['events'], claim?: ClaimWrite, options: { linkUse?: PaymentLinkUse; ledger?: LedgerPosting[] } = {}): Promise<void> {
    const { linkUse, ledger = [] } = options;
    try {
      if (!(await this.insertInOneStatement(payment, events, claim, options))) {
        await this.db.transaction().execute(async (trx) => {
          // The claim first: when another request holds the key, nothing else is tried.
          if (claim) await this.claims.writeIn(trx, claim);
          if (linkUse) await this.takeLinkUse(trx, payment, linkUse);
          await this.paymentRows.execute(trx, [paymentToRow(payment)]);
          const entries = metadataEntries('payment', payment);
          if (entries.length > 0) await trx.insertInto('metadata_entries').values(entries).execute();
          if (ledger.length > 0) await this.ledger.post(trx, ledger);
          await this.outbox.insert(trx, events);
          this.wakeFanoutInside(events);
        });
      }
      this.signalEvents(events);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AkweError('duplicate_reference', `A payment with reference ${payment.reference} exists already.`, { field: 'reference' });
      throw error;
    }
  }

  async find(scope: TenantScope, referenceOrId: string): Promise<Payment | undefined> {
    // An id is tried first: a reference that happens to look like a UUID still resolves by reference.
    if (looksLikeId(referenceOrId)) {
      const byId = await this.byId.first(this.db, scope.merchantId, scope.environment, referenceOrId.toLowerCase());
      if (byId) return paymentFromRow(byId);
    }
    const byReference = await this.byReference.first(this.db, scope.merchantId, scope.environment, referenceOrId);
    return byReference && paymentFromRow(byReference);
  }

  async save(change: PaymentChange): Promise<boolean> {
    try {
      if (this.statements?.fits(change)) {
        const outcome = await this.statements.write(change);
        if (outcome === 'conflict') return false;
        if (outcome === 'saved') {
          this.signalEvents(change.events);
          return true;
        }
        // The ledger accounts are not open yet: the transaction below opens them.
      }
      await this.db.transaction().execute(async (trx) => {
        await this.apply(trx, change);
        this.wakeFanoutInside(change.events);
      });
      this.signalEvents(change.events);
      return true;
    } catch (error) {
      if (error instanceof VersionConflict) return false;
      throw error;
    }
  }

  async expireDue(now: string, limit: number, expire: (payment: Payment) => PaymentChange): Promise<number> {
    const expired = await this.db.transaction().execute(async (trx) => {
      let query = dueForExpiryQuery(trx, now, limit);
      if (this.capabilities.skipLocked) query = query.forUpdate().skipLocked();
      const due = (await query.execute()).map(paymentFromRow);
      let count = 0;
      for (const payment of due) {
        try {
          await this.apply(trx, expire(payment));
          count += 1;
        } catch (error) {
          // Another writer moved this payment first (confirmed, cancelled): it is not ours to expire.
          if (!(error instanceof VersionConflict)) throw error;
        }
      }
      return count;
    });
    if (expired > 0) this.signals?.notify('events');
    return expired;
  }

  async withLockedPayment<T>(paymentId: string, decide: (payment: Payment, pendingRefunds: number) => { change: LockedChange; result: T }): Promise<T> {
    let events: readonly StoredEvent[] = [];
    const result = await this.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('payments').selectAll().where('id', '=', paymentId);
      if (this.capabilities.rowLocks) query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) throw new AkweError('not_found', `No payment ${paymentId}.`);
      const { pending } = await trx
        .selectFrom('refunds')
        .select((eb) => eb.fn.countAll<number>().as('pending'))
        .where('payment_id', '=', paymentId)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      const current = paymentFromRow(row);
      const { change, result } = decide(current, Number(pending));
      events = change.events;
      await this.apply(trx, {
        ...(change.next ? { payment: { next: change.next, expectedVersion: current.version } } : {}),
        insertRefund: change.insertRefund,
        settleRefund: change.settleRefund,
        events: change.events,
        ledger: change.ledger,
        claim: change.claim,
      });
      return result;
    });
    this.signalEvents(events);
    return result;
  }

  /** After a commit: its events are due for the fan-out and readable by event streams. */
  private signalEvents(events: readonly StoredEvent[]): void {
    if (events.length > 0) this.signals?.notify('events');
  }

  /**
   * Before the commit, where the database allows it (`signalsBeforeCommit`): the fan-out's
   * transaction queues behind this one and reads its events a log sync sooner than `events` wakes it.
   */
  private wakeFanoutInside(events: readonly StoredEvent[]): void {
    if (events.length > 0 && this.capabilities.signalsBeforeCommit) this.signals?.wakeLocal('fanout');
  }

  async list(scope: TenantScope, filters: PaymentFilters, page: PageRequest): Promise<Page<Payment>> {
    return listPage({ all: paymentListRows(this.db, scope, {}), filtered: paymentListRows(this.db, scope, filters) }, page, paymentFromRow);
  }

  async listRefunds(scope: TenantScope, paymentId: string, page: PageRequest): Promise<Page<Refund>> {
    const refunds = refundListRows(this.db, scope, paymentId);
    return listPage({ all: refunds, filtered: refunds }, page, (row) => refundFromRow(row, row.payment_reference));
  }

  async listAllRefunds(scope: TenantScope, filters: RefundFilters, page: PageRequest): Promise<Page<Refund>> {
    return listPage({ all: allRefundRows(this.db, scope, {}), filtered: allRefundRows(this.db, scope, filters) }, page, (row) => refundFromRow(row, row.payment_reference));
  }

  async findAnyRefundById(refundId: string): Promise<Refund | undefined> {
    if (!looksLikeId(refundId)) return undefined;
    const row = await refundsWithReference(this.db).where('refunds.id', '=', refundId.toLowerCase()).executeTakeFirst();
    return row && refundFromRow(row, row.payment_reference);
  }

  async findRefund(scope: TenantScope, refundId: string): Promise<Refund | undefined> {
    if (!looksLikeId(refundId)) return undefined;
    const row = await refundsWithReference(this.db)
      .where('refunds.id', '=', refundId.toLowerCase())
      .where('refunds.merchant_id', '=', scope.merchantId)
      .where('refunds.environment', '=', scope.environment)
      .executeTakeFirst();
    return row && refundFromRow(row, row.payment_reference);
  }

  async claimChecks(now: string, claimUntil: string, limit: number): Promise<Payment[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('payments')
        .selectAll()
        .where('next_check_at', 'is not', null)
        .where('next_check_at', '<=', now)
        .where('operator_call', 'is', null)
        .orderBy('next_check_at')
        .limit(limit);
      if (this.capabilities.skipLocked) query = query.forUpdate().skipLocked();
      const due = (await query.execute()).map(paymentFromRow);
      if (due.length === 0) return [];
      // Ours while the transaction lasts (locked rows, or SQLite's single writer): no version check needed.
      await trx
        .updateTable('payments')
        .set((eb) => ({ next_check_at: claimUntil, version: eb('version', '+', 1) }))
        .where(
          'id',
          'in',
          due.map((payment) => payment.id),
        )
        .execute();
      return due.map((payment) => ({ ...payment, nextCheckAt: claimUntil, version: payment.version + 1 }));
    });
  }

  async openOperatorCalls(startedBefore: string, limit: number): Promise<Payment[]> {
    const rows = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('operator_call_started_at', 'is not', null)
      .where('operator_call_started_at', '<=', startedBefore)
      .orderBy('operator_call_started_at')
      .limit(limit)
      .execute();
    return rows.map(paymentFromRow);
  }

  async openRefunds(updatedBefore: string, limit: number): Promise<Refund[]> {
    const rows = await refundsWithReference(this.db)
      .where('refunds.status', '=', 'pending')
      .where('refunds.updated_at', '<=', updatedBefore)
      .orderBy('refunds.updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => refundFromRow(row, row.payment_reference));
  }

  async leaseRefund(refund: Refund, now: string, options: { sending?: boolean } = {}): Promise<Refund | undefined> {
    const sentAt = options.sending ? now : (refund.sentAt ?? null);
    const result = await this.db
      .updateTable('refunds')
      .set({ updated_at: now, sent_at: sentAt })
      .where('id', '=', refund.id)
      .where('status', '=', 'pending')
      .where('updated_at', '=', refund.updatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? { ...refund, updatedAt: now, sentAt } : undefined;
  }

  async findAnyById(id: string): Promise<Payment | undefined> {
    if (!looksLikeId(id)) return undefined;
    const row = await this.db.selectFrom('payments').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
    return row && paymentFromRow(row);
  }

  async findForCheckout(token: string): Promise<Payment | undefined> {
    const row = await checkoutQuery(this.db, token).executeTakeFirst();
    return row && paymentFromRow(row);
  }

  /**
   * Takes one of a limited link's uses for `payment`, inside the insert's transaction: the link's row
   * is locked (PostgreSQL; SQLite runs one write transaction at a time), then its payments still
   * holding a use are counted, so of concurrent payments through the link only as many as it takes
   * are written (PaymentLinkUse).
   */
  private async takeLinkUse(trx: Transaction<Database>, payment: Payment, use: PaymentLinkUse): Promise<void> {
    let linkQuery = trx
      .selectFrom('payment_links')
      .select(['deactivated_at'])
      .where('id', '=', use.linkId)
      .where('merchant_id', '=', payment.merchantId)
      .where('environment', '=', payment.environment);
    if (this.capabilities.rowLocks) linkQuery = linkQuery.forUpdate();
    const link = await linkQuery.executeTakeFirst();
    if (!link || link.deactivated_at !== null) throw new AkweError('payment_link_inactive', 'The payment link was deactivated.');
    const held = await trx
      .selectFrom('payments')
      .select(['status', sql<number | string>`count(*)`.as('count')])
      .where('merchant_id', '=', payment.merchantId)
      .where('environment', '=', payment.environment)
      .where('payment_link_id', '=', use.linkId)
      .where('status', 'not in', linkUseReleasedBy)
      .groupBy('status')
      .execute();
    const total = held.reduce((sum, row) => sum + Number(row.count), 0);
    if (total < use.limit) return;
    const paid = held.filter((row) => row.status === 'completed' || row.status === 'refunded').reduce((sum, row) => sum + Number(row.count), 0);
    if (paid >= use.limit) throw new AkweError('payment_link_inactive', 'The payment link is used up.');
    throw new AkweError('payment_link_in_use', `The payment link takes ${use.limit} payment(s), and every one is held by a payment still under way.`);
  }

  /**
   * `insert` as one statement where it can be (PostgreSQL, see postgres/one-statement.ts): the claim
   * write, then the payment, its metadata rows and its events, each only if the claim was written.
   * An insert with a ledger posting (a payment decided in-process) joins the statements posting to
   * the same accounts (PaymentPostingBatcher). False: nothing written, the transaction must do it
   * (SQLite, a link use to take, or ledger accounts not open yet).
   */
  private async insertInOneStatement(
    payment: Payment,
    events: readonly StoredEvent[],
    claim: ClaimWrite | undefined,
    options: { linkUse?: PaymentLinkUse; ledger?: LedgerPosting[] },
  ): Promise<boolean> {
    if (!this.statements || options.linkUse) return false;
    if (options.ledger && options.ledger.length > 0) {
      const change = { insertPayment: payment, events: [...events], ledger: options.ledger, claim };
      if (!this.statements.fits(change)) return false;
      const outcome = await this.statements.write(change);
      if (outcome === 'conflict') throw new Error('payment insert wrote no row');
      return outcome === 'saved';
    }
    const statement = new OneStatement();
    if (claim) this.claims.addTo(statement, 'claim', claim);
    statement.add('payment', statement.insertRow('payments', paymentToRow(payment), '1'), { gate: true });
    metadataEntries('payment', payment).forEach((row, index) => statement.add(`metadata_${index}`, statement.insertRow('metadata_entries', row)));
    addEventInserts(statement, 'event', events);
    const counts = (await this.db.executeQuery(statement.compile())).rows[0]!;
    // Another request holds the key: as in the transaction, nothing else was written.
    if (claim && counts.claim !== 1) throw new IdempotencyClaimLost();
    if (counts.payment !== 1) throw new Error('payment insert wrote no row');
    return true;
  }

  private async apply(trx: Transaction<Database>, change: PaymentChange): Promise<void> {
    if (change.claim) await this.claims.writeIn(trx, change.claim);
    if (change.payment) {
      const { next, expectedVersion } = change.payment;
      const { id: _id, merchant_id: _m, environment: _e, reference: _r, created_at: _c, ...columns } = paymentToRow(next);
      const result = await this.paymentUpdates.execute(trx, { ...columns, version: expectedVersion + 1 }, { id: next.id, version: expectedVersion });
      if (Number(result.numAffectedRows ?? 0) !== 1) throw new VersionConflict();
    }
    if (change.insertRefund) await trx.insertInto('refunds').values(refundToRow(change.insertRefund)).execute();
    if (change.settleRefund) {
      const { refund, leasedAt } = change.settleRefund;
      const { id, ...columns } = refundToRow(refund);
      const result = await trx.updateTable('refunds').set(columns).where('id', '=', id).where('status', '=', 'pending').where('updated_at', '=', leasedAt).executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new RefundTakenOver(id);
    }
    if (change.ledger && change.ledger.length > 0) await this.ledger.post(trx, change.ledger);
    await this.outbox.insert(trx, change.events);
  }
}
