/**
 * CSV exports of a merchant's payments, payouts and balance transactions (docs/exports.md). The
 * file is produced page by page: each keyset page is read only when the previous one has been
 * taken by the reader (the HTTP response, which takes it when the client keeps up), so memory
 * holds one page whatever the size of the export, and a reader that stops reading (a client gone)
 * stops the queries.
 */
import type { PaymentStatus } from '../payments/payment.js';
import type { PayoutStatus } from '../payouts/payout.js';
import type { TenantScope } from '../shared/environment.js';
import { AkweError } from '../errors/index.js';
import type { BulkItemStatus } from '../bulk/bulk-batch.js';
import { looksLikeId } from '../shared/ids.js';
import { balanceTransactionColumns, batchLineColumns, paymentColumns, payoutColumns, type Column } from './export-columns.js';
import { csvDialects, csvLine, csvPreamble, type CsvDialect, type CsvDialectName } from './csv-cells.js';
import { exportPeriod } from './export-period.js';
import type { ExportFilters, ExportPageRequest, ExportStore } from './export-store.js';

export const exportKinds = ['payments', 'payouts', 'balance-transactions', 'batch-lines'] as const;
export type ExportKind = (typeof exportKinds)[number];

/** Rows per database read: big enough that round trips do not dominate, small enough to stay light. */
export const DEFAULT_EXPORT_PAGE_SIZE = 1000;

export interface ExportQuery {
  from?: string;
  to?: string;
  /** Payments, payouts and batch lines only, in the contract's casing (checked by the edge). */
  status?: string;
  /** Batch lines only: that batch's lines (in row order); absent: every batch's. */
  batch_id?: string;
  /** `semicolon`: the French Excel variant (semicolons and a byte order mark); default `comma`. */
  delimiter?: CsvDialectName;
}

export interface CsvExport {
  fileName: string;
  /** The file's text: the header line, then one chunk per page. Pulled, never pushed. */
  chunks: AsyncGenerator<string, void, undefined>;
}

export async function* csvChunks<T extends { id: string }>(
  columns: readonly Column<T>[],
  readPage: (page: ExportPageRequest) => Promise<T[]>,
  pageSize: number,
  dialect: CsvDialect = csvDialects.comma,
): AsyncGenerator<string, void, undefined> {
  yield (
    csvPreamble(dialect) +
    csvLine(
      columns.map((column) => column.heading),
      dialect,
    )
  );
  let after: string | undefined;
  for (;;) {
    const rows = await readPage({ after, limit: pageSize });
    if (rows.length > 0)
      yield rows
        .map((row) =>
          csvLine(
            columns.map((column) => column.cell(row)),
            dialect,
          ),
        )
        .join('');
    // A short page is the last; a full one may be too, which the next (empty) read tells.
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]!.id;
  }
}

export class ExportService {
  constructor(
    private readonly store: ExportStore,
    private readonly pageSize: number = DEFAULT_EXPORT_PAGE_SIZE,
  ) {
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error(`export page size must be a positive integer, got ${pageSize}`);
  }

  /**
   * Checks the query at once (a bad period throws before anything is read; a batch that is not
   * the scope's is 404 before a byte is sent), then returns the lazy file.
   */
  async csv(scope: TenantScope, kind: ExportKind, query: ExportQuery): Promise<CsvExport> {
    const period = exportPeriod(query);
    const batchId = kind === 'batch-lines' ? await this.checkedBatch(scope, query.batch_id) : undefined;
    const fileName = `akwe-${kind}${batchId ? `-${batchId}` : ''}-${scope.environment}-${period.fromLabel}-${period.toLabel}.csv`;
    const filters: ExportFilters<never> = { from: period.from, to: period.to };
    const { store, pageSize } = this;
    const dialect = csvDialects[query.delimiter ?? 'comma'];
    switch (kind) {
      case 'payments': {
        const byStatus = { ...filters, status: query.status as PaymentStatus | undefined };
        return { fileName, chunks: csvChunks(paymentColumns, (page) => store.paymentPage(scope, byStatus, page), pageSize, dialect) };
      }
      case 'payouts': {
        const byStatus = { ...filters, status: query.status as PayoutStatus | undefined };
        return { fileName, chunks: csvChunks(payoutColumns, (page) => store.payoutPage(scope, byStatus, page), pageSize, dialect) };
      }
      case 'balance-transactions':
        return { fileName, chunks: csvChunks(balanceTransactionColumns, (page) => store.balanceTransactionPage(scope, filters, page), pageSize, dialect) };
      case 'batch-lines': {
        const lineFilters = { ...filters, status: query.status as BulkItemStatus | undefined, batchId };
        return { fileName, chunks: csvChunks(batchLineColumns, (page) => store.batchLinePage(scope, lineFilters, page), pageSize, dialect) };
      }
    }
  }

  private async checkedBatch(scope: TenantScope, batchId: string | undefined): Promise<string | undefined> {
    if (batchId === undefined) return undefined;
    if (!looksLikeId(batchId)) throw AkweError.ofField('validation_error', 'batch_id', 'batch_id must be the id of a bulk batch.');
    const id = batchId.toLowerCase();
    if (!(await this.store.hasBatch(scope, id))) throw new AkweError('not_found', `No bulk batch ${batchId} in this environment.`);
    return id;
  }
}
