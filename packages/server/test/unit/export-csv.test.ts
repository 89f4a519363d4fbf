/** The exports' CSV text and period rules (core/exports), without a database. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvField, csvLine, escapeFormula } from '../../src/core/exports/csv-cells.js';
import { exportPeriod, parseBound } from '../../src/core/exports/export-period.js';
import { AkweError } from '../../src/core/errors/index.js';

describe('export CSV cells', () => {
  it('escapes text that a spreadsheet would run as a formula, and only that', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) assert.equal(escapeFormula(`${start}1+1`), `'${start}1+1`);
    for (const text of ['ORDER-1', '{"a":"=1"}', "'quoted", '', ' =1']) assert.equal(escapeFormula(text), text);
  });

  it('writes numbers as they are (a negative amount is no formula) and null as an empty field', () => {
    assert.equal(csvField(-2537500), '-2537500');
    assert.equal(csvField(0), '0');
    assert.equal(csvField(null), '');
  });

  it('quotes per RFC 4180 after escaping, and a reader gets the escaped text back', () => {
    const cells = ['=HYPERLINK("http://x","y")', 'a,b', 'two\nlines', 'plain', 42, null];
    const line = csvLine(cells);
    assert.equal(line, `"'=HYPERLINK(""http://x"",""y"")","a,b","two\nlines",plain,42,\r\n`);
    assert.deepEqual(parse(line), [[`'=HYPERLINK("http://x","y")`, 'a,b', 'two\nlines', 'plain', '42', '']]);
  });
});

describe('export period', () => {
  const refused = (run: () => unknown, field: string) =>
    assert.throws(run, (error: unknown) => error instanceof AkweError && error.code === 'validation_error' && error.field === field);

  it('reads dates as midnight UTC and date-times with their offset', () => {
    assert.deepEqual(parseBound('2026-06-01', 'from'), { instant: '2026-06-01T00:00:00.000Z', label: '2026-06-01' });
    assert.deepEqual(parseBound('2026-06-01T10:30:00+01:00', 'from'), { instant: '2026-06-01T09:30:00.000Z', label: '2026-06-01T093000Z' });
    assert.deepEqual(parseBound('2026-06-01T09:30:00.250Z', 'to'), { instant: '2026-06-01T09:30:00.250Z', label: '2026-06-01T093000.250Z' });
    assert.deepEqual(parseBound('2026-06-01T09:30Z', 'to').instant, '2026-06-01T09:30:00.000Z');
  });

  it('refuses what is no real instant, naming the parameter', () => {
    for (const value of [
      '',
      'yesterday',
      '2026-02-30',
      '2026-13-01',
      '2026-06-01T09:30:00',
      '2026-06-01T24:00:00Z',
      '2026-06-01T23:59:60Z',
      '2026-06-01T09:30:00+25:00',
      '1717234200',
    ]) {
      refused(() => parseBound(value, 'from'), 'from');
    }
  });

  it('needs from before to; either may be missing', () => {
    assert.deepEqual(exportPeriod({}), { from: undefined, to: undefined, fromLabel: 'start', toLabel: 'now' });
    assert.equal(exportPeriod({ from: '2026-06-01' }).toLabel, 'now');
    refused(() => exportPeriod({ from: '2026-06-02', to: '2026-06-01' }), 'to');
    refused(() => exportPeriod({ from: '2026-06-01', to: '2026-06-01T00:00:00Z' }), 'to');
  });
});
