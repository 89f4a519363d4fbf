/** The document types KYC accepts, recognised by their first bytes (a name or a declared type proves nothing). */
export const documentTypes = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentType = (typeof documentTypes)[number];

const signatures: ReadonlyArray<{ type: DocumentType; bytes: readonly number[] }> = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** Bytes needed to recognise any accepted type. */
export const SIGNATURE_BYTES = 8;

/** The type the file's first bytes show, or undefined when they are none of PDF, PNG, JPEG. */
export function documentTypeOf(head: Uint8Array): DocumentType | undefined {
  return signatures.find((s) => s.bytes.every((byte, i) => head[i] === byte))?.type;
}

export const extensionOf: Record<DocumentType, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' };
