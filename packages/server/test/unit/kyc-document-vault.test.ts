/** KYC documents at rest: recognised by their first bytes, sealed so that the file is neither readable nor changeable. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { documentTypeOf } from '../../src/core/kyc/document-type.js';
import { newId } from '../../src/core/shared/ids.js';
import { KycDocumentVault } from '../../src/storage/kyc-document-vault.js';
import { jpegFile, pdfFile, pngFile } from '../support/kyc-files.js';

async function* chunks(buffer: Buffer, size = 7): AsyncGenerator<Buffer> {
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

describe('KYC document types', () => {
  it('knows PDF, PNG and JPEG by their first bytes, and nothing else', () => {
    assert.equal(documentTypeOf(pdfFile()), 'application/pdf');
    assert.equal(documentTypeOf(pngFile()), 'image/png');
    assert.equal(documentTypeOf(jpegFile()), 'image/jpeg');
    for (const other of ['GIF89a', '<html>', 'PK\u0003\u0004', 'MZ', ' %PDF-1.7', '']) assert.equal(documentTypeOf(Buffer.from(other)), undefined, other);
  });
});

describe('KYC document vault', () => {
  const root = mkdtempSync(join(tmpdir(), 'akwe-vault-'));
  const vault = new KycDocumentVault(root, () => 'a-server-secret-of-at-least-32-characters');
  const merchantId = newId();
  after(() => rmSync(root, { recursive: true, force: true }));

  it('seals a file streamed in small chunks and reads it back whole', async () => {
    const file = pdfFile('vault');
    const id = newId();
    const sealed = await vault.seal(merchantId, id, chunks(file), 1_000_000);
    assert.equal(sealed.contentType, 'application/pdf');
    assert.equal(sealed.sizeBytes, file.length);
    assert.deepEqual(await vault.read(merchantId, id), file);
    assert.equal(readFileSync(vault.pathOf(merchantId, id)).includes(file.subarray(0, 20)), false);
  });

  it('refuses a file that is not a PDF, PNG or JPEG, or too big, and leaves nothing behind', async () => {
    await assert.rejects(vault.seal(merchantId, newId(), chunks(Buffer.from('<html>hello</html>')), 1000), { code: 'unsupported_document_type' });
    await assert.rejects(vault.seal(merchantId, newId(), chunks(Buffer.concat([pngFile(), Buffer.alloc(1000)])), 1000), { code: 'document_too_large' });
    await assert.rejects(vault.seal(merchantId, newId(), chunks(Buffer.from([0xff, 0xd8])), 1000), { code: 'unsupported_document_type' });
    assert.deepEqual(
      readdirSync(join(root, merchantId)).filter((name) => name.endsWith('.part')),
      [],
    );
  });

  it('does not open a file that was altered, or moved under another document’s name', async () => {
    const first = newId();
    const second = newId();
    await vault.seal(merchantId, first, chunks(jpegFile()), 1_000_000);
    await vault.seal(merchantId, second, chunks(jpegFile()), 1_000_000);
    const path = vault.pathOf(merchantId, first);
    const bytes = readFileSync(path);
    bytes[bytes.length - 20]! ^= 1;
    writeFileSync(path, bytes);
    await assert.rejects(vault.read(merchantId, first));
    renameSync(vault.pathOf(merchantId, second), path);
    await assert.rejects(vault.read(merchantId, first));
  });

  it('never makes a path from anything but ids', () => {
    assert.throws(() => vault.pathOf(merchantId, '../../etc/passwd'));
    assert.throws(() => vault.pathOf('..', newId()));
  });
});
