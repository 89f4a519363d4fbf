import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CountryCode, Currency } from '../../core/catalog/operator-catalog.js';
import { AkweError } from '../../core/errors/index.js';
import type { OperatorCall, Payment, PaymentMode, PaymentStatus, Refund, RefundStatus } from '../../core/payments/payment.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import { RefundTakenOver, type LockedChange, type PaymentChange, type PaymentFilters, type PaymentStore } from '../../core/payments/payment-store.js';
import { nonFinalStatuses } from '../../core/payments/payment-state-machine.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import { assertCursorListed, keysetQuery, toPage } from '../keyset-page.js';
import { metadataEntries } from './metadata-entries.js';
import type { DatabaseCapabilities } from '../database.js';
import type { Database, PaymentTable, RefundTable } from '../schema.js';
import { PreparedInsert, PreparedQuery, PreparedUpdate } from '../prepared-query.js';
import { isUniqueViolation } from '../unique-violation.js';
import { EventOutbox, eventToRow } from './event-repository.js';
import { OneStatement, quote } from '../postgres/one-statement.js';
import { paymentOutcomesStatement, type PaymentOutcomes } from '../postgres/payment-outcomes-statement.js';
import { IdempotencyClaimLost } from '../../core/idempotency/request-journal.js';
import { isCheckViolation } from '../check-violation.js';
import { insufficientBalance } from '../../core/ledger/ledger.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { LedgerRepository } from './ledger-repository.js';
import { looksLikeId } from '../../core/shared/ids.js';

/** Thrown inside a transaction to roll it back when the payment changed under us. */
class VersionConflict extends Error {}

type OneStatementOutcome = 'saved' | 'conflict' | 'accounts_missing';
type OneStatementResult = { outcome: OneStatementOutcome } | { error: unknown };

/**
 * What a change's one-statement write came to, from what its gates wrote: nothing at all when the
 * ledger accounts were not all open, else the error or outcome the transaction would have given.
 * The payment's version is checked (and the row locked) before the claim is written, so a stale
 * version writes nothing at all: 'conflict', and the caller reads again (meeting the lost claim
 * then, if it is lost too).
 */
function outcomeOf(change: PaymentChange, written: { accountsOpen: boolean; versionHeld: boolean; claim: boolean; payment: boolean }): OneStatementResult {
  if (!written.accountsOpen) return { outcome: 'accounts_missing' };
  if (change.payment && !written.versionHeld) return { outcome: 'conflict' };
  if (change.claim && !written.claim) return { error: new IdempotencyClaimLost() };
  if (change.payment && !written.payment) return { outcome: 'conflict' };
  return { outcome: 'saved' };
}

/**
 * Up to MAX_PHASE_BATCH waiting changes, in order, at most one per payment: two changes of one
 * payment in one statement would both pass its version check (one snapshot), and only one update of
 * the row would take effect. A later change of a payment already taken waits for the next batch.
 */
function takeBatch(waiting: PostingQueue['waiting']): PostingQueue['waiting'] {
  const batch: PostingQueue['waiting'] = [];
  const payments = new Set<string>();
  for (let index = 0; index < waiting.length && batch.length < MAX_PHASE_BATCH;) {
    const paymentId = waiting[index]!.change.payment?.next.id;
    if (paymentId !== undefined && payments.has(paymentId)) {
      index += 1;
      continue;
    }
    if (paymentId !== undefined) payments.add(paymentId);
    batch.push(...waiting.splice(index, 1));
  }
  return batch;
}

function settled(result: OneStatementResult): OneStatementOutcome {
  if ('error' in result) throw result.error;
  return result.outcome;
}

/** Changes waiting to post to the same ledger accounts, and whether a statement to them is running. */
interface PostingQueue {
  running: boolean;
  waiting: { change: PaymentChange; resolve(outcome: OneStatementOutcome): void; reject(error: unknown): void }[];
}

/** Most changes written by one statement to the same ledger accounts (its size stays reasonable). */
const MAX_PHASE_BATCH = 32;
/** From this many changes, an outcome statement carries its values in arrays (runBatch). */
const ARRAY_BATCH_FROM = 4;

function paymentFromRow(row: Selectable<PaymentTable>): Payment {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    reference: row.reference,
    status: row.status as PaymentStatus,
    amountMinor: Number(row.amount_minor),
    currency: row.currency as Currency,
    country: row.country as CountryCode,
    mode: row.mode as PaymentMode,
    operator: row.operator,
    phone: row.phone,
    description: row.description,
    callbackUrl: row.callback_url,
    customerFirstName: row.customer_first_name,
    customerLastName: row.customer_last_name,
    pspReference: row.psp_reference,
    message: row.message,
    failureCode: row.failure_code as FailureCode | null,
    metadata: JSON.parse(row.metadata) as Metadata,
    otpAttempts: row.otp_attempts,
    refundedMinor: Number(row.refunded_minor),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    operatorCall: row.operator_call as OperatorCall | null,
    operatorCallStartedAt: row.operator_call_started_at,
    checkoutToken: row.checkout_token,
    returnUrl: row.return_url,
    nextCheckAt: row.next_check_at,
    operatorRedirectUrl: row.operator_redirect_url,
  };
}

function paymentToRow(p: Payment): Selectable<PaymentTable> {
  return {
    id: p.id,
    merchant_id: p.merchantId,
    environment: p.environment,
    reference: p.reference,
    status: p.status,
    amount_minor: p.amountMinor,
    currency: p.currency,
    country: p.country,
    mode: p.mode,
    operator: p.operator,
    phone: p.phone,
    description: p.description,
    callback_url: p.callbackUrl,
    customer_first_name: p.customerFirstName,
    customer_last_name: p.customerLastName,
    psp_reference: p.pspReference,
    message: p.message,
    failure_code: p.failureCode,
    metadata: JSON.stringify(p.metadata),
    otp_attempts: p.otpAttempts,
    refunded_minor: p.refundedMinor,
    expires_at: p.expiresAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    version: p.version,
    operator_call: p.operatorCall,
    operator_call_started_at: p.operatorCallStartedAt,
    checkout_token: p.checkoutToken ?? null,
    return_url: p.returnUrl ?? null,
    next_check_at: p.nextCheckAt ?? null,
    operator_redirect_url: p.operatorRedirectUrl ?? null,
  };
}

function refundFromRow(row: Selectable<RefundTable>, paymentReference: string): Refund {
  return {
    id: row.id,
    paymentId: row.payment_id,
    paymentReference,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    amountMinor: Number(row.amount_minor),
    currency: row.currency as Currency,
    status: row.status as RefundStatus,
    reason: row.reason,
    pspReference: row.psp_reference,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function refundToRow(r: Refund): Selectable<RefundTable> {
  return {
    id: r.id,
    payment_id: r.paymentId,
    merchant_id: r.merchantId,
    environment: r.environment,
    amount_minor: r.amountMinor,
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    psp_reference: r.pspReference,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/**
 * Non-final payments whose expiry has passed, soonest first. `status in (...)` rather than
 * `not in (final)` so the lookup can use the index payments_expiry (status, expires_at) instead
 * of scanning every payment on each pass of the expiry worker.
 */
export function dueForExpiryQuery(db: Kysely<Database> | Transaction<Database>, now: string, limit: number) {
  return (
    db
      .selectFrom('payments')
      .selectAll()
      .where('status', 'in', nonFinalStatuses)
      .where('expires_at', '<=', now)
      // An operator call in flight decides first (or its recovery does): expiry must not race it.
      .where('operator_call', 'is', null)
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
  let query = db.selectFrom('payments').selectAll('payments');
  let idColumn = 'payments.id';
  if (filters.metadata) {
    query = query
      .innerJoin('metadata_entries as m', 'm.object_id', 'payments.id')
      .where('m.merchant_id', '=', scope.merchantId)
      .where('m.environment', '=', scope.environment)
      .where('m.object_type', '=', 'payment')
      .where('m.key', '=', filters.metadata.key)
      .where('m.value', '=', filters.metadata.value);
    idColumn = 'm.object_id';
  }
  query = query.where('payments.merchant_id', '=', scope.merchantId).where('payments.environment', '=', scope.environment);
  if (filters.status) query = query.where('payments.status', '=', filters.status);
  if (filters.mode) query = query.where('payments.mode', '=', filters.mode);
  if (filters.operators) query = query.where('payments.operator', 'in', filters.operators);
  if (filters.reference) query = query.where('payments.reference', '=', filters.reference);
  if (filters.createdGte) query = query.where('payments.created_at', '>=', filters.createdGte);
  if (filters.createdLte) query = query.where('payments.created_at', '<=', filters.createdLte);
  return { query, idColumn };
}

/** A page of one payment's refunds, newest first. */
export function refundListQuery(db: Kysely<Database>, scope: TenantScope, paymentId: string, page: PageRequest) {
  const { query, idColumn } = refundListRows(db, scope, paymentId);
  return keysetQuery(query, idColumn, page);
}

/** One payment's refunds, before paging. */
export function refundListRows(db: Kysely<Database>, scope: TenantScope, paymentId: string) {
  const query = refundsWithReference(db)
    .where('refunds.payment_id', '=', paymentId)
    .where('refunds.merchant_id', '=', scope.merchantId)
    .where('refunds.environment', '=', scope.environment);
  return { query, idColumn: 'refunds.id' };
}

/** Refund rows with their payment's reference, which the domain Refund carries. */
function refundsWithReference(db: Kysely<Database>) {
  return db.selectFrom('refunds').innerJoin('payments', 'payments.id', 'refunds.payment_id').selectAll('refunds').select('payments.reference as payment_reference');
}

export class PaymentRepository implements PaymentStore {
  // Every creation runs these: built once (see prepared-query.ts).
  private readonly paymentRows: PreparedInsert<'payments'>;
  private readonly paymentUpdates: PreparedUpdate<'payments'>;
  private readonly postingQueues = new Map<string, PostingQueue>();
  private readonly outbox: EventOutbox;
  private readonly byId;
  private readonly byReference;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DatabaseCapabilities,
    /** Makes a request's idempotency claim write inside our transactions. */
    private readonly claims: {
      writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void>;
      /** The same write as a gate of a one-statement phase. */
      addTo(statement: OneStatement, gate: string, write: ClaimWrite): void;
      /** The record the write leaves, every column (PostgreSQL's outcome statement). */
      recordRow(write: ClaimWrite): Record<string, unknown>;
    },
    /** Writes the ledger postings of a change inside its transaction (or its one statement). */
    private readonly ledger: Pick<LedgerRepository, 'post' | 'fitsOneStatement' | 'addAccountsCheck' | 'addPostings' | 'accountsKey' | 'postingRows' | 'lockOrder' | 'now'>,
    /** Told after a commit that wrote events, so the fan-out wakes at once. */
    private readonly signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.paymentRows = new PreparedInsert(db, 'payments');
    this.paymentUpdates = new PreparedUpdate(db, 'payments');
    this.outbox = new EventOutbox(db);
    const scoped = (db: Kysely<Database>, merchantId: string, environment: Environment) =>
      db.selectFrom('payments').selectAll().where('merchant_id', '=', merchantId).where('environment', '=', environment);
    this.byId = new PreparedQuery(db, (db, merchantId: string, environment: Environment, id: string) => scoped(db, merchantId, environment).where('id', '=', id));
    this.byReference = new PreparedQuery(db, (db, merchantId: string, environment: Environment, reference: string) =>
      scoped(db, merchantId, environment).where('reference', '=', reference),
    );
  }

  async insert(payment: Payment, events: PaymentChange['events'], claim?: ClaimWrite): Promise<void> {
    try {
      if (this.capabilities.oneStatementPhases) {
        await this.insertInOneStatement(payment, events, claim);
      } else {
        await this.db.transaction().execute(async (trx) => {
          // The claim first: when another request holds the key, nothing else is tried.
          if (claim) await this.claims.writeIn(trx, claim);
          await this.paymentRows.execute(trx, [paymentToRow(payment)]);
          const entries = metadataEntries('payment', payment);
          if (entries.length > 0) await trx.insertInto('metadata_entries').values(entries).execute();
          await this.outbox.insert(trx, events);
        });
      }
      this.committed(events);
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
      if (this.capabilities.oneStatementPhases && this.fitsOneStatement(change)) {
        const outcome = await this.saveInOneStatement(change);
        if (outcome === 'conflict') return false;
        if (outcome === 'saved') {
          this.committed(change.events);
          return true;
        }
        // The ledger accounts are not open yet: the transaction below opens them.
      }
      await this.db.transaction().execute((trx) => this.apply(trx, change));
      this.committed(change.events);
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
    this.committed(events);
    return result;
  }

  private committed(events: readonly StoredEvent[]): void {
    if (events.length > 0) this.signals?.notify('events');
  }

  async list(scope: TenantScope, filters: PaymentFilters, page: PageRequest): Promise<Page<Payment>> {
    await assertCursorListed(paymentListRows(this.db, scope, {}), page);
    const rows = await paymentListQuery(this.db, scope, filters, page).execute();
    return toPage(rows.map(paymentFromRow), page);
  }

  async listRefunds(scope: TenantScope, paymentId: string, page: PageRequest): Promise<Page<Refund>> {
    await assertCursorListed(refundListRows(this.db, scope, paymentId), page);
    const rows = await refundListQuery(this.db, scope, paymentId, page).execute();
    return toPage(
      rows.map((row) => refundFromRow(row, row.payment_reference)),
      page,
    );
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

  async leaseRefund(refund: Refund, now: string): Promise<Refund | undefined> {
    const result = await this.db
      .updateTable('refunds')
      .set({ updated_at: now })
      .where('id', '=', refund.id)
      .where('status', '=', 'pending')
      .where('updated_at', '=', refund.updatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? { ...refund, updatedAt: now } : undefined;
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
   * `insert` as one statement (PostgreSQL, see postgres/one-statement.ts): the claim write, then the
   * payment, its metadata rows and its events, each only if the claim was written.
   */
  private async insertInOneStatement(payment: Payment, events: readonly StoredEvent[], claim: ClaimWrite | undefined): Promise<void> {
    const statement = new OneStatement();
    if (claim) this.claims.addTo(statement, 'claim', claim);
    statement.add('payment', statement.insertRow('payments', paymentToRow(payment), '1'), { gate: true });
    metadataEntries('payment', payment).forEach((row, index) => statement.add(`metadata_${index}`, statement.insertRow('metadata_entries', row)));
    events.forEach((event, index) => statement.add(`event_${index}`, statement.insertRow('events', eventToRow(event))));
    const counts = (await this.db.executeQuery(statement.compile())).rows[0]!;
    // Another request holds the key: as in the transaction, nothing else was written.
    if (claim && counts.claim !== 1) throw new IdempotencyClaimLost();
    if (counts.payment !== 1) throw new Error('payment insert wrote no row');
  }

  /** What `saveInOneStatement` can write: no refund rows, at most one posting with one line per account. */
  private fitsOneStatement(change: PaymentChange): boolean {
    if (change.insertRefund || change.settleRefund) return false;
    if (!change.payment && !change.claim && change.events.length === 0) return false;
    const ledger = change.ledger ?? [];
    return ledger.length === 0 || (ledger.length === 1 && this.ledger.fitsOneStatement(ledger[0]!));
  }

  /**
   * `save` as one statement (PostgreSQL). A change with a ledger posting joins the changes posting to
   * the same accounts: the merchant's balance rows are locked by each write until its commit is on
   * disk, so writes to them can only follow one another. While one statement to those accounts runs,
   * the changes that arrive wait, and the next statement writes them all (up to `MAX_PHASE_BATCH`),
   * each in its own chain of gates, with each balance moved once: group commit for the hot rows.
   * A change without a posting runs at once, alone.
   */
  private saveInOneStatement(change: PaymentChange): Promise<OneStatementOutcome> {
    const posting = change.ledger?.[0];
    if (!posting) return this.runOneStatement([change]).then(([result]) => settled(result!));
    const key = this.ledger.accountsKey(posting);
    let queue = this.postingQueues.get(key);
    if (!queue) this.postingQueues.set(key, (queue = { running: false, waiting: [] }));
    const promise = new Promise<OneStatementOutcome>((resolve, reject) => queue.waiting.push({ change, resolve, reject }));
    this.drain(key, queue);
    return promise;
  }

  private drain(key: string, queue: PostingQueue): void {
    if (queue.running) return;
    if (queue.waiting.length === 0) {
      this.postingQueues.delete(key);
      return;
    }
    const batch = takeBatch(queue.waiting);
    queue.running = true;
    const run = async () => {
      let results: OneStatementResult[];
      try {
        results = await this.runOneStatement(batch.map((waiting) => waiting.change));
      } catch (error) {
        if (batch.length === 1) throw error;
        // The batch wrote nothing (one statement): each change again on its own, for its own answer.
        results = [];
        for (const waiting of batch)
          results.push(
            await this.runOneStatement([waiting.change]).then(
              ([result]) => result!,
              (error: unknown) => ({ error }),
            ),
          );
      }
      results.forEach((result, index) => {
        if ('error' in result) batch[index]!.reject(result.error);
        else batch[index]!.resolve(result.outcome);
      });
    };
    run()
      .catch((error: unknown) => batch.forEach((waiting) => waiting.reject(error)))
      .finally(() => {
        queue.running = false;
        this.drain(key, queue);
      });
  }

  /**
   * Writes `changes` in one statement, each standing or falling alone as in the transaction: its
   * claim, then its version-checked payment, then its events and posting. 'accounts_missing' wrote
   * nothing: the caller runs the transaction instead, which opens them.
   */
  private runOneStatement(changes: readonly PaymentChange[]): Promise<OneStatementResult[]> {
    // A few changes: chains of single-row writes, one text per shape (few shapes at these sizes),
    // whose cached plans PostgreSQL reuses and which stay right as the tables grow. More: one text
    // for every size, planned on each run (see payment-outcomes-statement.ts for why), which costs
    // less than a plan per shape of long chains.
    return changes.length < ARRAY_BATCH_FROM ? this.runChains(changes) : this.runBatch(changes);
  }

  /**
   * `runOneStatement` for a batch (postgres/payment-outcomes-statement.ts). A balance taken below
   * zero fails the whole statement; the caller then runs each change alone, for its own answer.
   */
  private async runBatch(changes: readonly PaymentChange[]): Promise<OneStatementResult[]> {
    const now = this.ledger.now();
    const postings = changes.map((change) => change.ledger?.[0]);
    const first = postings.find((posting) => posting !== undefined);
    const outcomes: PaymentOutcomes = {
      claims: [],
      unclaimed: [],
      payments: [],
      withoutPayment: [],
      events: [],
      accounts: first
        ? { merchantId: first.merchantId, environment: first.environment, currency: first.currency, kinds: this.ledger.lockOrder(first) }
        : { merchantId: null, environment: null, currency: null, kinds: [] },
      transactions: [],
      entries: [],
      now,
    };
    changes.forEach((change, i) => {
      if (change.claim) outcomes.claims.push({ ...this.claims.recordRow(change.claim), i, insert: change.claim.insert });
      else outcomes.unclaimed.push(i);
      if (change.payment) {
        const { next, expectedVersion } = change.payment;
        outcomes.payments.push({ ...paymentToRow(next), i, expected_version: expectedVersion });
      } else outcomes.withoutPayment.push(i);
      for (const event of change.events) outcomes.events.push({ ...eventToRow(event), i });
      const posting = postings[i];
      if (posting) {
        const { transaction, entries } = this.ledger.postingRows(posting, now);
        outcomes.transactions.push({ ...transaction, i });
        for (const entry of entries) outcomes.entries.push({ ...entry, i });
      }
    });
    const counts = (await this.db.executeQuery(paymentOutcomesStatement(outcomes))).rows[0]!;
    const locked = new Set(counts.locked.map(Number));
    const claimed = new Set(counts.claims.map(Number));
    const saved = new Set(counts.payments.map(Number));
    return changes.map((change, i) => outcomeOf(change, { accountsOpen: counts.accounts === 1, versionHeld: locked.has(i), claim: claimed.has(i), payment: saved.has(i) }));
  }

  /**
   * `runOneStatement` for fewer than ARRAY_BATCH_FROM changes, each in its own chain of gates, in
   * the order the transaction makes its writes: the ledger accounts exist (shared), the claim, the version-checked
   * payment; then its events and (for all together) the postings. 'accounts_missing' wrote nothing:
   * the caller runs the transaction instead, which opens them.
   */
  private async runChains(changes: readonly PaymentChange[]): Promise<OneStatementResult[]> {
    const statement = new OneStatement();
    const postings = changes.map((change) => change.ledger?.[0]).filter((posting) => posting !== undefined);
    if (postings.length > 0) this.ledger.addAccountsCheck(statement, 'accounts', postings[0]!);
    const base = statement.currentGate;
    const gates = changes.map((change, index) => {
      statement.from(base);
      if (change.payment) {
        // The version first, with the row locked until the commit: a claim written before a check
        // that then failed would stay written (one statement cannot undo its earlier writes).
        const { next, expectedVersion } = change.payment;
        const where = `"id" = ${statement.param(next.id)} and "version" = ${statement.param(expectedVersion)} and ${statement.guard}`;
        statement.add(`version_${index}`, `select 1 from "payments" where ${where} for update`, { gate: true });
      }
      if (change.claim) this.claims.addTo(statement, `claim_${index}`, change.claim);
      if (change.payment) {
        const { next, expectedVersion } = change.payment;
        const { id: _id, merchant_id: _m, environment: _e, reference: _r, created_at: _c, ...columns } = paymentToRow(next);
        const set = Object.entries({ ...columns, version: expectedVersion + 1 })
          .map(([column, value]) => `${quote(column)} = ${statement.param(value)}`)
          .join(', ');
        const where = `"id" = ${statement.param(next.id)} and "version" = ${statement.param(expectedVersion)} and ${statement.guard}`;
        statement.add(`payment_${index}`, `update "payments" set ${set} where ${where} returning 1`, { gate: true });
      }
      change.events.forEach((event, e) => statement.add(`event_${index}_${e}`, statement.insertRow('events', eventToRow(event))));
      return statement.currentGate;
    });
    if (postings.length > 0) {
      this.ledger.addPostings(
        statement,
        changes.flatMap((change, index) => (change.ledger?.[0] ? [{ entry: change.ledger[0], gate: gates[index] }] : [])),
      );
    }
    let counts: Record<string, number>;
    try {
      counts = (await this.db.executeQuery(statement.compile())).rows[0]!;
    } catch (error) {
      const posting = postings[0];
      if (changes.length === 1 && posting && isCheckViolation(error)) {
        throw insufficientBalance(-posting.lines.filter((l) => l.kind === 'available').reduce((sum, l) => sum + l.amountMinor, 0), posting.currency);
      }
      throw error;
    }
    return changes.map((change, index) =>
      outcomeOf(change, {
        accountsOpen: postings.length === 0 || counts.accounts === 1,
        versionHeld: counts[`version_${index}`] === 1,
        claim: counts[`claim_${index}`] === 1,
        payment: counts[`payment_${index}`] === 1,
      }),
    );
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
