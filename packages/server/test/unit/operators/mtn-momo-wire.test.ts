/** MTN MoMo request builders and answer parsers: pure, read from recorded bodies, no network. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Payment, Refund } from '../../../src/core/payments/payment.js';
import type { Payout } from '../../../src/core/payouts/payout.js';
import { majorAmount, refund, requestToPay, statusQuery, tokenRequest, transfer } from '../../../src/operators/mtn-momo/mtn-requests.js';
import {
  collectionAnswer,
  collectionRefused,
  failureFor,
  MtnProtocolError,
  parseToken,
  parseTransaction,
  payoutAnswer,
  refundAnswer,
} from '../../../src/operators/mtn-momo/mtn-responses.js';
import { readMtnCallback } from '../../../src/operators/mtn-momo/mtn-callbacks.js';
import type { MtnMomoSettings } from '../../../src/operators/mtn-momo/mtn-settings.js';
import { SecretValue } from '../../../src/operators/secret-value.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/mtn-momo/${name}.json`, import.meta.url), 'utf8'));

const credentials = { subscriptionKey: new SecretValue('sub-key'), apiUser: 'api-user', apiKey: new SecretValue('api-key') };
const settings: MtnMomoSettings = {
  slug: 'mtn_bj',
  baseUrl: 'https://momo.example',
  targetEnvironment: 'mtnbenin',
  currency: 'XOF',
  timeoutMs: 10_000,
  callbackBaseUrl: 'https://akwe.example/api/v1/operators/mtn-momo/callbacks',
  products: { collection: credentials, disbursement: credentials },
};

const payment = {
  id: '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc0',
  reference: 'ORDER-1042',
  amountMinor: 150_000,
  phone: '+2290197000000',
  description: 'Order 1042',
} as Payment;

describe('MTN MoMo requests', () => {
  it('sends amounts as major-unit strings, exactly', () => {
    assert.equal(majorAmount(150_000), '1500');
    assert.equal(majorAmount(100), '1');
    assert.equal(majorAmount(150_025), '1500.25');
    assert.equal(majorAmount(150_005), '1500.05');
  });

  it('builds a request-to-pay with our id as X-Reference-Id and externalId, and a callback URL naming it', () => {
    const request = requestToPay(settings, payment);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/collection/v1_0/requesttopay');
    assert.equal(request.product, 'collection');
    assert.equal(request.headers['x-reference-id'], payment.id);
    assert.equal(request.headers['x-target-environment'], 'mtnbenin');
    assert.equal(request.headers['x-callback-url'], `https://akwe.example/api/v1/operators/mtn-momo/callbacks/requesttopay/${payment.id}`);
    assert.deepEqual(request.body, {
      amount: '1500',
      currency: 'XOF',
      externalId: payment.id,
      payer: { partyIdType: 'MSISDN', partyId: '2290197000000' },
      payerMessage: 'Order 1042',
      payeeNote: 'ORDER-1042',
    });
  });

  it('cuts free text to MTN’s 160 characters', () => {
    const request = requestToPay(settings, { ...payment, description: 'x'.repeat(500) });
    assert.equal((request.body!['payerMessage'] as string).length, 160);
  });

  it('builds a transfer to the payee and a refund naming the request-to-pay it refunds', () => {
    const payout = { id: '01a21189-8491-751b-8782-c9c39fb702fe', reference: 'PO-1', amountMinor: 50_000, phone: '+2250701020304', description: null } as Payout;
    const sent = transfer(settings, payout);
    assert.equal(sent.path, '/disbursement/v1_0/transfer');
    assert.equal(sent.product, 'disbursement');
    assert.deepEqual(sent.body!['payee'], { partyIdType: 'MSISDN', partyId: '2250701020304' });
    const back = refund(settings, payment, { id: '01a21189-94a5-76c1-8f0f-480d4a103234', amountMinor: 10_000, reason: null } as Refund);
    assert.equal(back.path, '/disbursement/v1_0/refund');
    assert.equal(back.headers['x-reference-id'], '01a21189-94a5-76c1-8f0f-480d4a103234');
    assert.equal(back.body!['referenceIdToRefund'], payment.id);
    assert.equal(back.body!['amount'], '100');
  });

  it('asks for a token with Basic auth of the API user and key, and queries status by reference', () => {
    const token = tokenRequest('collection', credentials);
    assert.equal(token.path, '/collection/token/');
    assert.equal(token.headers['authorization'], `Basic ${Buffer.from('api-user:api-key').toString('base64')}`);
    const query = statusQuery(settings, 'transfer', 'abc/def');
    assert.equal(query.method, 'GET');
    assert.equal(query.path, '/disbursement/v1_0/transfer/abc%2Fdef');
  });
});

describe('MTN MoMo answers', () => {
  it('reads a successful request-to-pay as processing then completed, with MTN’s transaction id', () => {
    const answer = collectionAnswer(parseTransaction(fixture('requesttopay-successful')));
    assert.deepEqual(answer.path, ['processing', 'completed']);
    assert.equal(answer.pspReference, '1987654321');
  });

  it('reads the failure reason whether MTN sends it as an object or a string', () => {
    const funds = collectionAnswer(parseTransaction(fixture('requesttopay-failed-reason-object')));
    assert.deepEqual([funds.path, funds.failureCode], [['processing', 'failed'], 'insufficient_funds']);
    const rejected = collectionAnswer(parseTransaction(fixture('requesttopay-failed-reason-string')));
    assert.equal(rejected.failureCode, 'payer_declined');
  });

  it('keeps a pending request-to-pay processing, and maps transfers and refunds to their own statuses', () => {
    assert.deepEqual(collectionAnswer(parseTransaction(fixture('requesttopay-pending'))).path, ['processing']);
    assert.deepEqual(payoutAnswer(parseTransaction(fixture('transfer-failed'))), { status: 'FAILED', message: 'MTN MoMo: PAYEE_NOT_FOUND', failureCode: 'payer_not_found' });
    assert.equal(refundAnswer(parseTransaction(fixture('requesttopay-pending'))).status, 'pending');
    assert.equal(refundAnswer(parseTransaction(fixture('requesttopay-successful'))).status, 'completed');
  });

  it('maps every documented reason, and an unknown one to operator_declined', () => {
    const expected: Record<string, string> = {
      PAYER_NOT_FOUND: 'payer_not_found',
      PAYEE_NOT_FOUND: 'payer_not_found',
      NOT_ENOUGH_FUNDS: 'insufficient_funds',
      PAYER_LIMIT_REACHED: 'payer_limit_reached',
      APPROVAL_REJECTED: 'payer_declined',
      EXPIRED: 'timeout',
      SERVICE_UNAVAILABLE: 'operator_unavailable',
      INTERNAL_PROCESSING_ERROR: 'operator_unavailable',
      NOT_ALLOWED: 'operator_declined',
      SOMETHING_NEW: 'operator_declined',
    };
    for (const [reason, code] of Object.entries(expected)) assert.equal(failureFor(reason), code, reason);
    assert.equal(failureFor(undefined), 'operator_declined');
  });

  it('reads REJECTED and TIMEOUT statuses some deployments send as failures with their reason', () => {
    assert.equal(collectionAnswer(parseTransaction({ status: 'REJECTED' })).failureCode, 'payer_declined');
    assert.equal(collectionAnswer(parseTransaction({ status: 'TIMEOUT' })).failureCode, 'timeout');
  });

  it('refuses bodies it cannot read as protocol errors (the outcome stays unknown)', () => {
    for (const body of [undefined, 'SUCCESSFUL', [], {}, { status: 'DONE' }, { status: 42 }]) {
      assert.throws(() => parseTransaction(body), MtnProtocolError, JSON.stringify(body));
    }
    assert.throws(() => parseToken({ token_type: 'access_token' }), MtnProtocolError);
    assert.deepEqual(parseToken(fixture('token')), { accessToken: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSMjU2In0.mock', expiresInSeconds: 3600 });
  });

  it('reads a refused request as failed with the mapped reason', () => {
    const answer = collectionRefused({ code: 'PAYER_NOT_FOUND', message: 'Payer not found' });
    assert.deepEqual([answer.path, answer.failureCode], [['failed'], 'payer_not_found']);
  });
});

describe('MTN MoMo callbacks', () => {
  it('names the resource to refresh from the URL, and trusts nothing else of the body', () => {
    assert.deepEqual(readMtnCallback('requesttopay', payment.id.toUpperCase(), fixture('requesttopay-successful')), { resource: 'payment', id: payment.id });
    assert.deepEqual(readMtnCallback('transfer', payment.id, fixture('transfer-failed')), { resource: 'payout', id: payment.id });
  });

  it('refuses what is not an MTN callback', () => {
    assert.ok('invalid' in readMtnCallback('collect', payment.id, fixture('requesttopay-successful')));
    assert.ok('invalid' in readMtnCallback('requesttopay', 'ORDER-1042', fixture('requesttopay-successful')));
    assert.ok('invalid' in readMtnCallback('requesttopay', payment.id, { hello: 'world' }));
  });
});
