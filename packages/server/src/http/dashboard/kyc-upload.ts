// A KYC submission arrives as one multipart/form-data body: the company's details as text fields
// and each document as a file field named by its kind. Each file is sealed to disk as it streams
// (storage/kyc-document-vault.ts), its type read from its first bytes and its size counted, so
// memory never holds a document; a refusal removes every file the body had written.
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { AkweError } from '../../core/errors/index.js';
import { isDocumentKind, MAX_DOCUMENTS, documentKinds } from '../../core/kyc/kyc-submission.js';
import type { UploadedDocument } from '../../core/kyc/kyc-service.js';
import type { IdSource } from '../../core/shared/ids.js';
import type { KycDocumentVault } from '../../storage/kyc-document-vault.js';

export interface KycUpload {
  fields: Record<string, string>;
  documents: UploadedDocument[];
}

/** Room in the body for the text fields, part headers and boundaries. */
const OVERHEAD_BYTES = 64 * 1024;
const FIELD_BYTES = 2000;

const unreadable = (reason: string) => new AkweError('validation_error', `The multipart body cannot be read: ${reason}.`, { field: 'body' });

/** What the client called the file, kept for reviewers only: no path, no control characters, bounded. */
function displayName(name: string | undefined): string | null {
  if (!name) return null;
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[\\/]/).at(-1) ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base.length === 0 ? null : base.slice(0, 200);
}

export function readKycUpload(
  headers: Record<string, string | string[] | undefined>,
  payload: Readable,
  target: { merchantId: string; vault: KycDocumentVault; maxBytes: number; newId: IdSource },
): Promise<KycUpload> {
  return new Promise<KycUpload>((resolve, reject) => {
    let parser: ReturnType<typeof busboy>;
    try {
      // busboy stops a file one byte past the limit; the vault sees that byte and answers 413.
      parser = busboy({
        headers: headers as Record<string, string>,
        limits: { files: MAX_DOCUMENTS, fileSize: target.maxBytes + 1, fields: 20, fieldSize: FIELD_BYTES, parts: 40 },
      });
    } catch (error) {
      reject(unreadable((error as Error).message));
      return;
    }
    const fields: Record<string, string> = {};
    const streams: Readable[] = [];
    const sealing: Array<Promise<UploadedDocument>> = [];
    let settled = false;

    /** Stops reading, waits for the files under way to stop, removes every file written, then refuses. */
    const refuse = (error: unknown) => {
      if (settled) return;
      settled = true;
      payload.unpipe(parser);
      payload.off('data', countBytes);
      parser.removeAllListeners();
      parser.on('error', () => {}); // a late error of the abandoned parser is not the request's
      for (const stream of streams) stream.destroy(new Error('upload refused'));
      parser.destroy();
      payload.resume();
      void Promise.allSettled(sealing).then(async (outcomes) => {
        const written = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.id] : []));
        await target.vault.remove(target.merchantId, written).catch(() => {});
        reject(error);
      });
    };

    const maxBodyBytes = MAX_DOCUMENTS * (target.maxBytes + 1) + OVERHEAD_BYTES;
    let bodyBytes = 0;
    function countBytes(chunk: Buffer) {
      bodyBytes += chunk.length;
      if (bodyBytes > maxBodyBytes) refuse(AkweError.ofField('payload_too_large', 'body', `The upload is larger than ${maxBodyBytes} bytes.`));
    }

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return refuse(AkweError.ofField('validation_error', name, `${name} is too long`));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      streams.push(stream);
      // Destroyed on a refusal: its error is the vault's to see, or no one's.
      stream.on('error', () => {});
      // A browser sends an empty part (no file name) for a file input left empty: nothing was chosen.
      if (!info.filename) {
        stream.resume();
        return;
      }
      if (!isDocumentKind(name)) {
        refuse(AkweError.ofField('validation_error', name, `A document's field name is its kind: one of ${documentKinds.join(', ')}.`));
        return;
      }
      const id = target.newId();
      const sealed = target.vault
        .seal(target.merchantId, id, stream, target.maxBytes)
        .then((document): UploadedDocument => ({ id, kind: name, originalName: displayName(info.filename), ...document }));
      sealing.push(sealed);
      sealed.catch(refuse);
    });
    parser.on('filesLimit', () => refuse(new AkweError('too_many_documents', `At most ${MAX_DOCUMENTS} documents per submission.`, { field: 'documents' })));
    parser.on('fieldsLimit', () => refuse(unreadable('too many fields')));
    parser.on('partsLimit', () => refuse(unreadable('too many parts')));
    parser.on('error', (error) => refuse(unreadable((error as Error).message)));
    parser.on('close', () => {
      Promise.all(sealing).then((documents) => {
        if (settled) return;
        settled = true;
        resolve({ fields, documents });
      }, refuse);
    });
    payload.on('error', (error) => refuse(unreadable(error.message)));
    payload.on('data', countBytes);
    payload.pipe(parser);
  });
}
