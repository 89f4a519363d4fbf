/** The matcher: each kind of mismatch from one small report, and what is not one. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProviderReportLine } from '../../../src/core/reconciliation/provider-report.js';
import { matchReport, type AkweRecord } from '../../../src/core/reconciliation/reconciliation-matcher.js';

const period = { start: '2026-11-26T00:00:00.000Z', end: '2026-11-27T00:00:00.000Z' };

function record(id: string, overrides: Partial<AkweRecord> = {}): AkweRecord {
  return {
    resourceType: 'payment',
    id,
    merchantId: 'm1',
    reference: `order-${id}`,
    operator: 'mtn_bj',
    amountMinor: 500_000,
    currency: 'XOF',
    status: 'completed',
    pspReference: null,
    createdAt: '2026-11-26T08:00:00.000Z',
    paymentId: null,
    ...overrides,
  };
}

function line(akweId: string | null, overrides: Partial<ProviderReportLine> = {}): ProviderReportLine {
  return {
    row: 2,
    resourceType: 'payment',
    akweId,
    providerReference: null,
    amountMinor: 500_000,
    currency: 'XOF',
    status: 'completed',
    occurredAt: '2026-11-26T08:00:01.000Z',
    ...overrides,
  };
}

describe('matchReport', () => {
  it('finds one of each kind and matches the rest', () => {
    const result = matchReport(
      [line('a'), line('b', { amountMinor: 400_000 }), line('c', { status: 'failed' }), line('x'), line(null, { providerReference: 'PSP-D' })],
      [record('a'), record('b'), record('c'), record('d', { pspReference: 'PSP-D' }), record('e')],
      period,
    );
    assert.deepEqual(result.counts, { matched: 2, missing_at_provider: 1, missing_at_akwe: 1, amount_differs: 1, status_differs: 1 });
    assert.deepEqual(
      result.lines.map((l) => [l.outcome, l.record?.id ?? null]),
      [
        ['matched', 'a'],
        ['amount_differs', 'b'],
        ['status_differs', 'c'],
        ['missing_at_akwe', null],
        ['matched', 'd'],
        ['missing_at_provider', 'e'],
      ],
    );
    assert.equal(result.providerCollectedMinor, 500_000 * 3 + 400_000);
    assert.equal(result.akweCollectedMinor, 500_000 * 5);
  });

  it('ignores a failed line we do not know, and our records outside the period or that moved no money', () => {
    const result = matchReport(
      [line('unknown', { status: 'failed' })],
      [record('old', { createdAt: '2026-11-25T23:59:59.000Z' }), record('failed', { status: 'failed' }), record('payout', { resourceType: 'payout', status: 'FAILED' })],
      period,
    );
    assert.deepEqual(result.counts, { matched: 0, missing_at_provider: 0, missing_at_akwe: 0, amount_differs: 0, status_differs: 0 });
    assert.deepEqual(
      result.lines.map((l) => l.outcome),
      ['ignored'],
    );
  });

  it("pairs a refund line named by its payment's id with that payment's refund, and a refunded payment as collected", () => {
    const result = matchReport(
      [line('p'), line('p', { resourceType: 'refund', amountMinor: 100_000 })],
      [record('p', { status: 'refunded' }), record('r', { resourceType: 'refund', amountMinor: 100_000, paymentId: 'p' })],
      period,
    );
    assert.deepEqual(
      result.lines.map((l) => [l.outcome, l.record?.id]),
      [
        ['matched', 'p'],
        ['matched', 'r'],
      ],
    );
    assert.equal(result.akwePaidOutMinor, 100_000);
  });

  it('a payout our records show COMPLETED but the report FAILED differs in status', () => {
    const result = matchReport([line('q', { resourceType: 'payout', status: 'failed' })], [record('q', { resourceType: 'payout', status: 'COMPLETED' })], period);
    assert.equal(result.lines[0]?.outcome, 'status_differs');
  });
});
