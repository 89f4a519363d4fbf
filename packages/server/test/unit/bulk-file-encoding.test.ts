/**
 * The encodings a batch file arrives in (core/bulk/batch-file-encoding.ts, through the CSV
 * reader): files made by iconv in test/fixtures/bulk-encodings, read whole and one byte at a time.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { readBatchCsv, type BatchCsvRow } from '../../src/core/bulk/batch-csv.js';
import { completeUtf8Length, decodeBatchFile } from '../../src/core/bulk/batch-file-encoding.js';
import { AkweError } from '../../src/core/errors/index.js';
import { chunksOf } from '../support/chunks.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bulk-encodings/${name}`, import.meta.url));

async function rowsOf(chunks: Buffer[]): Promise<BatchCsvRow[]> {
  const rows: BatchCsvRow[] = [];
  for await (const row of readBatchCsv(chunks)) rows.push(row);
  return rows;
}

async function textOf(chunks: Array<Buffer | string>, maxBytes = 1_000_000): Promise<string> {
  let text = '';
  for await (const part of decodeBatchFile(chunks, maxBytes)) text += part;
  return text;
}

async function refusal(chunks: Buffer[]): Promise<AkweError> {
  try {
    await rowsOf(chunks);
  } catch (error) {
    assert.ok(error instanceof AkweError, String(error));
    return error;
  }
  assert.fail('the file was accepted');
}

describe('batch file encodings', () => {
  const expected = [
    { beneficiaryName: 'Hélène Kpètè', description: 'Prime de Noël' },
    { beneficiaryName: 'François Gbèdo', description: 'Côte à côte' },
    { beneficiaryName: 'Jérôme Ahouansou', description: 'Reçu été' },
  ];

  for (const name of ['utf8.csv', 'utf8-bom.csv', 'windows-1252.csv', 'utf16le-bom.csv', 'utf16be-bom.csv']) {
    for (const size of [1, 2, 3, 7, 1_000_000]) {
      it(`reads ${name} with every accent intact, in chunks of ${size} byte(s)`, async () => {
        const rows = await rowsOf(chunksOf(fixture(name), size));
        assert.deepEqual(
          rows.map((row) => ({ beneficiaryName: row.line.beneficiaryName, description: row.line.description })),
          expected,
        );
        // The accented French headings were recognised, so every column landed in its field.
        assert.deepEqual(
          rows.map((row) => [row.line.reference, row.line.operator, row.problems]),
          [
            ['ENC-1', 'mtn_bj', []],
            ['ENC-2', 'moov_bj', []],
            ['ENC-3', 'mtn_bj', []],
          ],
        );
      });
    }
  }

  it('drops the byte order mark and keeps a U+FEFF further on as text', async () => {
    assert.equal(await textOf([Buffer.from('\ufeffa\ufeffb', 'utf8')]), 'a\ufeffb');
    assert.equal(await textOf([Buffer.from([0xff, 0xfe]), Buffer.from('a\ufeffb', 'utf16le')]), 'a\ufeffb');
  });

  it('reads a file shorter than the sniffing window, and an empty one', async () => {
    assert.equal(await textOf([Buffer.from('ab')]), 'ab');
    assert.equal(await textOf([Buffer.from([0xe9])]), 'é', 'one Windows-1252 byte');
    assert.equal(await textOf([]), '');
  });

  it('counts the bytes against the limit, byte order mark included', async () => {
    await assert.rejects(textOf([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('abcdefg')], 9), (error: AkweError) => error.code === 'payload_too_large');
    assert.equal(await textOf([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('abcdef')], 9), 'abcdef');
  });

  it('refuses a workbook, a PDF or an image by its first bytes, saying what it is', async () => {
    const xlsx = await refusal([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00])]);
    assert.equal(xlsx.code, 'validation_error');
    assert.match(xlsx.message, /zip archive \(an Excel \.xlsx/);
    assert.match((await refusal([Buffer.from('%PDF-1.7\n')])).message, /PDF document/);
    assert.match((await refusal([Buffer.from([0x89, 0x50]), Buffer.from([0x4e, 0x47, 0x0d, 0x0a])])).message, /PNG image/);
  });

  it('refuses binary garbage and UTF-16 without a byte order mark as not a text file', async () => {
    const garbage = Buffer.from([0x13, 0x00, 0x9f, 0xe2, 0x00, 0x01, 0x41, 0x0a, 0x42, 0x0a]);
    assert.match((await refusal([garbage])).message, /not a CSV text file/);
    const utf16WithoutMark = Buffer.from('nom;telephone\r\nA;1\r\n', 'utf16le');
    assert.match((await refusal(chunksOf(utf16WithoutMark, 5))).message, /UTF-16 without a byte order mark/);
  });

  it('refuses invalid bytes after a UTF-16 byte order mark (a lone surrogate)', async () => {
    const loneSurrogate = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a;b\n', 'utf16le'), Buffer.from([0x00, 0xd8]), Buffer.from('c\n', 'utf16le')]);
    assert.match((await refusal([loneSurrogate])).message, /not valid UTF-16LE/);
  });

  it('holds back only a UTF-8 character cut by the chunk end', () => {
    const e = Buffer.from('é'); // c3 a9
    const euro = Buffer.from('€'); // e2 82 ac
    assert.equal(completeUtf8Length(Buffer.from('ab')), 2);
    assert.equal(completeUtf8Length(Buffer.concat([Buffer.from('a'), e.subarray(0, 1)])), 1);
    assert.equal(completeUtf8Length(Buffer.concat([Buffer.from('a'), e])), 3);
    assert.equal(completeUtf8Length(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)])), 1);
    assert.equal(completeUtf8Length(Buffer.concat([Buffer.from('a'), euro])), 4);
    assert.equal(completeUtf8Length(Buffer.from([0x61, 0xe9])), 1, 'a Windows-1252 é at the end waits to be judged with what follows');
  });
});

describe('control characters in cells', () => {
  it("reports a NUL in a cell as that line's problem with its row, column and code, not as a refused file", async () => {
    const file = Buffer.from(
      'nom;telephone;montant;devise;reference;operateur;metadata.team\nAfi\u0000 Mensah;0197000000;100;XOF;r1;mtn_bj;a\u0001b\nKofi;0197000000;100;XOF;r2;mtn_bj;x\n',
      'utf8',
    );
    const rows = await rowsOf([file]);
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[0]!.problems, [
      { row: 2, field: 'beneficiary_name', code: 'validation_error', message: 'Column A (beneficiary_name) holds a control character (U+0000); retype the cell.' },
      { row: 2, field: 'metadata.team', code: 'validation_error', message: 'Column G (metadata.team) holds a control character (U+0001); retype the cell.' },
    ]);
    assert.equal(rows[0]!.line.beneficiaryName, undefined, 'the unreadable value is not kept');
    assert.deepEqual(rows[1]!.problems, []);
  });

  it('keeps tabs and line breaks inside a quoted cell', async () => {
    const rows = await rowsOf([Buffer.from('nom;telephone;montant;devise;reference;operateur;description\nAfi;1;2;XOF;r;x;"two\r\nlines\there"\n')]);
    assert.equal(rows[0]!.line.description, 'two\r\nlines\there');
    assert.deepEqual(rows[0]!.problems, []);
  });
});
