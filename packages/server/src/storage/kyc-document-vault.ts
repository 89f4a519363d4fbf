import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { documentTypeOf, SIGNATURE_BYTES, type DocumentType } from '../core/kyc/document-type.js';
import type { KycDocumentFiles } from '../core/kyc/kyc-submission.js';
import { AkweError } from '../core/errors/index.js';
import { looksLikeId } from '../core/shared/ids.js';

/** File layout: MAGIC, the 12-byte IV, the ciphertext, the 16-byte GCM tag. */
const MAGIC = Buffer.from('AKWEKYC1');
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedDocument {
  contentType: DocumentType;
  sizeBytes: number;
  sha256: string;
}

/**
 * KYC documents at rest (docs/dashboard.md "KYC"): `<data dir>/kyc/<merchant id>/<document id>`,
 * each sealed with AES-256-GCM under its own key, derived from the server secret (AKWE_SECRET) and
 * the document id, so a file copied under another document's name does not open. The names on
 * disk are ours (two ids checked as UUIDs), never the client's. A file is written under a
 * temporary name and renamed once whole, so a crash leaves no half file under a real name.
 */
export class KycDocumentVault implements KycDocumentFiles {
  constructor(
    private readonly root: string,
    private readonly serverSecret: () => string,
  ) {}

  /**
   * Reads `source` to the end, refusing it (and removing what was written) when its first bytes
   * are not a PDF, PNG or JPEG (415) or it grows past `maxBytes` (413).
   */
  async seal(merchantId: string, documentId: string, source: AsyncIterable<Buffer>, maxBytes: number): Promise<SealedDocument> {
    const final = this.pathOf(merchantId, documentId);
    const temporary = `${final}.part`;
    await mkdir(join(this.root, merchantId), { recursive: true, mode: 0o700 });
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyOf(documentId), iv);
    const hash = createHash('sha256');
    const file = await open(temporary, 'wx', 0o600);
    let contentType: DocumentType | undefined;
    let head = Buffer.alloc(0);
    let sizeBytes = 0;
    try {
      await file.write(Buffer.concat([MAGIC, iv]));
      for await (let chunk of source) {
        sizeBytes += chunk.length;
        if (sizeBytes > maxBytes) throw AkweError.ofField('document_too_large', 'documents', `A document may be at most ${maxBytes} bytes (KYC_MAX_DOCUMENT_BYTES).`);
        if (contentType === undefined) {
          head = Buffer.concat([head, chunk]);
          if (head.length < SIGNATURE_BYTES) continue;
          contentType = recognised(head);
          chunk = head;
        }
        hash.update(chunk);
        await file.write(cipher.update(chunk));
      }
      // A file shorter than the longest signature can still be a (tiny, surely broken) JPEG: check what came.
      if (contentType === undefined) {
        contentType = recognised(head);
        hash.update(head);
        await file.write(cipher.update(head));
      }
      await file.write(Buffer.concat([cipher.final(), cipher.getAuthTag()]));
      await file.sync();
      await file.close();
      await rename(temporary, final);
      return { contentType, sizeBytes, sha256: hash.digest('hex') };
    } catch (error) {
      await file.close().catch(() => {});
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** The plaintext; fails when the file was altered (the GCM tag does not match). */
  async read(merchantId: string, documentId: string): Promise<Buffer> {
    const sealed = await readFile(this.pathOf(merchantId, documentId));
    if (sealed.length < MAGIC.length + IV_BYTES + TAG_BYTES || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`KYC document ${documentId} is not a sealed file`);
    const iv = sealed.subarray(MAGIC.length, MAGIC.length + IV_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.keyOf(documentId), iv);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(MAGIC.length + IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  }

  async remove(merchantId: string, documentIds: readonly string[]): Promise<void> {
    await Promise.all(documentIds.map((id) => rm(this.pathOf(merchantId, id), { force: true })));
  }

  pathOf(merchantId: string, documentId: string): string {
    if (!looksLikeId(merchantId) || !looksLikeId(documentId)) throw new Error('KYC document paths are made of ids only');
    return join(this.root, merchantId.toLowerCase(), documentId.toLowerCase());
  }

  private keyOf(documentId: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.serverSecret(), documentId.toLowerCase(), 'akwe kyc-document v1', 32));
  }
}

function recognised(head: Buffer): DocumentType {
  const type = documentTypeOf(head);
  if (!type) throw AkweError.ofField('unsupported_document_type', 'documents', 'A document must be a PDF, PNG or JPEG file (recognised by its content, not its name).');
  return type;
}
