// The two ways a batch file reaches POST /bulk-payments/import_csv/: the file as the body
// (`text/csv`) or a form upload (`multipart/form-data`). Both stream the file through the same
// reader and line checks (core/bulk/batch-csv-check.ts), so memory holds the checked lines, never
// the file, and a file past a limit stops being read there.
import busboy from 'busboy';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import { checkBatchCsv, type CheckedBatchFile } from '../../core/bulk/batch-csv-check.js';
import type { BatchCsvLimits } from '../../core/bulk/batch-csv.js';
import { AkweError } from '../../core/errors/index.js';

export const IMPORT_PATH = '/bulk-payments/import_csv/';

/** Room in a multipart body for what surrounds the file: part headers, boundaries, small fields. */
export const multipartOverheadBytes = 64 * 1024;

/**
 * A CSV body, read and checked as it arrived. Its idempotency fingerprint is the file's SHA-256
 * (`toJSON`), so the same file again with the same key replays and another file is 422.
 */
export class CsvUpload {
  constructor(
    readonly checked: CheckedBatchFile,
    private readonly sha256: string,
    private readonly bytes: number,
    /** The multipart part's file name, when the upload gave one (a raw body has none). */
    readonly fileName?: string,
  ) {}

  toJSON() {
    // The file name can name the batch, so it is part of what a replay must repeat.
    return { csv_sha256: this.sha256, csv_bytes: this.bytes, ...(this.fileName === undefined ? {} : { file_name: this.fileName }) };
  }
}

function refuseOtherRoutes(request: FastifyRequest, contentType: string): void {
  if (request.routeOptions.url?.endsWith(IMPORT_PATH) !== true) {
    throw new AkweError('unsupported_media_type', `Send application/json; ${contentType} is for POST ${IMPORT_PATH}.`);
  }
}

/** The batch's `country` query parameter (read before the query is validated: the file is checked as it arrives). */
function batchCountry(request: FastifyRequest): string | undefined {
  const country = (request.query as { country?: unknown } | undefined)?.country;
  return typeof country === 'string' && country !== '' ? country : undefined;
}

export async function readCsvBody(request: FastifyRequest, payload: AsyncIterable<Buffer>, catalog: OperatorCatalog, limits: BatchCsvLimits): Promise<CsvUpload> {
  refuseOtherRoutes(request, 'text/csv');
  return readCsvFile(payload, catalog, limits, batchCountry(request));
}

async function readCsvFile(
  payload: AsyncIterable<Buffer>,
  catalog: OperatorCatalog,
  limits: BatchCsvLimits,
  defaultCountry: string | undefined,
  fileName?: string,
): Promise<CsvUpload> {
  const hash = createHash('sha256');
  let bytes = 0;
  async function* hashed(): AsyncGenerator<Buffer> {
    for await (const chunk of payload) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
  }
  const checked = await checkBatchCsv(hashed(), catalog, limits, { defaultCountry });
  return new CsvUpload(checked, hash.digest('hex'), bytes, fileName);
}

const unreadable = (reason: string) => new AkweError('validation_error', `The multipart body cannot be read: ${reason}.`, { field: 'body' });

/**
 * A multipart upload: exactly one file part (in any field) streams through the reader; other
 * fields are ignored (the batch's name comes from the query, as for a raw body, else from the file's name). The answer is
 * settled by the first of: the file refused (its 4xx), the body over its limit (413), a second
 * file (400), busboy's error (400), the client gone, or the body's end with the file read. On a
 * refusal the rest of the body is drained unread, so the 4xx goes out at once and the socket is
 * freed; nothing has been written.
 */
export function readMultipartCsv(request: FastifyRequest, payload: Readable, catalog: OperatorCatalog, limits: BatchCsvLimits): Promise<CsvUpload> {
  refuseOtherRoutes(request, 'multipart/form-data');
  return new Promise<CsvUpload>((resolve, reject) => {
    let parser: ReturnType<typeof busboy>;
    try {
      // One byte over the limit reaches the reader, which answers 413 as for a raw body.
      parser = busboy({ headers: request.headers, limits: { files: 1, fileSize: limits.maxBytes + 1, fields: 10, fieldSize: 4096, parts: 20 } });
    } catch (error) {
      reject(unreadable((error as Error).message));
      return;
    }
    let settled = false;
    const refuse = (error: unknown) => {
      if (settled) return;
      settled = true;
      payload.unpipe(parser);
      payload.off('data', countBytes);
      parser.removeAllListeners();
      parser.on('error', () => {}); // a late error of the abandoned parser is not the request's
      parser.destroy();
      payload.resume();
      reject(error);
    };

    const maxBodyBytes = limits.maxBytes + multipartOverheadBytes;
    let bodyBytes = 0;
    function countBytes(chunk: Buffer) {
      bodyBytes += chunk.length;
      if (bodyBytes > maxBodyBytes) {
        const message = `The upload is larger than ${maxBodyBytes} bytes: one batch file of at most ${limits.maxBytes} bytes, with little else.`;
        refuse(AkweError.ofField('payload_too_large', 'body', message));
      }
    }

    let file: Promise<CsvUpload> | undefined;
    parser.on('file', (_field, stream, info) => {
      if (file) return void stream.resume();
      file = readCsvFile(stream as AsyncIterable<Buffer>, catalog, limits, batchCountry(request), info.filename || undefined);
      file.catch(refuse);
    });
    parser.on('filesLimit', () => refuse(new AkweError('validation_error', 'The upload holds more than one file: send one CSV file per request.', { field: 'body' })));
    parser.on('error', (error) => refuse(unreadable((error as Error).message)));
    parser.on('close', () => {
      if (file)
        file.then((upload) => {
          if (settled) return;
          settled = true;
          resolve(upload);
        }, refuse);
      else refuse(new AkweError('validation_error', 'The multipart body holds no file: send the CSV as a file field.', { field: 'body' }));
    });
    payload.on('error', (error) => refuse(unreadable(error.message)));
    payload.on('data', countBytes);
    payload.pipe(parser);
  });
}
