import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AkweError } from '../../src/core/errors/index.js';
import { delimiterOf, readBatchCsv, readBatchCsvText, type BatchCsvRow, type BatchCsvSource } from '../../src/core/bulk/batch-csv.js';
import { chunksOf } from '../support/chunks.js';

async function readAll(content: string | Buffer, limits = {}): Promise<BatchCsvRow[]> {
  const rows: BatchCsvRow[] = [];
  for await (const row of readBatchCsvText(content, limits)) rows.push(row);
  return rows;
}

async function readSource(source: BatchCsvSource, limits = {}): Promise<BatchCsvRow[]> {
  const rows: BatchCsvRow[] = [];
  for await (const row of readBatchCsv(source, limits)) rows.push(row);
  return rows;
}

/** Asserts the file is refused as a whole and returns the error for further checks. */
async function assertFileRefused(content: string | Buffer, code: string, message: RegExp, limits = {}): Promise<AkweError> {
  let caught: unknown;
  try {
    await readAll(content, limits);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof AkweError, `expected an AkweError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  assert.match(caught.message, message);
  assert.ok(caught.details !== undefined && caught.details.length > 0, 'a file error lists its details');
  return caught;
}

const englishHeader = 'beneficiary_name,phone,amount,currency,reference,country,operator,description';

describe('readBatchCsv: delimiters, encoding, quoting, line ends', () => {
  it('reads a comma file with LF line ends; row 2 is the first line after the header', async () => {
    const rows = await readAll(`${englishHeader}\nAfi Mensah,0197000000,2500000,XOF,pay-1,BJ,mtn_bj,June\nKofi Ade,90000000,1000000,XOF,pay-2,TG,tmoney_tg,\n`);
    assert.deepEqual(rows, [
      {
        row: 2,
        problems: [],
        line: {
          beneficiaryName: 'Afi Mensah',
          phone: '0197000000',
          amount: '2500000',
          currency: 'XOF',
          reference: 'pay-1',
          country: 'BJ',
          operator: 'mtn_bj',
          description: 'June',
        },
      },
      {
        row: 3,
        problems: [],
        line: { beneficiaryName: 'Kofi Ade', phone: '90000000', amount: '1000000', currency: 'XOF', reference: 'pay-2', country: 'TG', operator: 'tmoney_tg' },
      },
    ]);
  });

  it('reads a semicolon file with CRLF line ends and a BOM, French headings in another order and case', async () => {
    const file = '\ufeffRéférence ; MONTANT;Devise;Téléphone;Nom bénéficiaire;Pays;Opérateur;Libellé\r\npay-1;2500000;XOF;0197000000;Afi Mensah;BJ;mtn_bj;Salaire, juin\r\n';
    assert.deepEqual(await readAll(file), [
      {
        row: 2,
        problems: [],
        line: {
          reference: 'pay-1',
          amount: '2500000',
          currency: 'XOF',
          phone: '0197000000',
          beneficiaryName: 'Afi Mensah',
          country: 'BJ',
          operator: 'mtn_bj',
          description: 'Salaire, juin',
        },
      },
    ]);
  });

  it('accepts every documented French heading', async () => {
    const file = 'nom;telephone;montant;monnaie;ref;pays;operateur;motif\nA;1;2;XOF;r;BJ;x;d\n';
    const [row] = await readAll(file);
    assert.deepEqual(Object.keys(row!.line).sort(), ['amount', 'beneficiaryName', 'country', 'currency', 'description', 'operator', 'phone', 'reference']);
    const others = 'beneficiaire;tel;montant;devise;reference;pays;operateur;libelle\nA;1;2;XOF;r;BJ;x;d\n';
    assert.equal((await readAll(others)).length, 1);
  });

  it('keeps delimiters, doubled quotes and line breaks inside quoted cells, and numbers rows as a spreadsheet does', async () => {
    const file = [
      'beneficiary_name;phone;amount;currency;reference;operator;description',
      '"Mensah; Afi";0197000000;100000;XOF;a;mtn_bj;"She said ""merci"""',
      'Kofi;0197000001;100000;XOF;b;mtn_bj;"two\r\nlines"',
      'Ama;0197000002;100000;XOF;c;mtn_bj;after',
    ].join('\r\n');
    const rows = await readAll(file);
    assert.deepEqual(
      rows.map((r) => [r.row, r.line.beneficiaryName, r.line.description]),
      [
        [2, 'Mensah; Afi', 'She said "merci"'],
        [3, 'Kofi', 'two\r\nlines'],
        [4, 'Ama', 'after'], // one row further, though the file has two more lines
      ],
    );
  });

  it('reads LF, CRLF and lone CR line ends mixed in one file', async () => {
    const file = 'nom;telephone;montant;devise;reference;operateur\nA;1;1;XOF;a;x\r\nB;1;1;XOF;b;x\rC;1;1;XOF;c;x';
    assert.deepEqual(
      (await readAll(file)).map((r) => [r.row, r.line.beneficiaryName, r.line.operator]),
      [
        [2, 'A', 'x'],
        [3, 'B', 'x'],
        [4, 'C', 'x'],
      ],
    );
  });

  it('takes a quote inside an unquoted cell as text, and a comma in a semicolon file as text', async () => {
    const [row] = await readAll('nom;telephone;montant;devise;reference;operateur\nKossi "Papa" Mensah, fils;0197000000;100000;XOF;a;mtn_bj\n');
    assert.equal(row!.line.beneficiaryName, 'Kossi "Papa" Mensah, fils');
  });

  it('picks the delimiter from the header row only, ignoring quoted ones', () => {
    assert.equal(delimiterOf('a;b;c'), ';');
    assert.equal(delimiterOf('a,b,c'), ',');
    assert.equal(delimiterOf('"a,b,c";d;e'), ';');
    assert.equal(delimiterOf('"a;b;c",d'), ',');
    assert.equal(delimiterOf('phone'), ',');
  });

  it('looks only at the header row for the delimiter, not at the rows read with it', async () => {
    const name = 'A;'.repeat(30); // more semicolons than the whole file has commas
    const [row] = await readAll(`${englishHeader}\n${name},0197000000,100000,XOF,a,BJ,mtn_bj,\n`);
    assert.equal(row!.line.beneficiaryName, name);
  });

  it('skips blank rows (also the ;;; ones spreadsheets leave) but keeps counting them', async () => {
    const file = 'nom;telephone;montant;devise;reference;operateur\nA;0197000000;100000;XOF;a;mtn_bj\n\n;;;;;\nB;0197000001;100000;XOF;b;mtn_bj\n;;;;;\n';
    assert.deepEqual(
      (await readAll(file)).map((r) => [r.row, r.line.beneficiaryName]),
      [
        [2, 'A'],
        [5, 'B'],
      ],
    );
  });

  it('reads the same rows whatever the chunk boundaries (one byte at a time through a multi-byte character and CRLF)', async () => {
    const file = Buffer.from(
      '\ufeffnom;téléphone;montant;devise;référence;opérateur\r\nAfi Zoé;0197000000;100000;XOF;a;mtn_bj\r\nÉlodie;0197000001;100000;XOF;b;mtn_bj\r\n',
      'utf8',
    );
    const oneByteAtATime = Array.from(file, (byte) => Buffer.from([byte]));
    assert.deepEqual(await readSource(oneByteAtATime), await readAll(file));
    assert.deepEqual(
      (await readSource(oneByteAtATime)).map((r) => r.line.beneficiaryName),
      ['Afi Zoé', 'Élodie'],
    );
  });

  it('trims cells and leaves empty cells out', async () => {
    const [row] = await readAll('nom,telephone,montant,devise,reference,operateur,pays\n  Afi  , 0197000000 ,100000,XOF,a,mtn_bj,  \n');
    assert.deepEqual(row!.line, { beneficiaryName: 'Afi', phone: '0197000000', amount: '100000', currency: 'XOF', reference: 'a', operator: 'mtn_bj' });
  });
});

describe('readBatchCsv: metadata columns and cells without heading', () => {
  it('reads metadata.<key> columns into the line metadata, keeping the key case and leaving empty cells out', async () => {
    const file =
      'nom,telephone,montant,devise,reference,operateur,metadata.Team,Métadonnées.site\nA,0197000000,100000,XOF,a,mtn_bj,North,Cotonou\nB,0197000001,100000,XOF,b,mtn_bj,,\n';
    const rows = await readAll(file);
    assert.deepEqual(
      rows.map((r) => r.line.metadata),
      [{ Team: 'North', site: 'Cotonou' }, undefined],
    );
  });

  it('reports a value under an empty heading or past the last heading as a problem of its row, ignores empty ones', async () => {
    const file = 'nom,telephone,montant,devise,reference,operateur,\nA,0197000000,100000,XOF,a,mtn_bj,,\nB,0197000001,100000,XOF,b,mtn_bj,stray,also\n';
    const rows = await readAll(file);
    assert.deepEqual(rows[0]!.problems, []);
    assert.deepEqual(
      rows[1]!.problems.map((p) => [p.row, p.field, p.code]),
      [
        [3, 'column G', 'validation_error'],
        [3, 'column H', 'validation_error'],
      ],
    );
  });
});

describe('readBatchCsv: file-level errors', () => {
  it('names every header problem at once: unknown, duplicated and missing columns', async () => {
    const error = await assertFileRefused('nom;telefone;montant;amount;reference;pays\nA;1;2;3;r;BJ\n', 'validation_error', /header row has 4 problem/);
    assert.equal(error.status, 400);
    assert.deepEqual(
      error.details!.map((d) => d.field),
      ['telefone', 'amount', 'phone', 'currency'],
    );
    assert.match(error.details![0]!.message, /Unknown column "telefone" \(column B\)/);
    assert.match(error.details![1]!.message, /Column amount appears twice: "montant" and "amount"/);
    assert.match(error.details![2]!.message, /Required column phone is missing \(accepted headings: phone, telephone, tel\)/);
  });

  it('refuses a metadata column without a key, or with a key over 40 characters', async () => {
    const error = await assertFileRefused(
      `nom,telephone,montant,devise,reference,operateur,metadata.,metadata.${'k'.repeat(41)}\nA,1,2,XOF,r,x,,\n`,
      'validation_error',
      /header row has 2 problem/,
    );
    assert.deepEqual(
      error.details!.map((d) => d.field),
      ['metadata.', `metadata.${'k'.repeat(41)}`],
    );
  });

  it('refuses an empty file and a file with only a header', async () => {
    await assertFileRefused('', 'validation_error', /file is empty/);
    await assertFileRefused('\ufeff', 'validation_error', /file is empty/);
    await assertFileRefused(`${englishHeader}\r\n,,,\r\n`, 'validation_error', /no payment lines/);
  });

  it('reads Excel\'s Windows-1252 "CSV" (bytes that are not UTF-8) with its accents', async () => {
    const latin1 = Buffer.from('nom;t\xe9l\xe9phone;montant;devise;reference;operateur\nFran\xe7ois;1;2;XOF;r;x\n', 'latin1');
    const rows = await readAll(latin1);
    assert.equal(rows[0]!.line.beneficiaryName, 'François');
    assert.equal(rows[0]!.line.phone, '1', 'the accented heading téléphone was recognised');
  });

  it('refuses a file that mixes UTF-8 and another encoding, whatever the chunking', async () => {
    const mixed = Buffer.concat([Buffer.from('nom;téléphone;montant;devise;reference;operateur\n', 'utf8'), Buffer.from('Fran\xe7ois;1;2;XOF;r;x\n', 'latin1')]);
    await assertFileRefused(mixed, 'validation_error', /mixes two encodings/);
    await assert.rejects(readSource(chunksOf(mixed, 1)), /mixes two encodings/);
  });
  it('refuses a header row with no line end in sight', async () => {
    await assertFileRefused(`phone,${'x'.repeat(20_000)}`, 'validation_error', /header row is longer than 16384 characters/);
  });

  it('refuses broken CSV: a quote never closed, a cell running on past the row size', async () => {
    await assertFileRefused(`${englishHeader}\nA,"0197000000,1,XOF,r,BJ,mtn_bj,x\n`, 'validation_error', /not valid CSV: Quote Not Closed/);
    await assertFileRefused(`${englishHeader}\nA,"${'x'.repeat(70_000)}\n`, 'validation_error', /row is larger than 65536 bytes/);
  });
});

/** A file generated as it is read, counting the chunks handed out, so a test sees how far the reader read. */
function generatedFile(lineCount: number, counter: { chunks: number }): AsyncIterable<Buffer> {
  return (async function* () {
    counter.chunks += 1;
    yield Buffer.from(`${englishHeader}\n`);
    for (let start = 0; start < lineCount; start += 100) {
      const lines = [];
      for (let i = start; i < Math.min(lineCount, start + 100); i += 1) lines.push(`Worker ${i},0197000000,100000,XOF,pay-${i},BJ,mtn_bj,June\n`);
      counter.chunks += 1;
      yield Buffer.from(lines.join(''));
    }
  })();
}

describe('readBatchCsv: limits, and reading as a stream', () => {
  it('yields the first row while most of a large file is still unread', async () => {
    const counter = { chunks: 0 };
    const rows = readBatchCsv(generatedFile(10_000, counter));
    const first = await rows.next();
    assert.equal(first.value?.row, 2);
    assert.ok(counter.chunks < 40, `read ${counter.chunks} of 101 chunks before the first row`);
    await rows.return(undefined);
  });

  it('reads 10 000 lines, the default limit', async () => {
    let count = 0;
    let lastRow = 0;
    for await (const row of readBatchCsv(generatedFile(10_000, { chunks: 0 }), { maxBytes: 10 * 1024 * 1024 })) {
      count += 1;
      lastRow = row.row;
    }
    assert.equal(count, 10_000);
    assert.equal(lastRow, 10_001);
  });

  it('refuses line 10 001 by default, without reading the rest of the file', async () => {
    const counter = { chunks: 0 };
    let count = 0;
    await assert.rejects(
      async () => {
        for await (const _row of readBatchCsv(generatedFile(1_000_000, counter), { maxBytes: Number.MAX_SAFE_INTEGER })) count += 1;
      },
      (error: unknown) => error instanceof AkweError && error.code === 'validation_error' && /more than 10000 payment lines/.test(error.message),
    );
    assert.equal(count, 10_000);
    assert.ok(counter.chunks < 200, `read ${counter.chunks} of 10 001 chunks`);
  });

  it('takes a smaller line limit, and does not count blank rows against it', async () => {
    const file = `${englishHeader}\nA,1,1,XOF,a,BJ,x,\n\n,,,\nB,1,1,XOF,b,BJ,x,\n`;
    assert.equal((await readAll(file, { maxLines: 2 })).length, 2);
    await assertFileRefused(file, 'validation_error', /more than 1 payment lines/, { maxLines: 1 });
  });

  it('refuses a file over the byte limit with payload_too_large (413), without reading the rest', async () => {
    const counter = { chunks: 0 };
    await assert.rejects(
      readSource(generatedFile(1_000_000, counter), { maxBytes: 1024 * 1024, maxLines: Number.MAX_SAFE_INTEGER }), // the whole file would be about 60 MB
      (error: unknown) => error instanceof AkweError && error.code === 'payload_too_large' && error.status === 413 && /larger than 1048576 bytes/.test(error.message),
    );
    assert.ok(counter.chunks < 300, `read ${counter.chunks} of 10 001 chunks`);
  });

  it('counts the byte limit in bytes, not characters, BOM included', async () => {
    const file = Buffer.from(`\ufeff${englishHeader}\nZoé,0197000000,100000,XOF,a,BJ,mtn_bj,\n`, 'utf8');
    assert.equal((await readAll(file, { maxBytes: file.byteLength })).length, 1);
    await assertFileRefused(file, 'payload_too_large', /larger than/, { maxBytes: file.byteLength - 1 });
  });
});
