import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import type { PaymentContext } from '../payments/payment-service.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
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
}

export interface CreateBatchInput {
  name: string;
  description?: string;
  metadata?: Metadata;
}

/** A batch with what its lines add up to per status (the detail). */
export interface BulkBatchDetail {
  batch: BulkBatch;
  totals: BulkStatusTotal[];
}

/**
 * Bulk payment batches (SPEC.md "Bulk payment batch", docs/bulk.md). A batch is checked whole:
 * every problem of every line is reported at once and a batch with any problem is refused (400
 * `validation_error`, nothing stored). A stored batch is a `draft` whose lines are all `pending`.
 */
export class BulkService {
  constructor(private readonly deps: BulkServiceDeps) {}

  /** `POST /bulk-payments/`: lines numbered by their position in `items`, from 1. */
  async createFromItems(ctx: PaymentContext, input: CreateBatchInput & { items: BatchLineInput[] }, request: RecordedRequest<BulkBatchDetail> = {}): Promise<BulkBatchDetail> {
    this.gate(ctx);
    if (input.items.length > this.deps.maxLines) {
      throw new AkweError('validation_error', `A batch holds at most ${this.deps.maxLines} lines; got ${input.items.length}.`, { field: 'items' });
    }
    const checker = new BatchLineChecker(this.deps.catalog);
    const items: BatchItem[] = [];
    const problems: BatchLineProblem[] = [];
    input.items.forEach((line, index) => {
      const check = checker.check(index + 1, line);
      if (check.ok) items.push(check.item);
      else problems.push(...check.problems);
    });
    return this.store(ctx, input, 'api', { items, problems }, 'items', request);
  }

  /** `POST /bulk-payments/import_csv/`: the file was read and checked as it arrived (checkBatchCsv). */
  async createFromCsv(ctx: PaymentContext, input: CreateBatchInput, file: CheckedBatchFile, request: RecordedRequest<BulkBatchDetail> = {}): Promise<BulkBatchDetail> {
    this.gate(ctx);
    return this.store(ctx, input, 'csv', file, 'file', request);
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

  /** PRODUCT.md "Accounts and gating": live bulk payments need an active, validated merchant, as payouts do. */
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
        problems.push({ row: item.row, field: 'currency', code: 'unsupported_currency', message: `A batch pays in one currency: row ${first.row} uses ${first.currency}, this line ${item.currency}.` });
      }
    }
    // A line's reference becomes its payout's, which is unique per merchant and environment.
    const taken = await this.deps.store.existingPayoutReferences(ctx, checked.items.map((item) => item.reference));
    for (const item of checked.items) {
      if (taken.has(item.reference)) problems.push({ row: item.row, field: 'reference', code: 'duplicate_reference', message: `A payout with reference ${item.reference} exists already.` });
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
      id: this.deps.newId(),
      batchId,
      row: item.row,
      beneficiaryName: item.beneficiaryName,
      phone: item.phone,
      amountMinor: item.amountMinor,
      feeMinor: item.feeMinor,
      currency: item.currency,
      country: item.country,
      operator: item.operator,
      reference: item.reference,
      description: item.description,
      metadata: item.metadata,
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
    if (!batch) throw new AkweError('not_found', `No bulk payment batch ${id}.`);
    return batch;
  }
}
