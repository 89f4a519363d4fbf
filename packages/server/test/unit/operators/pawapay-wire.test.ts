/** pawaPay request builders, answer parsers, failure-code table and callback signatures: pure, from recorded bodies, no network. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Payment, Refund } from '../../../src/core/payments/payment.js';
import type { Payout } from '../../../src/core/payouts/payout.js';
import { failureCodeList } from '../../../src/core/shared/failure-codes.js';
import { healthOf } from '../../../src/operators/pawapay/pawapay-availability.js';
import { readPawapayCallback } from '../../../src/operators/pawapay/pawapay-callbacks.js';
import { customerMessage, deposit, majorAmount, payout, refund, statusQuery } from '../../../src/operators/pawapay/pawapay-requests.js';
import {
  depositAnswer,
  depositRejected,
  parseAvailability,
  parseInitiation,
  parseStatusCheck,
  parseTransaction,
  parseWalletBalances,
  PawapayProtocolError,
  payoutAnswer,
  refundAnswer,
} from '../../../src/operators/pawapay/pawapay-responses.js';
import type { PawapaySettings } from '../../../src/operators/pawapay/pawapay-settings.js';
import { contentDigest, signPawapayCallback, verifyPawapaySignature } from '../../../src/operators/pawapay/pawapay-signatures.js';
import { failureFor, pawapayFailureCodes } from '../../../src/operators/pawapay/pawapay-statuses.js';
import { SecretValue } from '../../../src/operators/secret-value.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/pawapay/${name}.json`, import.meta.url), 'utf8'));

const settings: PawapaySettings = {
  slug: 'flooz_tg',
  baseUrl: 'https://api.pawapay.example',
  apiToken: new SecretValue('token'),
  provider: 'MOOV_TGO',
  country: 'TGO',
  currency: 'XOF',
  timeoutMs: 10_000,
  availabilityTtlMs: 60_000,
  preAuthorised: false,
};

const payment = { id: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc0', reference: 'ORDER-1042', amountMinor: 150_000, phone: '+22899345789' } as Payment;

describe('pawaPay requests', () => {
  it('writes amounts as major-unit strings and refuses a fraction of a franc instead of rounding it', () => {
    assert.equal(majorAmount(150_000), '1500');
    assert.equal(majorAmount(100), '1');
    assert.throws(() => majorAmount(150_050), RangeError);
    assert.throws(() => majorAmount(0), RangeError);
  });

  it('builds a deposit with our payment id as depositId, the provider code and the MSISDN without its plus', () => {
    const request = deposit(settings, payment);
    assert.deepEqual([request.method, request.path], ['POST', '/v2/deposits']);
    assert.deepEqual(request.body, {
      depositId: payment.id,
      payer: { type: 'MMO', accountDetails: { phoneNumber: '22899345789', provider: 'MOOV_TGO' } },
      amount: '1500',
      currency: 'XOF',
      clientReferenceId: 'ORDER-1042',
      customerMessage: 'ORDER 1042',
    });
  });

  it('starts a pre-authorised deposit with the customer’s code', () => {
    const request = deposit({ ...settings, provider: 'ORANGE_CIV', preAuthorised: true }, { ...payment, phone: '+2250703456789' }, '482913');
    assert.equal(request.body?.['preAuthorisationCode'], '482913');
  });

  it('builds a payout and a refund with our ids, the refund naming the deposit', () => {
    const out = payout(settings, { id: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc2', reference: 'PO-1', amountMinor: 100_000, phone: '+22899345089' } as Payout);
    assert.deepEqual([out.path, out.body?.['payoutId'], out.body?.['amount']], ['/v2/payouts', '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc2', '1000']);
    assert.deepEqual(out.body?.['recipient'], { type: 'MMO', accountDetails: { phoneNumber: '22899345089', provider: 'MOOV_TGO' } });
    const back = refund(settings, payment, { id: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc3', amountMinor: 50_000 } as Refund);
    assert.deepEqual(back.body, { refundId: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc3', depositId: payment.id, amount: '500', currency: 'XOF', clientReferenceId: 'ORDER-1042' });
    assert.equal(statusQuery('refunds', '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc3').path, '/v2/refunds/01a21189-6b76-74aa-b6b6-dcd3c1dbfbc3');
  });

  it('fits the customer message to pawaPay’s 4 to 22 letters, digits and spaces, or leaves it out', () => {
    assert.equal(customerMessage('Commande n°1042 — boutique Akwe du marché'), 'Commande n 1042 boutiq');
    assert.equal(customerMessage('A-1'), undefined);
  });
});

describe('pawaPay answers', () => {
  it('reads the initiation statuses, DUPLICATE_IGNORED included', () => {
    assert.equal(parseInitiation(fixture('deposit-accepted')).status, 'ACCEPTED');
    assert.equal(parseInitiation(fixture('deposit-duplicate-ignored')).status, 'DUPLICATE_IGNORED');
    const rejected = parseInitiation(fixture('deposit-rejected'));
    assert.deepEqual([rejected.status, rejected.failure?.code], ['REJECTED', 'PROVIDER_TEMPORARILY_UNAVAILABLE']);
    assert.deepEqual(depositRejected(rejected.failure).failureCode, 'operator_unavailable');
    assert.throws(() => parseInitiation({ status: 'MAYBE' }), PawapayProtocolError);
  });

  it('reads a status check: FOUND with the transaction, NOT_FOUND as never received', () => {
    const completed = parseStatusCheck(fixture('deposit-status-completed'))!;
    assert.deepEqual(depositAnswer(completed), {
      path: ['processing', 'completed'],
      message: 'pawaPay: the customer paid.',
      pspReference: 'MP261127.1015.A12345',
    });
    const failed = depositAnswer(parseStatusCheck(fixture('deposit-status-failed'))!);
    assert.deepEqual([failed.path, failed.failureCode], [['processing', 'failed'], 'insufficient_funds']);
    assert.equal(parseStatusCheck(fixture('status-not-found')), undefined);
    assert.throws(() => parseStatusCheck({ status: 'FOUND', data: { depositId: payment.id, status: 'SOMETHING_NEW' } }), PawapayProtocolError);
  });

  it('keeps a pre-authorised deposit on the OTP path: pending while it moves, IN_RECONCILIATION still moving', () => {
    const moving = depositAnswer(parseStatusCheck(fixture('deposit-status-in-reconciliation'))!, { preAuthorised: true });
    assert.deepEqual(moving.path, ['awaiting_otp', 'pending']);
    const refused = depositAnswer({ id: payment.id, status: 'FAILED', state: 'failed', failure: { code: 'PAYMENT_NOT_APPROVED' } }, { preAuthorised: true });
    assert.equal(refused.failureCode, 'otp_failed');
  });

  it('reads payouts and refunds', () => {
    assert.equal(payoutAnswer(parseStatusCheck(fixture('payout-status-enqueued'))!).status, 'PROCESSING');
    const failed = payoutAnswer(parseTransaction(fixture('payout-callback-failed')));
    assert.deepEqual([failed.status, failed.failureCode], ['FAILED', 'payer_not_found']);
    assert.deepEqual(refundAnswer(parseStatusCheck(fixture('refund-status-completed'))!), { status: 'completed', pspReference: 'RF261127.1100.B777' });
  });

  it('reads availability per provider into health: a closed deposit flow is unavailable, a delayed one degraded', () => {
    const moov = parseAvailability(fixture('availability'), 'MOOV_BEN');
    assert.deepEqual(moov, { DEPOSIT: 'CLOSED', PAYOUT: 'DELAYED' });
    assert.equal(healthOf(moov), 'unavailable');
    assert.equal(healthOf(parseAvailability(fixture('availability'), 'MTN_MOMO_BEN')), 'available');
    assert.equal(healthOf({ DEPOSIT: 'OPERATIONAL', PAYOUT: 'DELAYED' }), 'degraded');
    assert.equal(healthOf(parseAvailability(fixture('availability'), 'MOOV_TGO')), 'available', 'not listed: availability says nothing');
  });

  it('reads wallet balances', () => {
    assert.deepEqual(parseWalletBalances(fixture('wallet-balances'))[0], { country: 'BEN', balance: '1250000.00', currency: 'XOF' });
  });

  it('maps every failure code to one of our closed catalogue, and an unknown one to operator_declined', () => {
    for (const [code, ours] of Object.entries(pawapayFailureCodes)) assert.ok(failureCodeList.includes(ours), code);
    assert.equal(failureFor('PAYER_LIMIT_REACHED'), 'payer_limit_reached');
    assert.equal(failureFor('PAYMENT_NOT_APPROVED'), 'payer_declined');
    assert.equal(failureFor('A_CODE_FROM_TOMORROW'), 'operator_declined');
    assert.equal(failureFor(undefined), 'operator_declined');
  });
});

describe('pawaPay callbacks', () => {
  const rawBody = Buffer.from(JSON.stringify(parseStatusCheck(fixture('deposit-status-completed')) && (fixture('deposit-status-completed') as { data: unknown }).data));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const now = 1_795_800_000;
  const request = { method: 'POST', authority: 'akwe.example', path: '/api/v1/operators/pawapay/callbacks/deposits', rawBody };
  const headers = signPawapayCallback(request, privatePem, { keyId: 'pp-1', nowSeconds: now });

  it('names our resource from the body of the kind its URL says, and refuses anything else', () => {
    assert.deepEqual(readPawapayCallback('deposits', JSON.parse(rawBody.toString())), { resource: 'payment', id: payment.id });
    assert.deepEqual(readPawapayCallback('payouts', fixture('payout-callback-failed')), { resource: 'payout', id: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc2' });
    assert.ok('invalid' in readPawapayCallback('payouts', JSON.parse(rawBody.toString())), 'a deposit at the payouts URL');
    assert.ok('invalid' in readPawapayCallback('deposits', { depositId: 'not-ours', status: 'COMPLETED' }));
  });

  it('verifies pawaPay’s RFC 9421 signature and Content-Digest, and refuses a changed body, path, key or an expired one', () => {
    assert.equal(headers['content-digest'], contentDigest(rawBody));
    assert.match(
      headers['signature-input']!,
      /^sig-pp=\("@method" "@authority" "@path" "signature-date" "content-digest" "content-type"\);alg="ecdsa-p256-sha256";keyid="pp-1";created=\d+;expires=\d+$/,
    );
    assert.deepEqual(verifyPawapaySignature({ ...request, headers }, publicPem, now), { ok: true, keyId: 'pp-1' });
    assert.equal(verifyPawapaySignature({ ...request, headers, rawBody: Buffer.from(rawBody.toString().replace('1500', '15')) }, publicPem, now).ok, false);
    assert.equal(verifyPawapaySignature({ ...request, headers, path: '/api/v1/operators/pawapay/callbacks/payouts' }, publicPem, now).ok, false);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    assert.equal(verifyPawapaySignature({ ...request, headers }, other, now).ok, false);
    assert.equal(verifyPawapaySignature({ ...request, headers }, publicPem, now + 3600).ok, false, 'expired');
    assert.equal(verifyPawapaySignature({ ...request, headers: { 'content-type': 'application/json' } }, publicPem, now).ok, false, 'unsigned');
  });
});
