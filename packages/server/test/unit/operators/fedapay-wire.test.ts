/** FedaPay request builders, answer parsers, the status table and webhook signatures: pure, read from recorded bodies, no network. */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Payment } from '../../../src/core/payments/payment.js';
import type { Payout } from '../../../src/core/payouts/payout.js';
import { isFailureCode } from '../../../src/core/shared/failure-codes.js';
import { fedaPayModes } from '../../../src/operators/fedapay/fedapay-modes.js';
import {
  balancesQuery,
  createPayout,
  createTransaction,
  isWholeMajor,
  majorAmount,
  payoutByReference,
  sendWithoutRedirect,
  startPayout,
  transactionByReference,
  transactionToken,
} from '../../../src/operators/fedapay/fedapay-requests.js';
import {
  classifyFedaPayError,
  describeError,
  FedaPayProtocolError,
  isDuplicateReference,
  payoutAnswer,
  payoutOf,
  startedPayoutOf,
  tokenOf,
  transactionAnswer,
  transactionOf,
} from '../../../src/operators/fedapay/fedapay-responses.js';
import { FedaPayEntrySchema, fedaPayReturnUrl, type FedaPaySettings } from '../../../src/operators/fedapay/fedapay-settings.js';
import { fedaPayErrorCodes, payoutStatuses, transactionStatuses } from '../../../src/operators/fedapay/fedapay-statuses.js';
import { fedaPayWebhookSubject, parseFedaPayEvent, signFedaPayWebhook, verifyFedaPaySignature } from '../../../src/operators/fedapay/fedapay-webhooks.js';
import { SecretValue } from '../../../src/operators/secret-value.js';
import { returnProof } from '../../../src/operators/return-proof.js';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validEntry = ajv.compile(FedaPayEntrySchema);

const fixturePath = (name: string) => new URL(`../../fixtures/fedapay/${name}.json`, import.meta.url);
const fixture = (name: string): unknown => JSON.parse(readFileSync(fixturePath(name), 'utf8'));
const rawFixture = (name: string): Buffer => readFileSync(fixturePath(name));

const settings: FedaPaySettings = {
  slug: 'moov_bj',
  baseUrl: 'https://api.fedapay.com',
  apiKey: new SecretValue('sk_live_x'),
  webhookSecrets: [new SecretValue('wh_live_one'), new SecretValue('wh_live_two')],
  mode: 'moov',
  country: 'bj',
  currency: 'XOF',
  timeoutMs: 10_000,
  hostedPage: false,
  returnUrlFor: fedaPayReturnUrl('https://akwe.example/', () => 'server-secret'),
};

const payment = {
  id: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc0',
  reference: 'ORDER-1042',
  amountMinor: 150_000,
  phone: '+2290164000001',
  description: 'Order 1042',
  customerFirstName: 'Afi',
  customerLastName: null,
} as Payment;

const payout = {
  id: '01a21189-8491-751b-8782-c9c39fb702fe',
  amountMinor: 50_000,
  phone: '+22890112233',
  recipientFirstName: 'Kofi',
  recipientLastName: 'Mensah',
  description: null,
} as Payout;

describe('FedaPay settings and modes', () => {
  it('accepts an entry with one or more webhook secrets, and nothing else', () => {
    const entry = { connector: 'fedapay', base_url: 'https://api.fedapay.com', api_key: 'env:FEDAPAY_SECRET_KEY', webhook_secrets: ['env:FEDAPAY_WH_1'] };
    assert.equal(validEntry(entry), true);
    assert.equal(validEntry({ ...entry, webhook_secrets: ['a', 'b'], mode: 'moov', hosted_page: true, timeout_ms: 8000 }), true);
    assert.equal(validEntry({ ...entry, webhook_secrets: [] }), false);
    assert.equal(validEntry({ ...entry, extra: 1 }), false);
    assert.equal(validEntry({ ...entry, timeout_ms: 60_000 }), false, 'the call timeout stays well inside the idempotency lease');
    assert.equal(validEntry({ ...entry, mode: 'Moov BJ' }), false);
    const { webhook_secrets: _omitted, ...noSecrets } = entry;
    assert.equal(validEntry(noSecrets), false);
  });

  it('knows FedaPay’s no-redirect mode of each operator it serves', () => {
    assert.deepEqual(fedaPayModes, { MTN_BJ: 'mtn_open', MOOV_BJ: 'moov', CELTIIS_BJ: 'sbin', TMONEY_TG: 'togocel', FLOOZ_TG: 'moov_tg' });
  });
});

describe('FedaPay requests', () => {
  it('counts whole francs as integers and refuses a fraction rather than rounding', () => {
    assert.equal(majorAmount(150_000), 1500);
    assert.throws(() => majorAmount(150_050), RangeError);
    assert.throws(() => majorAmount(0), RangeError);
    assert.equal(isWholeMajor(150_050), false);
  });

  it('creates a transaction with our payment id as merchant_reference, the phone and the return URL', () => {
    const request = createTransaction(settings, payment);
    assert.deepEqual([request.method, request.path], ['POST', '/v1/transactions']);
    assert.deepEqual(request.body, {
      description: 'Order 1042',
      amount: 1500,
      currency: { iso: 'XOF' },
      callback_url: `https://akwe.example/api/v1/operators/fedapay/checkout-return/${payment.id}/${returnProof('server-secret', 'fedapay', payment.id)}`,
      merchant_reference: payment.id,
      custom_metadata: { akwe_payment_id: payment.id },
      customer: { firstname: 'Afi', phone_number: { number: '+2290164000001', country: 'bj' } },
    });
    assert.equal(createTransaction(settings, { ...payment, description: null, phone: null }).body!['description'], 'Payment ORDER-1042');
    assert.equal(createTransaction(settings, { ...payment, phone: null }).body!['customer'], undefined);
  });

  it('asks for the token, then sends without redirect in the operator’s mode', () => {
    assert.deepEqual([transactionToken(104521).method, transactionToken(104521).path], ['POST', '/v1/transactions/104521/token']);
    const send = sendWithoutRedirect({ ...settings, mode: 'moov_tg', country: 'tg' }, 'tok', '+22890112233');
    assert.deepEqual([send.method, send.path, send.body], ['POST', '/v1/transactions/moov_tg', { token: 'tok', phone_number: { number: '+22890112233', country: 'tg' } }]);
  });

  it('finds a transaction and a payout again by our id, and creates then starts payouts', () => {
    assert.equal(transactionByReference(payment.id).path, `/v1/transactions/merchant/${payment.id}`);
    assert.equal(payoutByReference(payout.id).path, `/v1/payouts/merchant/${payout.id}`);
    const created = createPayout({ ...settings, mode: 'togocel', country: 'tg' }, payout);
    assert.deepEqual(created.body, {
      amount: 500,
      currency: { iso: 'XOF' },
      mode: 'togocel',
      merchant_reference: payout.id,
      custom_metadata: { akwe_payout_id: payout.id },
      customer: { firstname: 'Kofi', lastname: 'Mensah', phone_number: { number: '+22890112233', country: 'tg' } },
    });
    assert.deepEqual([startPayout(5521).method, startPayout(5521).path, startPayout(5521).body], ['PUT', '/v1/payouts/start', { payouts: [{ id: 5521 }] }]);
    assert.equal(balancesQuery().path, '/v1/balances');
  });
});

describe('FedaPay answers', () => {
  it('reads transactions out of FedaPay’s envelope and maps every status through the one table', () => {
    const created = transactionOf(fixture('transaction-created'));
    assert.deepEqual([created.id, created.status, created.mode, created.merchantReference], [104521, 'pending', null, payment.id]);
    assert.deepEqual(transactionAnswer(transactionOf(fixture('transaction-sent'))).path, ['processing']);
    const approved = transactionAnswer(transactionOf(fixture('transaction-approved')));
    assert.deepEqual([approved.path, approved.pspReference, approved.failureCode], [['processing', 'completed'], 'trx_7Hq2cX_1764255600', undefined]);
    assert.deepEqual(transactionAnswer(transactionOf(fixture('transaction-transferred'))).path, ['processing', 'completed']);
    const declined = transactionAnswer(transactionOf(fixture('transaction-declined')));
    assert.deepEqual([declined.path, declined.failureCode], [['processing', 'failed'], 'insufficient_funds']);
    assert.equal(transactionAnswer(transactionOf(fixture('transaction-declined-unknown-reason'))).failureCode, 'operator_declined');
    assert.equal(transactionAnswer(transactionOf(fixture('transaction-canceled'))).failureCode, 'payer_declined');
  });

  it('never guesses at an unknown status or shape: the outcome stays unknown', () => {
    const body = fixture('transaction-approved') as { 'v1/transaction': Record<string, unknown> };
    assert.throws(() => transactionOf({ 'v1/transaction': { ...body['v1/transaction'], status: 'on_hold' } }), FedaPayProtocolError);
    assert.throws(() => transactionOf({ transaction: 'x' }), FedaPayProtocolError);
    assert.throws(() => transactionOf(undefined), FedaPayProtocolError);
    assert.throws(() => payoutOf({ 'v1/payout': { id: 'x' } }), FedaPayProtocolError);
  });

  it('maps only to codes of our closed failure catalogue', () => {
    for (const code of Object.values(fedaPayErrorCodes)) assert.ok(isFailureCode(code), code);
    for (const meaning of Object.values(transactionStatuses)) if (meaning.failureCode) assert.ok(isFailureCode(meaning.failureCode));
    for (const meaning of Object.values(payoutStatuses)) if (meaning.failureCode) assert.ok(isFailureCode(meaning.failureCode));
  });

  it('reads the token, the created, started, sent and failed payouts', () => {
    assert.match(tokenOf(fixture('token')).url, /^https:\/\/process\.fedapay\.com\//);
    assert.throws(() => tokenOf({ url: 'x' }), FedaPayProtocolError);
    assert.equal(payoutAnswer(payoutOf(fixture('payout-created'))).status, 'PROCESSING');
    assert.equal(payoutAnswer(startedPayoutOf(fixture('payouts-started'), 5521)).status, 'PROCESSING');
    assert.throws(() => startedPayoutOf(fixture('payouts-started'), 1), FedaPayProtocolError);
    assert.deepEqual([payoutAnswer(payoutOf(fixture('payout-sent'))).status, payoutAnswer(payoutOf(fixture('payout-sent'))).pspReference], ['COMPLETED', 'pay_Xk29aPq']);
    const failed = payoutAnswer(payoutOf(fixture('payout-failed')));
    assert.deepEqual([failed.status, failed.failureCode], ['FAILED', 'insufficient_funds']);
    assert.match(failed.message!, /Solde insuffisant/);
  });

  it('tells a taken merchant_reference from other refusals, and which errors leave the outcome unknown', () => {
    assert.equal(isDuplicateReference(400, fixture('error-duplicate-reference')), true);
    assert.equal(isDuplicateReference(400, fixture('error-validation')), false);
    assert.equal(isDuplicateReference(500, fixture('error-duplicate-reference')), false);
    assert.match(describeError(fixture('error-validation')), /amount: The amount must be at least 100/);
    assert.deepEqual([401, 404, 400, 422, 408, 429, 500, 503].map(classifyFedaPayError), ['auth', 'not_found', 'refused', 'refused', 'unknown', 'unknown', 'unknown', 'unknown']);
  });
});

describe('FedaPay webhooks', () => {
  const raw = rawFixture('webhook-transaction-approved');
  const now = 1_764_255_700;

  it('verifies X-FEDAPAY-SIGNATURE (t=…,s=HMAC-SHA256 of "t.body") against any configured secret', () => {
    const expected = createHmac('sha256', 'wh_live_two').update(`${now}.`).update(raw).digest('hex');
    assert.equal(signFedaPayWebhook(raw, 'wh_live_two', now), `t=${now},s=${expected}`);
    assert.deepEqual(verifyFedaPaySignature(raw, `t=${now},s=${expected}`, ['wh_live_one', 'wh_live_two'], now), { ok: true });
    assert.deepEqual(verifyFedaPaySignature(raw, `t=${now},s=00${expected.slice(2)},s=${expected}`, ['wh_live_two'], now), { ok: true }, 'one matching s is enough');
  });

  it('refuses a wrong secret, a changed body, a stale or future timestamp, and garbled headers', () => {
    const header = signFedaPayWebhook(raw, 'wh_live_one', now);
    assert.equal(verifyFedaPaySignature(raw, header, ['wh_other'], now).ok, false);
    assert.equal(verifyFedaPaySignature(Buffer.concat([raw, Buffer.from(' ')]), header, ['wh_live_one'], now).ok, false);
    assert.equal(verifyFedaPaySignature(raw, header, ['wh_live_one'], now + 301).ok, false);
    assert.equal(verifyFedaPaySignature(raw, header, ['wh_live_one'], now - 301).ok, false);
    assert.equal(verifyFedaPaySignature(raw, header, ['wh_live_one'], now + 300).ok, true);
    for (const bad of [undefined, '', 't=1', `s=${'a'.repeat(64)}`, 'garbage', `t=x,s=${'a'.repeat(64)}`, 't=1,s=zz', `t=1,t=2,s=${'a'.repeat(64)}`])
      assert.equal(verifyFedaPaySignature(raw, bad, ['wh_live_one'], now).ok, false, String(bad));
    assert.equal(verifyFedaPaySignature(raw, header, [''], now).ok, false, 'an empty secret never matches');
  });

  it('names our payment or payout by the entity’s merchant_reference, and nothing else', () => {
    assert.deepEqual(fedaPayWebhookSubject(parseFedaPayEvent(JSON.parse(raw.toString('utf8')))), { resource: 'payment', id: payment.id });
    assert.deepEqual(fedaPayWebhookSubject(parseFedaPayEvent(fixture('webhook-payout-sent'))), { resource: 'payout', id: payout.id });
    assert.equal(fedaPayWebhookSubject({ name: 'customer.created', entity: { merchant_reference: payment.id } }), undefined);
    assert.equal(fedaPayWebhookSubject({ name: 'transaction.approved', entity: { merchant_reference: 'ORDER-1' } }), undefined);
    assert.throws(() => parseFedaPayEvent({ name: 'transaction.approved' }), FedaPayProtocolError);
    assert.throws(() => parseFedaPayEvent([]), FedaPayProtocolError);
  });
});
