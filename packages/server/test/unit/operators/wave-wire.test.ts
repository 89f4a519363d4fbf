/** Wave request builders, answer parsers and webhook signatures: pure, read from recorded bodies, no network. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Payment, Refund } from '../../../src/core/payments/payment.js';
import type { Payout } from '../../../src/core/payouts/payout.js';
import { isFailureCode } from '../../../src/core/shared/failure-codes.js';
import { SecretValue } from '../../../src/operators/secret-value.js';
import {
  checkoutSessionsByReference,
  createCheckoutSession,
  createPayout,
  isWholeMajor,
  majorAmount,
  payoutsByReference,
  refundCheckoutSession,
  refundIsWhole,
} from '../../../src/operators/wave/wave-requests.js';
import {
  classifyWaveError,
  errorCode,
  minorAmount,
  parseCheckoutSession,
  parsePayout,
  parseSearch,
  paymentFailureFor,
  payoutAnswer,
  payoutFailureFor,
  payoutRefused,
  payoutsFromSearch,
  payoutThatCounts,
  refundAccepted,
  refundRefused,
  sessionAnswer,
  sessionRefused,
  sessionsFromSearch,
  sessionThatCounts,
  wavePaymentErrors,
  wavePayoutErrors,
  WaveProtocolError,
} from '../../../src/operators/wave/wave-responses.js';
import { returnProof, returnProofMatches } from '../../../src/operators/return-proof.js';
import { waveReturnUrls } from '../../../src/operators/wave/wave-return.js';
import { WaveEntrySchema, type WaveSettings } from '../../../src/operators/wave/wave-settings.js';
import { parseWaveEvent, signWaveWebhook, verifyWaveSignature, waveWebhookSubject } from '../../../src/operators/wave/wave-webhooks.js';

// As the operators file is checked (operators-file.ts).
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validEntry = ajv.compile(WaveEntrySchema);

const fixturePath = (name: string) => new URL(`../../fixtures/wave/${name}.json`, import.meta.url);
const fixture = (name: string): unknown => JSON.parse(readFileSync(fixturePath(name), 'utf8'));
const rawFixture = (name: string): Buffer => readFileSync(fixturePath(name));

const SERVER_SECRET = 'wave-wire-test-server-secret-0123456789';

const settings: WaveSettings = {
  slug: 'wave_ci',
  baseUrl: 'https://api.wave.com',
  apiKey: new SecretValue('wave_ci_prod_key'),
  webhookSecret: new SecretValue('wave_ci_WHS_secret'),
  currency: 'XOF',
  timeoutMs: 10_000,
  ...waveReturnUrls('https://akwe.example/', () => SERVER_SECRET),
};

const payment = {
  id: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc0',
  reference: 'ORDER-1042',
  amountMinor: 150_000,
  refundedMinor: 0,
  phone: '+2250701020304',
  description: 'Order 1042',
} as Payment;

const payout = {
  id: '01a21189-8491-751b-8782-c9c39fb702fe',
  reference: 'PO-1',
  amountMinor: 50_000,
  phone: '+2250701020304',
  recipientFirstName: 'Awa',
  recipientLastName: 'Koné',
  description: 'Remboursement du trop-perçu de la commande 1042',
} as Payout;

describe('Wave settings', () => {
  it('accepts an operators-file entry with secrets inline or env:, and nothing else', () => {
    const entry = { connector: 'wave', base_url: 'https://api.wave.com', api_key: 'env:WAVE_CI_API_KEY', webhook_secret: 'wave_ci_WHS_x', timeout_ms: 8000 };
    assert.equal(validEntry(entry), true);
    assert.equal(validEntry({ ...entry, extra: true }), false);
    assert.equal(validEntry({ ...entry, connector: 'mtn-momo' }), false);
    assert.equal(validEntry({ ...entry, timeout_ms: 60_000 }), false);
    assert.equal(validEntry({ ...entry, base_url: 'not a url' }), false);
    const { webhook_secret: _omitted, ...noSecret } = entry;
    assert.equal(validEntry(noSecret), false);
  });

  it('builds return URLs naming the payment under the public URL, with the payment’s proof', () => {
    const proof = returnProof(SERVER_SECRET, 'wave', payment.id);
    assert.match(proof, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(settings.successUrlFor(payment.id), `https://akwe.example/api/v1/operators/wave/checkout-return/${payment.id}/success/${proof}`);
    assert.equal(settings.errorUrlFor(payment.id), `https://akwe.example/api/v1/operators/wave/checkout-return/${payment.id}/error/${proof}`);
  });

  it('binds a return proof to one payment and one server secret', () => {
    const proof = returnProof(SERVER_SECRET, 'wave', payment.id);
    assert.equal(returnProofMatches(SERVER_SECRET, 'wave', payment.id, proof), true);
    assert.equal(returnProofMatches(SERVER_SECRET, 'wave', payment.id.toUpperCase(), proof), true, 'ids are compared lower-cased');
    assert.equal(returnProofMatches(SERVER_SECRET, 'wave', '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc1', proof), false, 'another payment');
    assert.equal(returnProofMatches('another-server-secret-0123456789abcdef', 'wave', payment.id, proof), false, 'another server');
    assert.equal(returnProofMatches(SERVER_SECRET, 'wave', payment.id, ''), false);
    assert.equal(returnProofMatches(SERVER_SECRET, 'wave', payment.id, `${proof}x`), false);
  });
});

describe('Wave requests', () => {
  it('sends whole francs as strings and refuses what Wave cannot take', () => {
    assert.equal(majorAmount(150_000), '1500');
    assert.equal(majorAmount(100), '1');
    assert.throws(() => majorAmount(150_050), RangeError);
    assert.throws(() => majorAmount(0), RangeError);
    assert.throws(() => majorAmount(-100), RangeError);
    assert.throws(() => majorAmount(1.5), RangeError);
    assert.equal(isWholeMajor(150_000), true);
    assert.equal(isWholeMajor(150_050), false);
  });

  it('creates a checkout session with our payment id as client_reference and Idempotency-Key', () => {
    const request = createCheckoutSession(settings, payment);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/checkout/sessions');
    assert.equal(request.headers['idempotency-key'], payment.id);
    assert.equal(request.headers['authorization'], undefined, 'the client adds the key');
    assert.deepEqual(request.body, {
      amount: '1500',
      currency: 'XOF',
      success_url: `https://akwe.example/api/v1/operators/wave/checkout-return/${payment.id}/success/${returnProof(SERVER_SECRET, 'wave', payment.id)}`,
      error_url: `https://akwe.example/api/v1/operators/wave/checkout-return/${payment.id}/error/${returnProof(SERVER_SECRET, 'wave', payment.id)}`,
      client_reference: payment.id,
    });
  });

  it('restricts the payer only when asked, and takes explicit URLs and a new key for a second session', () => {
    const request = createCheckoutSession(settings, payment, {
      restrictPayerMobile: true,
      successUrl: 'https://shop.example/ok',
      errorUrl: 'https://shop.example/ko',
      idempotencyKey: `${payment.id}:2`,
    });
    assert.equal(request.body!['restrict_payer_mobile'], '+2250701020304');
    assert.equal(request.body!['success_url'], 'https://shop.example/ok');
    assert.equal(request.body!['error_url'], 'https://shop.example/ko');
    assert.equal(request.headers['idempotency-key'], `${payment.id}:2`);
    assert.equal(request.body!['client_reference'], payment.id);
    assert.equal(createCheckoutSession(settings, { ...payment, phone: null }, { restrictPayerMobile: true }).body!['restrict_payer_mobile'], undefined);
  });

  it('searches sessions and payouts by our id, escaped', () => {
    assert.deepEqual(checkoutSessionsByReference(payment.id), { method: 'GET', path: `/v1/checkout/sessions/search?client_reference=${payment.id}`, headers: {} });
    assert.equal(payoutsByReference('a b&c').path, '/v1/payouts/search?client_reference=a%20b%26c');
  });

  it('refunds a session with no body, our refund id as the key, and only in full', () => {
    const refund = { id: '01a21189-94a5-76c1-8f0f-480d4a103234', amountMinor: 150_000, reason: null } as Refund;
    const request = refundCheckoutSession('cos-1b01sghpg100j', refund);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/checkout/sessions/cos-1b01sghpg100j/refund');
    assert.equal(request.body, undefined);
    assert.equal(request.headers['idempotency-key'], refund.id);
    assert.equal(refundIsWhole(payment, refund), true);
    assert.equal(refundIsWhole(payment, { ...refund, amountMinor: 10_000 }), false);
    assert.equal(refundIsWhole({ ...payment, refundedMinor: 10_000 } as Payment, refund), false);
  });

  it('creates a payout with our id as client_reference and Idempotency-Key, the E.164 mobile and the name', () => {
    const request = createPayout(settings, payout);
    assert.equal(request.path, '/v1/payout');
    assert.equal(request.headers['idempotency-key'], payout.id);
    assert.deepEqual(request.body, {
      currency: 'XOF',
      receive_amount: '500',
      mobile: '+2250701020304',
      name: 'Awa Koné',
      client_reference: payout.id,
      payment_reason: 'Remboursement du trop-perçu de la comman',
    });
    assert.equal((request.body!['payment_reason'] as string).length, 40);
    const anonymous = createPayout(settings, { ...payout, recipientFirstName: null, recipientLastName: ' ', description: null });
    assert.equal('name' in anonymous.body!, false);
    assert.equal('payment_reason' in anonymous.body!, false);
  });
});

describe('Wave checkout sessions', () => {
  it('reads a session and keeps the launch URL', () => {
    const session = parseCheckoutSession(fixture('checkout-session-open'));
    assert.equal(session.id, 'cos-1b01sghpg100j');
    assert.equal(session.clientReference, payment.id);
    assert.equal(session.launchUrl, 'https://pay.wave.com/c/cos-1b01sghpg100j?a=1500&c=XOF&m=Boutique%20Akwe');
    assert.equal(session.transactionId, undefined, 'null is absent');
    assert.equal(session.lastPaymentError, undefined);
    assert.equal(minorAmount(session.amount), 150_000);
  });

  it('maps every state to ours', () => {
    assert.deepEqual(sessionAnswer(parseCheckoutSession(fixture('checkout-session-open'))).path, ['processing']);
    const paid = sessionAnswer(parseCheckoutSession(fixture('checkout-session-complete')));
    assert.deepEqual([paid.path, paid.pspReference, paid.failureCode], [['processing', 'completed'], 'T_4G7KXQ2MZP3A', undefined]);
    const retrying = sessionAnswer(parseCheckoutSession(fixture('checkout-session-attempt-failed')));
    assert.deepEqual(retrying.path, ['processing'], 'a failed attempt leaves the session open for another');
    assert.match(retrying.message!, /insufficient-funds/);
    const expired = sessionAnswer(parseCheckoutSession(fixture('checkout-session-expired')));
    assert.deepEqual([expired.path, expired.failureCode], [['processing', 'failed'], 'expired']);
    const lastError = sessionAnswer(parseCheckoutSession(fixture('checkout-session-expired-after-failure')));
    assert.deepEqual([lastError.path, lastError.failureCode], [['processing', 'failed'], 'insufficient_funds']);
    const cancelled = sessionAnswer(parseCheckoutSession({ ...(fixture('checkout-session-open') as object), checkout_status: 'complete', payment_status: 'cancelled' }));
    assert.deepEqual([cancelled.path, cancelled.failureCode], [['processing', 'failed'], 'payer_declined']);
  });

  it('maps every documented payment error, and an unknown one to operator_declined', () => {
    const expected: Record<string, string> = {
      'insufficient-funds': 'insufficient_funds',
      'payment-failure': 'operator_unavailable',
      'blocked-account': 'operator_declined',
      'payer-mobile-mismatch': 'operator_declined',
      'customer-age-restricted': 'operator_declined',
      'cross-border-payment-not-allowed': 'operator_declined',
      'kyb-limits-exceeded': 'operator_declined',
      'something-new': 'operator_declined',
      constructor: 'operator_declined',
    };
    for (const [code, ours] of Object.entries(expected)) assert.equal(paymentFailureFor(code), ours, code);
    assert.equal(paymentFailureFor(undefined), 'operator_declined');
    for (const code of [...Object.values(wavePaymentErrors), ...Object.values(wavePayoutErrors)]) assert.ok(isFailureCode(code), code);
  });

  it('finds the session that counts among several made for one payment', () => {
    const sessions = sessionsFromSearch(fixture('checkout-sessions-search'));
    assert.equal(sessions.length, 2);
    assert.equal(sessionThatCounts(sessions)?.id, 'cos-1b01sghpg100j');
    assert.equal(sessionThatCounts([...sessions].reverse())?.id, 'cos-1b01sghpg100j');
    assert.equal(sessionThatCounts([sessions[0]!])?.id, 'cos-1b01aaaaa100a');
    assert.equal(sessionThatCounts([]), undefined);
    assert.deepEqual(parseSearch({ result: [] }), []);
  });

  it('refuses bodies it cannot read as protocol errors (the outcome stays unknown)', () => {
    const open = fixture('checkout-session-open') as Record<string, unknown>;
    for (const body of [
      undefined,
      'cos-1',
      [],
      {},
      { ...open, id: '' },
      { ...open, checkout_status: 'done' },
      { ...open, payment_status: 'paid' },
      { ...open, amount: 1500 },
      { ...open, amount: '15,00' },
    ]) {
      assert.throws(() => parseCheckoutSession(body), WaveProtocolError, JSON.stringify(body));
    }
    for (const body of [undefined, [], { results: [] }, { result: {} }]) assert.throws(() => parseSearch(body), WaveProtocolError, JSON.stringify(body));
    assert.throws(() => minorAmount('12.345'), WaveProtocolError);
    assert.equal(minorAmount('12.3'), 1230);
  });

  it('reads a refused session creation as failed with the mapped reason', () => {
    const answer = sessionRefused(fixture('error-request-validation'));
    assert.deepEqual([answer.path, answer.failureCode], [['failed'], 'operator_declined']);
    assert.match(answer.message!, /request-validation-error/);
  });
});

describe('Wave payouts', () => {
  it('maps every payout status to ours, Wave’s id as the PSP reference', () => {
    assert.deepEqual(payoutAnswer(parsePayout(fixture('payout-processing'))), { status: 'PROCESSING', message: 'Wave: payout in progress.', pspReference: 'pt-1b02g6kx8100c' });
    assert.equal(payoutAnswer(parsePayout(fixture('payout-succeeded'))).status, 'COMPLETED');
    const failed = payoutAnswer(parsePayout(fixture('payout-failed')));
    assert.deepEqual([failed.status, failed.failureCode], ['FAILED', 'payer_limit_reached']);
    assert.match(failed.message!, /recipient-limit-exceeded/);
    const reversed = payoutAnswer(parsePayout(fixture('payout-reversed')));
    assert.equal(reversed.status, 'FAILED');
    assert.match(reversed.message!, /reversed/);
  });

  it('reads the payout fields, null as absent', () => {
    const failed = parsePayout(fixture('payout-failed'));
    assert.deepEqual(failed.error, { code: 'recipient-limit-exceeded', message: 'The recipient has reached their monthly receiving limit.' });
    assert.equal(failed.name, undefined);
    assert.equal(parsePayout(fixture('payout-processing')).fee, '5');
    assert.equal(payoutThatCounts(payoutsFromSearch(fixture('payouts-search')))?.status, 'succeeded');
    assert.equal(payoutThatCounts([]), undefined);
    for (const body of [null, {}, { id: 'pt-1', status: 'done', receive_amount: '1' }, { id: 'pt-1', status: 'failed' }]) assert.throws(() => parsePayout(body), WaveProtocolError);
  });

  it('maps the documented payout errors, a refused payout and an unknown code', () => {
    const expected: Record<string, string> = {
      'insufficient-funds': 'insufficient_funds',
      'recipient-account-inactive': 'payer_not_found',
      'recipient-limit-exceeded': 'payer_limit_reached',
      'recipient-account-blocked': 'operator_declined',
      'recipient-minor': 'operator_declined',
      'service-unavailable': 'operator_unavailable',
      'brand-new-code': 'operator_declined',
    };
    for (const [code, ours] of Object.entries(expected)) assert.equal(payoutFailureFor(code), ours, code);
    assert.deepEqual(payoutRefused(fixture('error-insufficient-funds')).failureCode, 'insufficient_funds');
    assert.equal(payoutRefused({ nothing: true }).failureCode, 'operator_declined');
  });
});

describe('Wave refunds and errors', () => {
  it('reads refund answers', () => {
    assert.equal(refundAccepted.status, 'completed');
    const refused = refundRefused(fixture('error-checkout-refund-failed'));
    assert.equal(refused.status, 'failed');
    assert.match(refused.message!, /checkout-refund-failed/);
  });

  it('classifies error answers by what they mean for the call', () => {
    assert.equal(errorCode(fixture('error-idempotency-mismatch')), 'idempotency-mismatch');
    assert.equal(classifyWaveError(409, fixture('error-idempotency-mismatch')), 'idempotency_mismatch');
    assert.equal(classifyWaveError(401, { code: 'invalid-auth' }), 'auth');
    assert.equal(classifyWaveError(404, { code: 'payout-not-found' }), 'not_found');
    assert.equal(classifyWaveError(422, fixture('error-insufficient-funds')), 'refused');
    assert.equal(classifyWaveError(400, fixture('error-request-validation')), 'refused');
    for (const status of [408, 429, 500, 502, 503]) assert.equal(classifyWaveError(status, undefined), 'unknown', String(status));
  });
});

describe('Wave webhooks', () => {
  const secret = 'wave_ci_WHS_secret';
  const body = rawFixture('webhook-checkout-completed');
  const t = 1_772_446_601;

  it('accepts a delivery signed with the secret, as raw bytes or text', () => {
    const header = signWaveWebhook(body, secret, t);
    const expected = createHmac('sha256', secret)
      .update(`${t}${body.toString('utf8')}`)
      .digest('hex');
    assert.equal(header, `t=${t},v1=${expected}`, 'v1 is the HMAC of the timestamp then the body, no separator');
    assert.deepEqual(verifyWaveSignature(body, header, secret, t), { ok: true });
    assert.deepEqual(verifyWaveSignature(body.toString('utf8'), header, secret, t + 299), { ok: true });
  });

  it('refuses the wrong secret, a tampered body and a stale or future timestamp', () => {
    const header = signWaveWebhook(body, secret, t);
    assert.equal(verifyWaveSignature(body, header, 'another-secret', t).ok, false);
    const tampered = Buffer.from(body.toString('utf8').replace('"1500"', '"15000"'));
    assert.notDeepEqual(tampered, body);
    assert.equal(verifyWaveSignature(tampered, header, secret, t).ok, false);
    const stale = verifyWaveSignature(body, header, secret, t + 301);
    assert.equal(stale.ok, false);
    assert.match((stale as { reason: string }).reason, /300 s/);
    assert.equal(verifyWaveSignature(body, header, secret, t - 301).ok, false);
    assert.deepEqual(verifyWaveSignature(body, header, secret, t + 1000, 1000), { ok: true });
    // The timestamp is signed: moving it breaks the signature.
    const moved = header.replace(`t=${t}`, `t=${t + 100}`);
    assert.equal(verifyWaveSignature(body, moved, secret, t + 100).ok, false);
  });

  it('accepts any one of several v1 values (a secret being rolled), in any order', () => {
    const good = signWaveWebhook(body, secret, t).split(',v1=')[1]!;
    const other = signWaveWebhook(body, 'old-secret', t).split(',v1=')[1]!;
    assert.deepEqual(verifyWaveSignature(body, `t=${t},v1=${other},v1=${good}`, secret, t), { ok: true });
    assert.deepEqual(verifyWaveSignature(body, `v1=${good}, t=${t}, v0=whatever, v1=${other}`, secret, t), { ok: true });
    assert.equal(verifyWaveSignature(body, `t=${t},v1=${other},v1=${other}`, secret, t).ok, false);
  });

  it('refuses a missing or garbled header', () => {
    const good = signWaveWebhook(body, secret, t).split(',v1=')[1]!;
    for (const header of [
      undefined,
      '',
      '   ',
      'garbage',
      `v1=${good}`,
      `t=${t}`,
      `t=${t},v1=`,
      `t=${t},v1=${good.slice(0, 63)}`,
      `t=${t},v1=${good}zz`,
      `t=abc,v1=${good}`,
      `t=${t},t=${t},v1=${good}`,
      `t=${t},,v1=${good}`,
      `=x,t=${t},v1=${good}`,
    ]) {
      const check = verifyWaveSignature(body, header, secret, t);
      assert.equal(check.ok, false, JSON.stringify(header));
      assert.ok(!check.ok && check.reason.length > 0);
    }
  });

  it('reads events and names the payment of a checkout event, case folded', () => {
    const completed = parseWaveEvent(body);
    assert.equal(completed.type, 'checkout.session.completed');
    assert.deepEqual(waveWebhookSubject(completed), { resource: 'payment', id: payment.id });
    const failed = parseWaveEvent(fixture('webhook-payment-failed'));
    assert.deepEqual(waveWebhookSubject(failed), { resource: 'payment', id: payment.id });
    assert.equal(sessionAnswer(parseCheckoutSession(failed.data)).path.at(-1), 'processing');
    assert.deepEqual(waveWebhookSubject({ id: 'AE_1', type: 'payout.succeeded', data: { client_reference: payout.id } }), { resource: 'payout', id: payout.id });
    assert.equal(waveWebhookSubject({ id: 'AE_2', type: 'merchant.payment_received', data: { client_reference: payment.id } }), undefined);
    assert.equal(waveWebhookSubject({ id: 'AE_3', type: 'checkout.session.completed', data: { client_reference: 'ORDER-1042' } }), undefined);
    assert.equal(waveWebhookSubject({ id: 'AE_4', type: 'checkout.session.completed', data: {} }), undefined);
  });

  it('refuses what is not an event', () => {
    for (const raw of ['not json', '[]', '{}', '{"id":"AE_1","type":"x"}', '{"id":"","type":"x","data":{}}', '{"id":"AE_1","data":{}}']) {
      assert.throws(() => parseWaveEvent(raw), WaveProtocolError, raw);
    }
    assert.throws(() => parseWaveEvent(42), WaveProtocolError);
  });
});
