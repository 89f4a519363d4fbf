// The text of a batch file, whatever encoding a spreadsheet saved it in, decoded as it streams.
// French Excel's plain "CSV" is Windows-1252, its "CSV UTF-8" is UTF-8 with a byte order mark,
// and "Unicode text" is UTF-16 with one; LibreOffice asks and defaults to UTF-8. So:
// - a byte order mark decides: UTF-8, UTF-16 LE or UTF-16 BE (the mark itself is dropped);
// - without one the file is UTF-8 while its bytes are valid UTF-8, and Windows-1252 when they
//   are not. The switch happens at the first invalid byte: everything before it was ASCII, which
//   both read alike, so the text is what decoding the whole file as Windows-1252 gives. A file
//   with well-formed non-ASCII UTF-8 before its first invalid byte mixes two encodings and is
//   refused, since no single reading of it is right (and the answer does not depend on how the
//   bytes were cut into chunks);
// - a workbook (.xlsx, .xls, .ods) or another binary file is refused by its first bytes.
// The byte limit is counted on the file's bytes, BOM included.
import { AkweError } from '../errors/index.js';

export type BatchFileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** The encodings a batch file may be in, in the words the docs and the template route use. */
export const acceptedBatchFileEncodings =
  'UTF-8 (with or without a byte order mark), UTF-16 LE or BE with a byte order mark, or Windows-1252 (what Excel in French saves as plain "CSV")';

export const batchFileError = (message: string) => AkweError.ofField('validation_error', 'file', message);

/** What a merchant whose file was refused should do, in the words of Excel's menu. */
export const saveAsCsvUtf8 = 'Save the sheet as "CSV UTF-8" (Excel: Save as, CSV UTF-8) and send that file.';

const byteOrderMarks: ReadonlyArray<{ bytes: readonly number[]; encoding: BatchFileEncoding }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** Files people send instead of a CSV, known by their first bytes. */
const binarySignatures: ReadonlyArray<{ bytes: readonly number[]; what: string }> = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive (an Excel .xlsx or LibreOffice .ods workbook?)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel .xls workbook' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
];

// Enough bytes to recognise a byte order mark or a signature.
const sniffBytes = 4;

/**
 * The text of the source's bytes, chunk by chunk. Throws `validation_error` (field `file`) for a
 * workbook or binary file, bytes invalid in the encoding chosen, or mixed encodings, and
 * `payload_too_large` past `maxBytes`.
 */
export async function* decodeBatchFile(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, maxBytes: number): AsyncGenerator<string> {
  let bytes = 0;
  // The first bytes, held until there are enough to choose the decoder.
  let head = Buffer.alloc(0);
  let decoder: ChunkDecoder | undefined;
  for await (const chunk of source) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    bytes += data.byteLength;
    if (bytes > maxBytes) {
      throw AkweError.ofField('payload_too_large', 'file', `The file is larger than ${maxBytes} bytes, the limit of one batch; split it into several files.`);
    }
    let text: string;
    if (decoder !== undefined) {
      text = decoder.decode(data);
    } else {
      head = Buffer.concat([head, data]);
      if (head.byteLength < sniffBytes) continue; // a very short first chunk: wait for more
      decoder = decoderFor(head);
      text = decoder.decode(head.subarray(decoder.markLength));
    }
    if (text !== '') yield text;
  }
  if (decoder === undefined) {
    // The whole file is shorter than the sniffing window.
    if (head.byteLength === 0) return;
    decoder = decoderFor(head);
    const text = decoder.decode(head.subarray(decoder.markLength));
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

function startsWith(data: Buffer, bytes: readonly number[]): boolean {
  return bytes.every((byte, index) => data[index] === byte);
}

function decoderFor(head: Buffer): ChunkDecoder {
  const signature = binarySignatures.find(({ bytes }) => startsWith(head, bytes));
  if (signature) throw batchFileError(`This file is ${signature.what}, not a CSV file. ${saveAsCsvUtf8}`);
  const mark = byteOrderMarks.find(({ bytes }) => startsWith(head, bytes));
  if (mark) return new MarkedDecoder(mark.encoding, mark.bytes.length);
  return new Utf8OrWindows1252Decoder();
}

interface ChunkDecoder {
  /** Bytes of the byte order mark at the start of the file (skipped). */
  readonly markLength: number;
  decode(chunk: Buffer): string;
  /** What was held back at the end of the file. */
  end(): string;
}

const invalidBytes = (encoding: string) => batchFileError(`The file is not valid ${encoding} text although it starts with that encoding's byte order mark. ${saveAsCsvUtf8}`);

/** A file whose byte order mark named its encoding. */
class MarkedDecoder implements ChunkDecoder {
  readonly #decoder: InstanceType<typeof TextDecoder>;
  readonly #label: string;

  constructor(
    encoding: BatchFileEncoding,
    readonly markLength: number,
  ) {
    // ignoreBOM: the mark was already skipped, so a U+FEFF later in the text stays text.
    this.#decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
    this.#label = encoding.toUpperCase();
  }

  decode(chunk: Buffer): string {
    try {
      return this.#decoder.decode(chunk, { stream: true });
    } catch {
      throw invalidBytes(this.#label);
    }
  }

  end(): string {
    try {
      return this.#decoder.decode();
    } catch {
      throw invalidBytes(this.#label);
    }
  }
}

/** No byte order mark: UTF-8 while the bytes are valid UTF-8, else Windows-1252 (see the top). */
class Utf8OrWindows1252Decoder implements ChunkDecoder {
  readonly markLength = 0;
  readonly #utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  readonly #windows1252 = new TextDecoder('windows-1252');
  #windows = false;
  #onlyAsciiSoFar = true;
  /** The start of a UTF-8 character cut by the chunk's end, decoded with the next chunk. */
  #carried: Buffer = Buffer.alloc(0);

  decode(chunk: Buffer): string {
    if (this.#windows) return this.#windows1252.decode(chunk);
    const data = this.#carried.byteLength > 0 ? Buffer.concat([this.#carried, chunk]) : chunk;
    const complete = completeUtf8Length(data);
    const text = this.#decodeUtf8(data.subarray(0, complete), data);
    this.#carried = this.#windows ? Buffer.alloc(0) : Buffer.from(data.subarray(complete));
    return text;
  }

  end(): string {
    const carried = this.#carried;
    this.#carried = Buffer.alloc(0);
    // A file ending in the middle of a UTF-8 character is not UTF-8.
    return carried.byteLength === 0 ? '' : this.#decodeUtf8(carried, carried);
  }

  /** `complete` decoded as UTF-8, or, at the first invalid byte of an ASCII file so far, `all` as Windows-1252. */
  #decodeUtf8(complete: Buffer, all: Buffer): string {
    try {
      const text = this.#utf8.decode(complete);
      if (this.#onlyAsciiSoFar && !isAscii(complete)) this.#onlyAsciiSoFar = false;
      return text;
    } catch {
      if (!this.#onlyAsciiSoFar || validUtf8BeforeFirstInvalid(all)) {
        throw batchFileError(`The file mixes two encodings: part of it is UTF-8 and part is not. ${saveAsCsvUtf8}`);
      }
      this.#windows = true;
      return this.#windows1252.decode(all);
    }
  }
}

/** Whether a well-formed multi-byte UTF-8 character comes before the first byte that is not UTF-8. */
function validUtf8BeforeFirstInvalid(data: Buffer): boolean {
  let index = 0;
  while (index < data.byteLength) {
    const byte = data[index]!;
    if (byte < 0x80) {
      index += 1;
      continue;
    }
    const length = utf8SequenceLength(byte);
    if (length === 0 || index + length > data.byteLength) return false;
    for (let next = index + 1; next < index + length; next++) if ((data[next]! & 0xc0) !== 0x80) return false;
    return true;
  }
  return false;
}

/** Bytes in the UTF-8 sequence this lead byte starts (2 to 4), or 0 for a byte no sequence starts with. */
function utf8SequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function isAscii(data: Buffer): boolean {
  for (const byte of data) if (byte >= 0x80) return false;
  return true;
}

/**
 * The length of `data` without a UTF-8 character cut at its end: 1 to 3 trailing bytes that
 * start a longer sequence are held for the next chunk. Anything else, valid or not, is left for
 * the decoder to judge.
 */
export function completeUtf8Length(data: Uint8Array): number {
  const end = data.byteLength;
  for (let index = end - 1; index >= Math.max(0, end - 3); index--) {
    const byte = data[index]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    // A lead byte: held back if its sequence runs past the end. ASCII, or a byte that starts
    // nothing (length 0), cuts nothing.
    const length = utf8SequenceLength(byte);
    return end - index < length ? index : end;
  }
  return end;
}
