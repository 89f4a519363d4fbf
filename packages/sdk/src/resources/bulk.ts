import type { CreateBulkPaymentParams, QueryParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

function fileName(file: Blob): string {
  const name = (file as Blob & { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : 'batch.csv';
}

/** Bulk payment batches: many payouts checked line by line, then executed by validate(). */
export class Bulk extends Resource {
  /** POST /bulk-payments/ with JSON items, with an Idempotency-Key. */
  create(params: CreateBulkPaymentParams, options?: RequestOptions) {
    return this.call('createBulkPayment', { method: 'POST', path: '/bulk-payments/', body: params, idempotent: true }, options);
  }

  /**
   * POST /bulk-payments/import_csv/: a batch from a CSV file (docs/bulk.md; template() gives the
   * header row). Text is sent as the body (`text/csv`); a Blob or File (a browser's file input,
   * `new Blob([bytes])`, Node's `fs.openAsBlob`) as a `multipart/form-data` upload, its bytes
   * untouched, so a file in UTF-16 or Windows-1252 is read as the server reads an upload.
   */
  importCsv(file: string | Blob, query: QueryParams<'importBulkPaymentCsv'>, options?: RequestOptions) {
    const spec = { method: 'POST', path: '/bulk-payments/import_csv/', query, idempotent: true } as const;
    if (typeof file === 'string') return this.call('importBulkPaymentCsv', { ...spec, body: file, contentType: 'text/csv; charset=utf-8' }, options);
    const form = new FormData();
    form.append('file', file, fileName(file));
    return this.call('importBulkPaymentCsv', { ...spec, body: form }, options);
  }

  /** GET /bulk-payments/{id}/. */
  retrieve(id: string, options?: RequestOptions) {
    return this.call('getBulkPayment', { method: 'GET', path: `/bulk-payments/${segment(id)}/` }, options);
  }

  /** POST /bulk-payments/{id}/validate/: the lines become payouts. */
  validate(id: string, options?: RequestOptions) {
    return this.call('validateBulkPayment', { method: 'POST', path: `/bulk-payments/${segment(id)}/validate/`, idempotent: true }, options);
  }

  /** POST /bulk-payments/{id}/cancel/: a draft batch and all its lines. */
  cancel(id: string, options?: RequestOptions) {
    return this.call('cancelBulkPayment', { method: 'POST', path: `/bulk-payments/${segment(id)}/cancel/`, idempotent: true }, options);
  }

  /** GET /bulk-payments/, newest first. */
  list(query?: QueryParams<'listBulkPayments'>, options?: RequestOptions) {
    return this.paginate('listBulkPayments', '/bulk-payments/', query, options);
  }

  /** GET /bulk-payments/{id}/items/: a batch's lines. */
  listItems(id: string, query?: QueryParams<'listBulkPaymentItems'>, options?: RequestOptions) {
    return this.paginate('listBulkPaymentItems', `/bulk-payments/${segment(id)}/items/`, query, options);
  }

  /** GET /bulk-payments/template.csv: an empty batch file with its header row. */
  template(query?: QueryParams<'getBulkPaymentTemplate'>, options?: RequestOptions): Promise<string> {
    return this.transport.request<string>({ method: 'GET', path: '/bulk-payments/template.csv', query, responseType: 'text' }, options);
  }
}
