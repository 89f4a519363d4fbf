/** Small files with the real first bytes of a PDF, PNG and JPEG, and a multipart body builder for KYC uploads. */
import { randomBytes } from 'node:crypto';

export const pdfFile = (label = 'pdf') => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(`% ${label} ${randomBytes(8).toString('hex')}\n1 0 obj << >> endobj\n%%EOF\n`)]);
export const pngFile = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
export const jpegFile = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]);

export interface Part {
  name: string;
  /** A file part when given. */
  filename?: string;
  contentType?: string;
  value: string | Buffer;
}

/** A multipart/form-data body (what a browser's FormData sends). */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----akwe-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const companyFields = (overrides: Record<string, string> = {}): Part[] =>
  Object.entries({
    legal_name: 'Boulangerie Sainte-Rita SARL',
    registration_number: 'RB/COT/24 B 12345',
    country: 'BJ',
    address: 'Lot 12, Sainte-Rita, Cotonou',
    representative_name: 'Awa Koffi',
    ...overrides,
  }).map(([name, value]) => ({ name, value }));

/** The three required documents, a PDF, a PNG and a JPEG. */
export const requiredDocuments = (): Part[] => [
  { name: 'registration_certificate', filename: 'rccm.pdf', contentType: 'application/pdf', value: pdfFile('rccm') },
  { name: 'representative_id', filename: 'cni.png', contentType: 'image/png', value: pngFile() },
  { name: 'proof_of_address', filename: 'facture.jpg', contentType: 'image/jpeg', value: jpegFile() },
];
