import type { Kysely } from 'kysely';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import { IdempotencyClaimLost } from '../../core/idempotency/request-journal.js';
import { insufficientBalance } from '../../core/ledger/ledger.js';
import type { PaymentChange } from '../../core/payments/payment-store.js';
import type { Payment } from '../../core/payments/payment.js';
import { metadataEntries } from '../repositories/metadata-entries.js';
import { isCheckViolation } from '../check-violation.js';
import { addEventInserts, eventsToRows } from '../repositories/event-repository.js';
import type { LedgerRepository } from '../repositories/ledger-repository.js';
import { paymentToRow } from '../repositories/payment-rows.js';
import type { Database } from '../schema.js';
import { OneStatement, quote } from './one-statement.js';
import { paymentOutcomesStatement, type PaymentOutcomes } from './payment-outcomes-statement.js';

export type OneStatementOutcome = 'saved' | 'conflict' | 'accounts_missing';

/**
 * A change these statements write: a payment's version-checked update, or (`insertPayment`) a new
 * payment decided in-process, inserted with its claim, its events and its posting.
 */
export type PostingChange = PaymentChange & { insertPayment?: Payment };
type OneStatementResult = { outcome: OneStatementOutcome } | { error: unknown };

/**
 * What a change's one-statement write came to, from what its gates wrote: nothing at all when the
 * ledger accounts were not all open, else the error or outcome the transaction would have given.
 * The payment's version is checked (and the row locked) before the claim is written, so a stale
 * version writes nothing at all: 'conflict', and the caller reads again (meeting the lost claim
 * then, if it is lost too).
 */
function outcomeOf(change: PostingChange, written: { accountsOpen: boolean; versionHeld: boolean; claim: boolean; payment: boolean }): OneStatementResult {
  if (!written.accountsOpen) return { outcome: 'accounts_missing' };
  if (change.payment && !written.versionHeld) return { outcome: 'conflict' };
  if (change.claim && !written.claim) return { error: new IdempotencyClaimLost() };
  if ((change.payment || change.insertPayment) && !written.payment) return { outcome: 'conflict' };
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
    const paymentId = waiting[index]!.change.payment?.next.id ?? waiting[index]!.change.insertPayment?.id;
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
  waiting: { change: PostingChange; resolve(outcome: OneStatementOutcome): void; reject(error: unknown): void }[];
}

/** Most changes written by one statement to the same ledger accounts (its size stays reasonable). */
const MAX_PHASE_BATCH = 32;
/** From this many changes, an outcome statement carries its values in arrays (runBatch). */
const ARRAY_BATCH_FROM = 4;

/**
 * What the payment repository asks of PostgreSQL's one-statement phases: whether a change fits
 * one statement, and writing it (possibly together with others posting to the same accounts).
 */
export interface PaymentStatementWriter {
  fits(change: PostingChange): boolean;
  /** 'accounts_missing' wrote nothing: the caller runs its transaction instead, which opens them. */
  write(change: PostingChange): Promise<OneStatementOutcome>;
}

/** The idempotency claim writes a one-statement phase carries. */
export interface StatementClaims {
  /** The claim write as a gate of a one-statement phase. */
  addTo(statement: OneStatement, gate: string, write: ClaimWrite): void;
  /** The record the write leaves, every column (the batch's outcome statement). */
  recordRow(write: ClaimWrite): Record<string, unknown>;
}

/**
 * Writes payment changes as single PostgreSQL statements (see one-statement.ts), and batches the
 * changes that post to the same ledger accounts: group commit for the merchant's hot balance rows.
 */
export class PaymentPostingBatcher implements PaymentStatementWriter {
  private readonly postingQueues = new Map<string, PostingQueue>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly claims: StatementClaims,
    private readonly ledger: Pick<LedgerRepository, 'fitsOneStatement' | 'addAccountsCheck' | 'addPostings' | 'accountsKey' | 'postingRows' | 'lockOrder' | 'now'>,
  ) {}

  /** What `write` can take: no refund rows, no metadata rows, at most one posting with one line per account. */
  fits(change: PostingChange): boolean {
    if (change.insertRefund || change.settleRefund) return false;
    if (change.insertPayment && (change.payment || metadataEntries('payment', change.insertPayment).length > 0)) return false;
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
  write(change: PostingChange): Promise<OneStatementOutcome> {
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
  private runOneStatement(changes: readonly PostingChange[]): Promise<OneStatementResult[]> {
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
  private async runBatch(changes: readonly PostingChange[]): Promise<OneStatementResult[]> {
    const now = this.ledger.now();
    const postings = changes.map((change) => change.ledger?.[0]);
    const first = postings.find((posting) => posting !== undefined);
    const outcomes: PaymentOutcomes = {
      claims: [],
      unclaimed: [],
      payments: [],
      newPayments: [],
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
      } else {
        // A new payment goes on as a change without an update does: once its claim is written.
        if (change.insertPayment) outcomes.newPayments.push({ ...paymentToRow(change.insertPayment), i });
        outcomes.withoutPayment.push(i);
      }
      for (const row of eventsToRows(change.events)) outcomes.events.push({ ...row, i });
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
  private async runChains(changes: readonly PostingChange[]): Promise<OneStatementResult[]> {
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
      if (change.insertPayment) statement.add(`payment_${index}`, statement.insertRow('payments', paymentToRow(change.insertPayment), '1'), { gate: true });
      if (change.payment) {
        const { next, expectedVersion } = change.payment;
        const { id: _id, merchant_id: _m, environment: _e, reference: _r, created_at: _c, ...columns } = paymentToRow(next);
        const set = Object.entries({ ...columns, version: expectedVersion + 1 })
          .map(([column, value]) => `${quote(column)} = ${statement.param(value)}`)
          .join(', ');
        const where = `"id" = ${statement.param(next.id)} and "version" = ${statement.param(expectedVersion)} and ${statement.guard}`;
        statement.add(`payment_${index}`, `update "payments" set ${set} where ${where} returning 1`, { gate: true });
      }
      addEventInserts(statement, `event_${index}`, change.events);
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
}
