// A provider's report as the back office uploads it: a multipart form with one file and the
// fields `provider`, `route` and `date`, as the bulk import's form upload (http/bulk/csv-upload.ts)
// reads its file: busboy, one file, the whole body limited, refusals answered at once with the
// rest of the body drained unread. A report is small (5 MB at most): it is kept whole in memory.
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import { MAX_REPORT_BYTES } from '../../core/reconciliation/report-csv.js';
import { multipartOverheadBytes } from '../bulk/csv-upload.js';

export interface ReportUpload {
  text: string;
  fileName: string | null;
  fields: Partial<Record<'provider' | 'route' | 'date', string>>;
}

const fieldNames = new Set(['provider', 'route', 'date']);
const unreadable = (reason: string) => new AkweError('validation_error', `The multipart body cannot be read: ${reason}.`, { field: 'body' });

export function readReportUpload(request: FastifyRequest, payload: Readable): Promise<ReportUpload> {
  return new Promise<ReportUpload>((resolve, reject) => {
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({ headers: request.headers, limits: { files: 1, fileSize: MAX_REPORT_BYTES + 1, fields: 10, fieldSize: 256, parts: 20 } });
    } catch (error) {
      reject(unreadable((error as Error).message));
      return;
    }
    let settled = false;
    let fileStream: Readable | undefined;
    const refuse = (error: unknown) => {
      if (settled) return;
      settled = true;
      payload.unpipe(parser);
      payload.off('data', countBytes);
      // What the abandoned parser and file stream do next is not the request's: errors swallowed, data drained.
      parser.removeAllListeners();
      parser.on('error', () => {});
      fileStream?.removeAllListeners();
      fileStream?.on('error', () => {});
      fileStream?.resume();
      parser.destroy();
      payload.resume();
      reject(error);
    };
    // A refusal met inside busboy's own write is settled just after it: destroying busboy there breaks its next step.
    let refusal: unknown;
    const refuseSoon = (error: unknown) => {
      if (refusal !== undefined) return;
      refusal = error;
      setImmediate(() => refuse(error));
    };
    let bodyBytes = 0;
    function countBytes(chunk: Buffer) {
      bodyBytes += chunk.length;
      if (bodyBytes > MAX_REPORT_BYTES + multipartOverheadBytes) {
        refuseSoon(AkweError.ofField('payload_too_large', 'body', `The upload is larger than a report of ${MAX_REPORT_BYTES} bytes.`));
      }
    }
    payload.on('data', countBytes);
    const fields: ReportUpload['fields'] = {};
    const chunks: Buffer[] = [];
    let fileName: string | null = null;
    let sawFile = false;
    let fileBytes = 0;
    parser.on('field', (name, value) => {
      if (fieldNames.has(name)) fields[name as keyof ReportUpload['fields']] = value.trim();
    });
    parser.on('file', (_field, stream, info) => {
      sawFile = true;
      fileName = info.filename || null;
      fileStream = stream;
      stream.on('error', (error) => refuseSoon(unreadable(error.message)));
      stream.on('data', (chunk: Buffer) => {
        fileBytes += chunk.length;
        if (fileBytes <= MAX_REPORT_BYTES) chunks.push(chunk);
        else refuseSoon(AkweError.ofField('payload_too_large', 'file', `A report is at most ${MAX_REPORT_BYTES} bytes.`));
      });
    });
    parser.on('filesLimit', () => refuseSoon(new AkweError('validation_error', 'The upload holds more than one file: send one report per request.', { field: 'file' })));
    parser.on('error', (error) => refuseSoon(unreadable((error as Error).message)));
    parser.on('close', () => {
      if (refusal !== undefined) return;
      if (!sawFile) return refuse(AkweError.ofField('validation_error', 'file', 'The form holds no file: send the report as the file field.'));
      const bytes = Buffer.concat(chunks);
      const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
      if (text.includes('\u0000'))
        return refuse(new AkweError('invalid_report', 'The file is not a CSV text file.', { field: 'file', details: [{ field: 'file', message: 'binary content' }] }));
      if (settled) return;
      settled = true;
      resolve({ text, fileName, fields });
    });
    payload.on('error', (error) => refuseSoon(unreadable(error.message)));
    payload.pipe(parser);
  });
}
