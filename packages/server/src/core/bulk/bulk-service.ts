import { notFoundIn } from '../shared/not-found.js';
import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import { insufficientBalance, type LedgerReader } from '../ledger/ledger.js';
import type { Merchant } from '../merchants/merchant.js';
import type { PaymentContext } from '../payments/payment-service.js';
import type { PayoutService } from '../payouts/payout-service.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import { eachConcurrently } from '../shared/concurrently.js';
import { checkMetadata, type Metadata } from '../shared/metadata.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { CheckedBatchFile } from './batch-csv-check.js';
import { BatchLineChecker, type BatchItem, type BatchLineInput } from './batch-lines.js';
import type { BatchLineProblem } from './batch-problems.js';
import type { BulkBatch, BulkBatchItem, BulkBatchSource, BulkItemStatus, BulkStatusTotal } from './bulk-batch.js';
import type { BulkBatchFilters, BulkBatchStore } from './bulk-batch-store.js';

export interface BulkServiceDeps {
  store: BulkBatchStore;
  catalog: OperatorCatalog;
  clock: Clock;
  newId: IdSource;
  /** Lines per batch, JSON or CSV (BULK_MAX_LINES). */
  maxLines: number;
  payouts: PayoutService;
  ledger: LedgerReader;
  /** The batch's merchant, read when the worker executes its lines (its status may have changed since). */
  merchants: { getMerchant(id: string): Promise<Merchant> };
  events: EventFactory;
}

/** Lines read at a time while a batch is executed. */
const EXECUTION_PAGE = 400;
/** Lines made payouts in one transaction (PayoutService.createMany). */
const LINES_PER_GROUP = 100;
/** Groups written at once: the second prepares while the first holds the balance's rows. */
const GROUPS_IN_FLIGHT = 2;

export interface CreateBatchInput {
  name: string;
  description?: string;
  metadata?: Metadata;
  /** The country of lines with a national number and no country of their own. */
  country?: string;
}

/** A batch with what its lines add up to per status (the detail). */
export interface BulkBatchDetail {
  batch: BulkBatch;
  totals: BulkStatusTotal[];
}

/**
 * Bulk payment batches (docs/bulk.md). A batch is checked whole:
 * every problem of every line is reported at once and a batch with any problem is refused (400
 * `validation_error`, nothing stored). A stored batch is a `draft` whose lines are all `pending`.
 */
export class BulkService {
  constructor(private readonly deps: BulkServiceDeps) {}

  /**
   * `POST /bulk-payments/`: lines numbered by their position in `items`, from 1. `earlierProblems`
   * (by row) are what the request's schema already refused in a line; they are reported with the rest.
   */
  async createFromItems(
    ctx: PaymentContext,
    input: CreateBatchInput & { items: BatchLineInput[]; earlierProblems?: ReadonlyMap<number, BatchLineProblem[]> },
    request: RecordedRequest<BulkBatchDetail> = {},
  ): Promise<BulkBatchDetail> {
    this.gate(ctx);
    if (input.items.length > this.deps.maxLines) {
      throw new AkweError('validation_error', `A batch holds at most ${this.deps.maxLines} lines; got ${input.items.length}.`, { field: 'items' });
    }
    const checker = new BatchLineChecker(this.deps.catalog, { defaultCountry: input.country });
    const items: BatchItem[] = [];
    const problems: BatchLineProblem[] = [];
    input.items.forEach((line, index) => {
      const check = checker.check(index + 1, line, input.earlierProblems?.get(index + 1));
      if (check.ok) items.push(check.item);
      else problems.push(...check.problems);
    });
    return this.store(ctx, input, 'api', { items, problems }, 'items', request);
  }

  /** `POST /bulk-payments/import_csv/`: the file was read and checked as it arrived (checkBatchCsv). */
  /**
   * A batch from a checked CSV file. The contract names no batch name for an import, so without
   * one the batch is named after the uploaded file (its name without `.csv`), else after the day
   * and minute of the import (`Import 2026-06-30 14:05 UTC`).
   */
  async createFromCsv(
    ctx: PaymentContext,
    input: Omit<CreateBatchInput, 'name'> & { name?: string; fileName?: string },
    file: CheckedBatchFile,
    request: RecordedRequest<BulkBatchDetail> = {},
  ): Promise<BulkBatchDetail> {
    this.gate(ctx);
    const { fileName, ...rest } = input;
    const name = input.name ?? importedFileName(fileName) ?? `Import ${this.deps.clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return this.store(ctx, { ...rest, name }, 'csv', file, 'file', request);
  }

  async get(ctx: TenantScope, id: string): Promise<BulkBatchDetail> {
    const batch = await this.find(ctx, id);
    return { batch, totals: await this.deps.store.totalsByStatus(batch.id) };
  }

  list(ctx: TenantScope, filters: BulkBatchFilters, page: PageRequest): Promise<Page<BulkBatch>> {
    return this.deps.store.list(ctx, filters, page);
  }

  async items(ctx: TenantScope, id: string, filters: { status?: BulkItemStatus }, page: PageRequest): Promise<Page<BulkBatchItem>> {
    const batch = await this.find(ctx, id);
    return this.deps.store.items(batch.id, filters, page);
  }

  /**
   * `POST /bulk-payments/{id}/validate/`: the merchant's approval. A `draft` whose lines the
   * available balance covers (amounts and fees; else 422 `insufficient_balance` and nothing
   * changes) becomes `processing`, and the answer comes at once: the worker (`followDue`) then
   * makes each `pending` line a payout. Validating a `processing` batch answers it as it is; a
   * finished or cancelled one is 409 `invalid_state_transition`.
   */
  async validate(ctx: PaymentContext, id: string): Promise<BulkBatchDetail> {
    this.gate(ctx);
    const batch = await this.find(ctx, id);
    if (batch.status !== 'draft' && batch.status !== 'processing') throw notValidated(batch);
    if (batch.status === 'draft') {
      const need = batch.totalAmountMinor + batch.totalFeeMinor;
      const available = (await this.deps.ledger.balances(ctx)).find((balance) => balance.currency === batch.currency)?.availableMinor ?? 0;
      if (available < need) throw insufficientBalance(need, batch.currency);
      const now = this.deps.clock.now().toISOString();
      const next: BulkBatch = { ...batch, status: 'processing', validatedAt: now, updatedAt: now, version: batch.version + 1 };
      const totals = await this.deps.store.totalsByStatus(batch.id);
      if (!(await this.deps.store.saveBatch(next, batch.version, [this.deps.events.bulkBatch('processing', next, totals)]))) {
        // Moved meanwhile: by another validation (processing, the same answer) or by a cancel.
        const moved = await this.find(ctx, batch.id);
        if (moved.status !== 'processing') throw notValidated(moved);
      }
    }
    return this.get(ctx, batch.id);
  }

  /**
   * `POST /bulk-payments/{id}/cancel/`: a `draft` becomes `cancelled` with all its lines, and
   * `bulk_payment.cancelled` is emitted, in one transaction. Nothing was reserved, so nothing is
   * released. Cancelling a cancelled batch answers it as it is; a validated one is 409
   * `invalid_state_transition` (its lines are payouts already, each with its own lifecycle).
   */
  async cancel(ctx: TenantScope, id: string): Promise<BulkBatchDetail> {
    const batch = await this.find(ctx, id);
    if (batch.status === 'draft') {
      const now = this.deps.clock.now().toISOString();
      const next: BulkBatch = { ...batch, status: 'cancelled', completedAt: now, updatedAt: now, version: batch.version + 1 };
      // A draft's lines are all pending: cancelled, they add up to the same.
      const totals = (await this.deps.store.totalsByStatus(batch.id)).map((total) => ({ ...total, status: 'cancelled' as const }));
      if (!(await this.deps.store.saveBatch(next, batch.version, [this.deps.events.bulkBatch('cancelled', next, totals)], { cancelPendingLines: true }))) {
        return this.cancel(ctx, id); // moved meanwhile: answer what it became
      }
    } else if (batch.status !== 'cancelled') {
      throw new AkweError('invalid_state_transition', `Batch ${batch.id} is ${batch.status}: only a draft can be cancelled.`);
    }
    return this.get(ctx, batch.id);
  }

  /**
   * The worker's job over batches being executed: makes their `pending` lines payouts, moves lines
   * whose payouts finished, and a batch with no open line to its final status. Returns how much it
   * did (0 when it only waited on operators).
   */
  async followDue(limit = 20): Promise<number> {
    const batches = await this.deps.store.processingBatches(limit);
    let done = 0;
    let firstFailure: { error: unknown } | undefined;
    for (const batch of batches) {
      let worked = 0;
      try {
        worked = (await this.execute(batch)) + (await this.follow(batch));
      } catch (error) {
        // One batch that fails must not hold the others: they are still visited, and the error is
        // thrown once the pass is over (the worker pool logs it).
        firstFailure ??= { error };
      }
      done += worked;
      // To the back of the queue after every visit, even one that found nothing to do: batches
      // waiting on slow payouts must not keep the ones behind them (any merchant's) from running.
      await this.deps.store.visited(batch.id, this.deps.clock.now().toISOString(), worked > 0);
    }
    if (firstFailure) throw firstFailure.error;
    return done;
  }

  /**
   * Makes each `pending` line a payout through the payouts core, in row order, a hundred lines per transaction. The
   * payout's id is the line's id, so a run interrupted between a payout's commit and the line's update finds that
   * payout on the next run (its reference is taken) and links it: no line is paid twice, even
   * with two workers on one batch. A line the payout checks refuse now (the catalog changed, the
   * balance ran short, the account was suspended) is left `invalid` with the problem.
   */
  private async execute(batch: BulkBatch): Promise<number> {
    let executed = 0;
    let ctx: PaymentContext | undefined;
    // Each line at most once per pass: one left pending (its payout made by another worker
    // meanwhile, say) is met again by the next pass, not by this loop over and over.
    let after: string | undefined;
    for (;;) {
      const items = await this.deps.store.pendingItems(batch.id, EXECUTION_PAGE, after);
      if (items.length === 0) return executed;
      after = items.at(-1)!.id;
      ctx ??= { merchantId: batch.merchantId, environment: batch.environment, merchant: await this.deps.merchants.getMerchant(batch.merchantId) };
      const lineCtx = ctx;
      const paidOut: string[] = [];
      try {
        // A group of lines is one transaction of payouts: one commit and one move of the balance
        // for a hundred lines instead of one each (a 10 000-line batch on PostgreSQL).
        const groups = Array.from({ length: Math.ceil(items.length / LINES_PER_GROUP) }, (_, index) => items.slice(index * LINES_PER_GROUP, (index + 1) * LINES_PER_GROUP));
        await eachConcurrently(groups, GROUPS_IN_FLIGHT, async (group) => {
          paidOut.push(...(await this.executeGroup(lineCtx, group)));
        });
      } finally {
        // The page's lines with a payout, in one statement. A crash before it leaves them pending:
        // the next pass meets their payouts (duplicate_reference) and marks them then.
        await this.deps.store.markPaidOut(paidOut, this.deps.clock.now().toISOString());
      }
      executed += items.length;
    }
  }

  /**
   * Makes the lines' payouts (payout id = line id); returns the ids of the lines that have theirs,
   * made now or by an earlier run. A line the payout checks refuse is left `invalid`.
   */
  private async executeGroup(ctx: PaymentContext, items: readonly BulkBatchItem[]): Promise<string[]> {
    const outcomes = await this.deps.payouts.createMany(
      ctx,
      items.map((item) => ({
        id: item.id,
        reference: item.reference,
        amountMinor: item.amountMinor,
        // The fee the merchant saw on the draft and approved, even if the catalog changed since.
        feeMinor: item.feeMinor,
        phone: item.phone,
        country: item.country,
        operator: item.operator,
        recipientLastName: item.beneficiaryName,
        description: item.description ?? undefined,
        metadata: item.metadata,
      })),
    );
    const paidOut: string[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      const item = items[index]!;
      if ('payout' in outcome) {
        paidOut.push(item.id);
        continue;
      }
      const { error } = outcome;
      if (error.code === 'duplicate_reference') {
        // Made by an earlier, interrupted run of this line (same id)? Then it is this line's payout.
        const earlier = await this.deps.payouts.get(ctx, item.id).catch((error: unknown) => {
          // Not found: another line's payout holds the reference. Anything else (the database) is no answer.
          if (error instanceof AkweError && error.code === 'not_found') return undefined;
          throw error;
        });
        if (earlier?.id === item.id) {
          paidOut.push(item.id);
          continue;
        }
      }
      await this.deps.store.markInvalid(item.id, [{ row: item.row, field: error.field ?? 'line', code: error.code, message: error.message }], this.deps.clock.now().toISOString());
    }
    return paidOut;
  }

  /** Moves lines whose payouts finished, and the batch to its final status once no line is open. */
  private async follow(batch: BulkBatch): Promise<number> {
    const now = this.deps.clock.now().toISOString();
    const moved = await this.deps.store.followPayouts(batch.id, now);
    const totals = await this.deps.store.totalsByStatus(batch.id);
    const count = (status: BulkItemStatus) => totals.find((total) => total.status === status)?.count ?? 0;
    if (count('pending') > 0 || count('processing') > 0) return moved;
    const current = await this.deps.store.find({ merchantId: batch.merchantId, environment: batch.environment }, batch.id);
    if (!current || current.status !== 'processing') return moved;
    const paid = count('completed');
    const status = paid === current.itemCount ? 'completed' : paid === 0 ? 'failed' : 'partially_completed';
    const next: BulkBatch = { ...current, status, completedAt: now, updatedAt: now, version: current.version + 1 };
    await this.deps.store.saveBatch(next, current.version, [this.deps.events.bulkBatch(status, next, totals)]);
    return moved + 1;
  }

  /** Live bulk payments need an active, validated merchant, as payouts do. */
  private gate(ctx: PaymentContext): void {
    if (ctx.environment !== 'live') return;
    if (ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
    if (ctx.merchant.kycStatus !== 'validated') throw new AkweError('kyc_required');
  }

  private async store(
    ctx: PaymentContext,
    input: CreateBatchInput,
    source: BulkBatchSource,
    checked: { items: BatchItem[]; problems: BatchLineProblem[] },
    field: 'items' | 'file',
    request: RecordedRequest<BulkBatchDetail>,
  ): Promise<BulkBatchDetail> {
    const metadata = checkMetadata(input.metadata);
    const problems = [...checked.problems];
    const [first] = checked.items;
    // One currency per batch: its totals and the balance it draws on are in that currency.
    for (const item of checked.items) {
      if (first && item.currency !== first.currency) {
        problems.push({
          row: item.row,
          field: 'currency',
          code: 'unsupported_currency',
          message: `A batch pays in one currency: row ${first.row} uses ${first.currency}, this line ${item.currency}.`,
        });
      }
    }
    // A line's reference becomes its payout's, which is unique per merchant and environment.
    const taken = await this.deps.store.existingPayoutReferences(
      ctx,
      checked.items.map((item) => item.reference),
    );
    for (const item of checked.items) {
      if (taken.has(item.reference))
        problems.push({ row: item.row, field: 'reference', code: 'duplicate_reference', message: `A payout with reference ${item.reference} exists already.` });
    }
    if (problems.length > 0 || !first) {
      problems.sort((a, b) => a.row - b.row);
      const rows = new Set(problems.map((problem) => problem.row)).size;
      throw new AkweError('validation_error', `${rows} line${rows === 1 ? '' : 's'} of the batch ${rows === 1 ? 'has' : 'have'} problems; nothing was stored. See details.`, {
        field,
        details: problems.map(({ row, field: lineField, code, message }) => ({ row, field: lineField, code, message })),
      });
    }

    const now = this.deps.clock.now().toISOString();
    const batchId = this.deps.newId();
    const items: BulkBatchItem[] = checked.items.map((item) => ({
      ...item,
      id: this.deps.newId(),
      batchId,
      status: 'pending',
      problems: null,
      payoutId: null,
      failureCode: null,
      createdAt: now,
      updatedAt: now,
    }));
    const totalAmountMinor = items.reduce((sum, item) => sum + item.amountMinor, 0);
    const totalFeeMinor = items.reduce((sum, item) => sum + item.feeMinor, 0);
    const batch: BulkBatch = {
      id: batchId,
      merchantId: ctx.merchantId,
      environment: ctx.environment,
      name: input.name,
      description: input.description ?? null,
      status: 'draft',
      source,
      currency: first.currency,
      itemCount: items.length,
      totalAmountMinor,
      totalFeeMinor,
      metadata,
      validatedAt: null,
      completedAt: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const detail: BulkBatchDetail = { batch, totals: [{ status: 'pending', count: items.length, amountMinor: totalAmountMinor, feeMinor: totalFeeMinor }] };
    // The batch, its lines and the stored answer commit together.
    const claim = finishWrite(request, batch.id, detail);
    await this.deps.store.insert(batch, items, claim);
    reportCommitted(request, claim);
    return detail;
  }

  private async find(ctx: TenantScope, id: string): Promise<BulkBatch> {
    const batch = await this.deps.store.find(ctx, id);
    if (!batch) throw await notFoundIn(ctx, 'bulk payment batch', id, (other) => this.deps.store.find(other, id));
    return batch;
  }
}

function notValidated(batch: BulkBatch): AkweError {
  return new AkweError('invalid_state_transition', `Batch ${batch.id} is ${batch.status}: only a draft is validated.`);
}

/** An uploaded file's name as a batch name: no folders, no `.csv`, no control characters, at most 200 characters. */
function importedFileName(fileName: string | undefined): string | undefined {
  const base = fileName
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.csv$/i, '')
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 200);
  return base ? base : undefined;
}
