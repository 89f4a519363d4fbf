/**
 * The FedaPay connector against the FedaPay mock over real sockets (no database): each flow's calls,
 * how a step left half done is carried on from FedaPay's own records, FedaPay's payment page for
 * hosted payments, and what stays unknown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CatalogOperator } from '../../../src/core/catalog/operator-catalog.js';
import type { Payment } from '../../../src/core/payments/payment.js';
import type { Payout } from '../../../src/core/payouts/payout.js';
import { newId } from '../../../src/core/shared/ids.js';
import { FedaPayConnector } from '../../../src/operators/fedapay/fedapay-connector.js';
import { FedaPayProtocolError } from '../../../src/operators/fedapay/fedapay-responses.js';
import { fedaPayReturnUrl, type FedaPaySettings } from '../../../src/operators/fedapay/fedapay-settings.js';
import { DEFAULT_FEDAPAY_MOCK_API_KEY, DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET, startFedaPayMock, type RunningFedaPayMock } from '../../../src/operators/fedapay/mock/fedapay-mock.js';
import { OperatorUnreachable } from '../../../src/operators/operator-http.js';
import { SecretValue } from '../../../src/operators/secret-value.js';
import { returnProof } from '../../../src/operators/return-proof.js';

const operator = { slug: 'moov_bj', gatewayCode: 'MOOV_BJ' } as CatalogOperator;

describe('FedaPay connector against the FedaPay mock', () => {
  let mock: RunningFedaPayMock;
  let connector: FedaPayConnector;
  let settings: FedaPaySettings;

  const aPayment = (phone = '+2290164000001', mode: Payment['mode'] = 'direct') =>
    ({ id: newId(), reference: `R-${newId()}`, amountMinor: 250_000, phone, mode, description: null, customerFirstName: null, customerLastName: null }) as Payment;
  const aPayout = (phone = '+2290164000001') => ({ id: newId(), amountMinor: 100_000, phone, description: null, recipientFirstName: null, recipientLastName: null }) as Payout;

  before(async () => {
    mock = await startFedaPayMock();
    settings = {
      slug: 'moov_bj',
      baseUrl: mock.url,
      apiKey: new SecretValue(DEFAULT_FEDAPAY_MOCK_API_KEY),
      webhookSecrets: [new SecretValue(DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET)],
      mode: 'moov',
      country: 'bj',
      currency: 'XOF',
      timeoutMs: 2_000,
      hostedPage: false,
      returnUrlFor: fedaPayReturnUrl('https://akwe.example', () => 'server-secret'),
    };
    connector = new FedaPayConnector(settings);
  });
  after(() => mock.close());

  it('collects: create, token, send in the operator’s mode; the status read agrees', async () => {
    const payment = aPayment();
    const answer = await connector.push.startCollection(payment, operator);
    assert.deepEqual(answer.path, ['processing', 'completed'], 'the mock decides at once');
    assert.equal(mock.state.transactionByReference(payment.id)?.mode, 'moov');
    assert.deepEqual((await connector.status.queryStatus(payment))?.path, ['processing', 'completed']);
    assert.equal(await connector.status.queryStatus(aPayment()), undefined, 'FedaPay never heard of it');
  });

  it('carries on a transaction created but never sent: the status says never received, the next start sends it once', async () => {
    const payment = aPayment('+2290164000453');
    mock.state.setFaults({ failNext: 0 });
    // A first run created the transaction, then died before the token and the send.
    const created = await fetch(`${mock.url}/v1/transactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEFAULT_FEDAPAY_MOCK_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x', amount: 2500, currency: { iso: 'XOF' }, merchant_reference: payment.id }),
    });
    assert.equal(created.status, 200);
    assert.equal(await connector.status.queryStatus(payment), undefined);
    const answer = await connector.push.startCollection(payment, operator);
    assert.deepEqual(answer.path, ['processing']);
    assert.equal(mock.state.callsFor('create_transaction', payment.id), 2);
    assert.equal(mock.state.callsFor('send', payment.id), 1);
    assert.equal([...mock.state.transactions.values()].filter((t) => t.merchantReference === payment.id).length, 1);
    // Asked to start again (a resumed call): read, never sent twice.
    assert.deepEqual((await connector.push.startCollection(payment, operator)).path, ['processing']);
    assert.equal(mock.state.callsFor('send', payment.id), 1);
  });

  it('sends a hosted payment to FedaPay’s payment page when the entry says so', async () => {
    const hosted = new FedaPayConnector({ ...settings, hostedPage: true });
    const payment = aPayment('+2290164000001', 'hosted');
    const answer = await hosted.hosted.payCheckout(payment, operator);
    assert.deepEqual(answer.path, ['processing']);
    assert.match(answer.redirectUrl!, new RegExp(`^${mock.url}/pay/`));
    assert.equal(mock.state.callsFor('send', payment.id), 0, 'no push: the customer pays on FedaPay’s page');
    assert.deepEqual((await hosted.status.queryStatus(payment))?.path, ['processing'], 'open on FedaPay’s page');
    const paid = await fetch(answer.redirectUrl!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'mode=moov', redirect: 'manual' });
    assert.equal(paid.status, 303);
    assert.equal(
      paid.headers.get('location'),
      `https://akwe.example/api/v1/operators/fedapay/checkout-return/${payment.id}/${returnProof('server-secret', 'fedapay', payment.id)}`,
    );
    assert.deepEqual((await hosted.status.queryStatus(payment))?.path, ['processing', 'completed']);
  });

  it('pays out: create then start; a payout created but never started is started once', async () => {
    const payout = aPayout();
    assert.equal((await connector.payouts.sendPayout(payout, operator)).status, 'COMPLETED');
    assert.equal(mock.state.callsFor('start_payout', payout.id), 1);
    const halfDone = aPayout('+2290164000453');
    await fetch(`${mock.url}/v1/payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEFAULT_FEDAPAY_MOCK_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: 1000,
        currency: { iso: 'XOF' },
        mode: 'moov',
        merchant_reference: halfDone.id,
        customer: { phone_number: { number: halfDone.phone, country: 'bj' } },
      }),
    });
    assert.equal(await connector.payouts.queryPayout(halfDone), undefined, 'never started: never received');
    assert.equal((await connector.payouts.sendPayout(halfDone, operator)).status, 'PROCESSING');
    assert.equal((await connector.payouts.sendPayout(halfDone, operator)).status, 'PROCESSING');
    assert.equal(mock.state.callsFor('start_payout', halfDone.id), 1, 'started once');
    const failed = await connector.payouts.sendPayout(aPayout('+2290164000455'), operator);
    assert.deepEqual([failed.status, failed.failureCode], ['FAILED', 'insufficient_funds']);
  });

  it('leaves the outcome unknown on a 500 or no answer, and refuses amounts with centimes without calling', async () => {
    mock.state.setFaults({ failNext: 1 });
    await assert.rejects(connector.push.startCollection(aPayment(), operator), FedaPayProtocolError);
    mock.state.setFaults({ acceptThenHang: true });
    try {
      await assert.rejects(connector.push.startCollection(aPayment(), operator), OperatorUnreachable);
    } finally {
      mock.state.setFaults({ acceptThenHang: false });
    }
    const odd = { ...aPayment(), amountMinor: 250_050 };
    assert.deepEqual((await connector.push.startCollection(odd, operator)).failureCode, 'operator_declined');
    assert.equal(mock.state.callsFor('create_transaction', odd.id), 0);
    assert.equal('refunds' in connector && connector.refunds !== undefined, false, 'no refund flow');
  });

  it('checks the key with a harmless read, and reports a wrong one without printing it', async () => {
    assert.deepEqual(
      (await connector.check()).map((c) => c.ok),
      [true],
    );
    const wrong = new FedaPayConnector({ ...settings, apiKey: new SecretValue('sk_live_wrong_do_not_print') });
    const [check] = await wrong.check();
    assert.equal(check!.ok, false);
    assert.match(check!.detail, /401/);
    assert.ok(!check!.detail.includes('sk_live_wrong_do_not_print'));
  });
});
