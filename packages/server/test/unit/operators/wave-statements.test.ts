/**
 * Wave's balance history as the daily reconciliation's statement: the query and page parser from
 * a recorded answer (no network), then the real connector paging through the Wave mock's
 * GET /v1/transactions over a socket, giving the same report the mock renders.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waveReturnUrls } from '../../../src/operators/wave/wave-return.js';
import { DEFAULT_WAVE_MOCK_API_KEY, startWaveMock, type RunningWaveMock } from '../../../src/operators/wave/mock/wave-mock.js';
import { waveMockReport } from '../../../src/operators/wave/mock/wave-mock-report.js';
import { WaveConnector } from '../../../src/operators/wave/wave-connector.js';
import type { WaveSettings } from '../../../src/operators/wave/wave-settings.js';
import { parseTransactionPage, transactionsQuery } from '../../../src/operators/wave/wave-statements.js';
import { waveItemsCsv, waveTransactionsReport } from '../../../src/operators/wave/wave-transactions-report.js';
import { SecretValue } from '../../../src/operators/secret-value.js';

const DAY = '2026-11-26';
const AT = `${DAY}T10:00:00.000Z`;

/** A page as Wave's Balance API answers it (values of ours). */
const recordedPage = {
  page_info: { start_cursor: null, end_cursor: 'Y3Vyc29yLTI', has_next_page: true },
  date: DAY,
  items: [
    {
      timestamp: '2026-11-26T09:12:40Z',
      transaction_id: 'T_CHK01',
      transaction_type: 'api_checkout',
      amount: '4950',
      fee: '50',
      balance: '104950',
      currency: 'XOF',
      is_reversal: false,
      counterparty_name: 'Awa Koné',
      counterparty_mobile: '+2250700000001',
      client_reference: '0193c5d2-0000-7000-8000-000000000001',
      checkout_api_session_id: 'cos-abc',
    },
    {
      timestamp: '2026-11-26T09:40:02Z',
      transaction_id: 'T_PAY01',
      transaction_type: 'api_payout',
      amount: '-20000',
      fee: '200',
      balance: '84750',
      currency: 'XOF',
      is_reversal: false,
      client_reference: '0193c5d2-0000-7000-8000-000000000002',
    },
    { timestamp: '2026-11-26T11:00:00Z', transaction_id: 'T_SWP01', transaction_type: 'merchant_sweep', amount: '-50000', fee: '0', currency: 'XOF', client_reference: null },
  ],
};

const summary = (text: string) => waveTransactionsReport.parse(text).map((line) => [line.resourceType, line.akweId, line.providerReference, line.amountMinor]);

describe('Wave statements', () => {
  it('asks a day, then each next page by its cursor', () => {
    assert.deepEqual(transactionsQuery(DAY, undefined), { method: 'GET', path: '/v1/transactions?date=2026-11-26', headers: {} });
    assert.equal(transactionsQuery(DAY, 'Y3Vyc29yLTI').path, '/v1/transactions?date=2026-11-26&after=Y3Vyc29yLTI');
  });

  it('reads a page’s items and next cursor, and writes them as the report Akwe imports (movements not ours skipped)', () => {
    const page = parseTransactionPage(recordedPage);
    assert.equal(page.next, 'Y3Vyc29yLTI');
    assert.equal(page.items.length, 3);
    assert.deepEqual(summary(waveItemsCsv(page.items)), [
      ['payment', '0193c5d2-0000-7000-8000-000000000001', 'T_CHK01', 495_000],
      ['payout', '0193c5d2-0000-7000-8000-000000000002', 'T_PAY01', 2_000_000],
    ]);
    assert.equal(parseTransactionPage({ ...recordedPage, page_info: { has_next_page: false, end_cursor: null } }).next, undefined);
    assert.throws(() => parseTransactionPage({ page_info: {} }), /no items list/);
  });

  describe('through the Wave mock', () => {
    let mock: RunningWaveMock;
    let connector: WaveConnector;

    before(async () => {
      mock = await startWaveMock();
      const settings: WaveSettings = {
        slug: 'wave_ci',
        baseUrl: mock.url,
        apiKey: new SecretValue(DEFAULT_WAVE_MOCK_API_KEY),
        webhookSecret: new SecretValue('unused'),
        currency: 'XOF',
        timeoutMs: 5_000,
        ...waveReturnUrls('https://akwe.example/', () => 'server-secret'),
      };
      connector = new WaveConnector(settings);
      const session = (id: string, reference: string, refunded: boolean) => ({
        id,
        amount: '5000',
        currency: 'XOF',
        checkoutStatus: 'complete' as const,
        paymentStatus: 'succeeded' as const,
        clientReference: reference,
        successUrl: '',
        errorUrl: '',
        launchUrl: '',
        transactionId: `T-${id}`,
        whenCreated: AT,
        whenExpires: AT,
        whenCompleted: AT,
        refundPosts: refunded ? 1 : 0,
        refunded,
      });
      mock.state.sessions.set('cos-1', session('cos-1', 'p1', true));
      mock.state.sessions.set('cos-2', session('cos-2', 'p2', false));
      mock.state.payouts.set('pt-1', {
        id: 'pt-1',
        currency: 'XOF',
        receiveAmount: '2500',
        fee: '25',
        mobile: '+2250700000000',
        clientReference: 'o1',
        status: 'succeeded',
        timestamp: AT,
      });
    });
    after(async () => {
      await mock?.close();
    });

    it('pages through every movement of the day and gives the report the mock renders', async () => {
      const fetched = await connector.statements.fetch(DAY);
      // Four movements in pages of two: the second page was asked by the first one's cursor.
      assert.equal(summary(fetched).length, 4);
      assert.deepEqual(summary(fetched), summary(waveMockReport(mock.state, DAY)));
      assert.equal(summary(await connector.statements.fetch('2026-11-25')).length, 0, 'another day: none');
    });

    it('refuses an answer Wave gives with an error', async () => {
      const wrongKey = new WaveConnector({ ...connector.settings, apiKey: new SecretValue('not-the-key') });
      await assert.rejects(wrongKey.statements.fetch(DAY), /answered 401/);
    });
  });
});
