/** Each provider's report parser, from fixture files, with no network: lines in our words, and a bad file refused whole. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AkweError } from '../../../src/core/errors/index.js';
import { reportFormats } from '../../../src/operators/report-formats.js';

const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');
const parse = (provider: string, path: string) => reportFormats[provider]!.parse(fixture(path));
const PAYMENT = '0193c5d2-0000-7000-8000-000000000001';
const PAYOUT = '0193c5d2-0000-7000-8000-000000000002';

function refusal(run: () => unknown): AkweError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof AkweError);
    return error;
  }
  assert.fail('the file was read');
}

describe('provider report parsers', () => {
  it('reads a pawaPay wallet statement: deposits, payouts and refunds, amounts in centimes, other movements skipped', () => {
    const lines = parse('pawapay', 'pawapay/statement-2026-11-26.csv');
    assert.deepEqual(
      lines.map((line) => [line.row, line.resourceType, line.akweId, line.providerReference, line.amountMinor, line.currency, line.status, line.occurredAt]),
      [
        [2, 'payment', PAYMENT, 'PP1234567890', 500_000, 'XOF', 'completed', '2026-11-26T08:15:02.000Z'],
        [3, 'payout', PAYOUT, 'PP1234567891', 250_050, 'XOF', 'completed', '2026-11-26T09:00:00.000Z'],
        [4, 'refund', '0193c5d2-0000-7000-8000-000000000003', null, 100_000, 'XOF', 'completed', '2026-11-26T10:30:00.000Z'],
      ],
    );
  });

  it('reads the semicolon variant with a space in the amount and a date-time without zone (UTC)', () => {
    const [line] = parse('pawapay', 'pawapay/statement-semicolon.csv');
    assert.equal(line?.amountMinor, 500_000);
    assert.equal(line?.occurredAt, '2026-11-26T08:15:02.000Z');
  });

  it('refuses a file with bad lines, naming every one', () => {
    const error = refusal(() => parse('pawapay', 'pawapay/statement-bad-lines.csv'));
    assert.equal(error.code, 'invalid_report');
    assert.deepEqual(
      error.details?.map((detail) => [detail.row, detail.field]),
      [
        [2, 'Amount'],
        [3, 'Type'],
        [3, 'Creation Date'],
      ],
    );
  });

  it('refuses a file whose header lacks a column, and a file that is no CSV', () => {
    assert.match(refusal(() => reportFormats['wave']!.parse('timestamp,amount\n2026-11-26T00:00:00Z,5\n')).message, /lacks "transaction_id"|lacks "client_reference"/);
    assert.equal(refusal(() => reportFormats['mtn-momo']!.parse('Date,"unclosed\n')).code, 'invalid_report');
    assert.equal(refusal(() => reportFormats['orange-money']!.parse('')).code, 'invalid_report');
  });

  it("reads Wave's balance history: signed amounts, a refund named by its payment, fees skipped", () => {
    const lines = parse('wave', 'wave/transactions-2026-11-26.csv');
    assert.deepEqual(
      lines.map((line) => [line.resourceType, line.akweId, line.amountMinor]),
      [
        ['payment', PAYMENT, 500_000],
        ['payout', PAYOUT, 250_000],
        ['refund', PAYMENT, 500_000],
      ],
    );
  });

  it("reads FedaPay's transactions with their statuses", () => {
    const lines = parse('fedapay', 'fedapay/transactions-2026-11-26.csv');
    assert.deepEqual(
      lines.map((line) => [line.resourceType, line.providerReference, line.status]),
      [
        ['payment', 'trx_Ab12Cd', 'completed'],
        ['payout', 'po_Zz99', 'completed'],
        ['payment', 'trx_Ef34Gh', 'failed'],
      ],
    );
  });

  it("reads MTN's and Orange's reports (the formats Akwe defines)", () => {
    assert.deepEqual(
      parse('mtn-momo', 'mtn-momo/report-2026-11-26.csv').map((line) => [line.resourceType, line.status]),
      [
        ['payment', 'completed'],
        ['payout', 'completed'],
        ['payment', 'failed'],
      ],
    );
    assert.deepEqual(
      parse('orange-money', 'orange-money/report-2026-11-26.csv').map((line) => [line.akweId, line.providerReference, line.status]),
      [
        [PAYMENT, 'MP261126.0815.A12345', 'completed'],
        ['0193c5d2-0000-7000-8000-000000000006', null, 'failed'],
      ],
    );
  });
});
