/**
 * Each mock's report, rendered from what the mock recorded and read back by its provider's parser
 * (no network): the mocks speak the formats the parsers read. Also the daily run's pure parts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DailyStatements, joinStatements } from '../../../src/core/reconciliation/daily-statements.js';
import type { ReconciliationService } from '../../../src/core/reconciliation/reconciliation-service.js';
import { fedaPayMockState } from '../../../src/operators/fedapay/mock/fedapay-mock.js';
import { fedaPayMockReport } from '../../../src/operators/fedapay/mock/fedapay-mock-report.js';
import { mtnMockState } from '../../../src/operators/mtn-momo/mock/mtn-momo-mock.js';
import { mtnMockReport } from '../../../src/operators/mtn-momo/mock/mtn-mock-report.js';
import { orangeMockState } from '../../../src/operators/orange-money/mock/orange-money-mock.js';
import { orangeMockReport } from '../../../src/operators/orange-money/mock/orange-mock-report.js';
import { startOperatorMocks } from '../../../src/operators/mocks/operator-mocks.js';
import { reportFormats } from '../../../src/operators/report-formats.js';
import { waveMockState } from '../../../src/operators/wave/mock/wave-mock.js';
import { waveMockReport } from '../../../src/operators/wave/mock/wave-mock-report.js';

const DAY = '2026-11-26';
const AT = `${DAY}T10:00:00.000Z`;
const summary = (provider: string, text: string) => reportFormats[provider]!.parse(text).map((line) => [line.resourceType, line.akweId, line.amountMinor, line.status]);

describe('the mocks’ reports', () => {
  it('MTN: its transactions of the day with their statuses', () => {
    const state = mtnMockState();
    state.transactions.set('requesttopay:r1', {
      kind: 'requesttopay',
      referenceId: 'r1',
      body: { amount: '5000', currency: 'XOF', externalId: 'p1' },
      status: 'SUCCESSFUL',
      financialTransactionId: '123',
      callbacksSent: 0,
      createdAt: AT,
    });
    state.transactions.set('transfer:r2', {
      kind: 'transfer',
      referenceId: 'r2',
      body: { amount: '2500', currency: 'XOF', externalId: 'o1' },
      status: 'FAILED',
      callbacksSent: 0,
      createdAt: AT,
    });
    state.transactions.set('requesttopay:r3', {
      kind: 'requesttopay',
      referenceId: 'r3',
      body: { amount: '100', currency: 'XOF', externalId: 'p2' },
      status: 'SUCCESSFUL',
      callbacksSent: 0,
      createdAt: '2026-11-27T00:00:00.000Z',
    });
    assert.deepEqual(summary('mtn-momo', mtnMockReport(state, DAY)), [
      ['payment', 'p1', 500_000, 'completed'],
      ['payout', 'o1', 250_000, 'failed'],
    ]);
  });

  it('Wave: paid sessions, their refunds and payouts sent, money out negative', () => {
    const state = waveMockState();
    state.sessions.set('cos-1', {
      id: 'cos-1',
      amount: '5000',
      currency: 'XOF',
      checkoutStatus: 'complete',
      paymentStatus: 'succeeded',
      clientReference: 'p1',
      successUrl: '',
      errorUrl: '',
      launchUrl: '',
      transactionId: 'T1',
      whenCreated: AT,
      whenExpires: AT,
      whenCompleted: AT,
      refundPosts: 1,
      refunded: true,
    });
    state.payouts.set('pt-1', {
      id: 'pt-1',
      currency: 'XOF',
      receiveAmount: '2500',
      fee: '25',
      mobile: '+2250700000000',
      clientReference: 'o1',
      status: 'succeeded',
      timestamp: AT,
    });
    const text = waveMockReport(state, DAY);
    assert.match(text, /,api_payout,-2500,25,/);
    assert.deepEqual(summary('wave', text), [
      ['payment', 'p1', 500_000, 'completed'],
      ['refund', 'p1', 500_000, 'completed'],
      ['payout', 'o1', 250_000, 'completed'],
    ]);
  });

  it('FedaPay and Orange: their transactions with their own statuses', () => {
    const fedapay = fedaPayMockState();
    fedapay.transactions.set(1, {
      id: 1,
      reference: 'trx_1',
      amount: 5000,
      description: '',
      callbackUrl: null,
      status: 'approved',
      mode: 'mtn_open',
      merchantReference: 'p1',
      customMetadata: null,
      phone: null,
      token: null,
      lastErrorCode: null,
      lastErrorMessage: null,
      createdAt: `${DAY} 10:00:00`,
      updatedAt: `${DAY} 10:00:00`,
      decidedAt: null,
    });
    assert.deepEqual(summary('fedapay', fedaPayMockReport(fedapay, DAY)), [['payment', 'p1', 500_000, 'completed']]);
    const orange = orangeMockState();
    orange.payments.set('p2', { orderId: 'p2', body: { amount: 700, currency: 'XOF' }, payToken: 't', notifToken: 'n', status: 'EXPIRED', notificationsSent: 0, createdAt: AT });
    assert.deepEqual(summary('orange-money', orangeMockReport(orange, DAY)), [['payment', 'p2', 70_000, 'failed']]);
  });
});

describe('akwe mocks', () => {
  it('serves each mock’s report of a day at <mock>/_mock/report, in its provider’s format', async () => {
    const mocks = await startOperatorMocks();
    try {
      const heads: Record<string, string> = {};
      for (const [path, provider] of [
        ['/mtn-bj', 'mtn-momo'],
        ['/mtn-ci', 'mtn-momo'],
        ['/wave-ci', 'wave'],
        ['/orange-ci', 'orange-money'],
        ['/fedapay', 'fedapay'],
        ['/pawapay', 'pawapay'],
      ] as const) {
        const response = await fetch(`${mocks.url}${path}/_mock/report?date=${DAY}`);
        assert.equal(response.status, 200, path);
        const text = await response.text();
        assert.deepEqual(reportFormats[provider]!.parse(text), [], `${path}: an empty day, read by the ${provider} parser`);
        heads[path] = text.split('\r\n')[0]!;
      }
      assert.match(heads['/pawapay']!, /^Creation Date,MSISDN,Transaction ID/);
      assert.equal((await fetch(`${mocks.url}/wave-ci/_mock/report?date=yesterday`)).status, 400);
    } finally {
      await mocks.close();
    }
  });
});

describe('the daily run', () => {
  it('joins several statements of one format under one header', () => {
    assert.equal(joinStatements(['\ufeffa,b\r\n1,2\r\n', 'a,b\r\n3,4', 'a,b\r\n']), 'a,b\r\n1,2\r\n3,4\r\n');
  });

  it('is due for the day before once the settle hours have passed', () => {
    const daily = (iso: string) => new DailyStatements({ reconciliation: {} as ReconciliationService, routes: () => [], clock: { now: () => new Date(iso) }, settleHours: 3 });
    assert.equal(daily('2026-11-27T02:59:59Z').dueDay(), undefined);
    assert.equal(daily('2026-11-27T03:00:00Z').dueDay(), '2026-11-26');
    assert.equal(daily('2026-11-27T23:59:59Z').dueDay(), '2026-11-26');
  });
});
