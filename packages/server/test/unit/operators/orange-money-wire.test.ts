/** Orange Money Web Payment request builders, answer parsers and notifications: pure, read from recorded bodies, no network. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Payment } from '../../../src/core/payments/payment.js';
import { isFailureCode } from '../../../src/core/shared/failure-codes.js';
import { notificationMatches, readOrangeNotification } from '../../../src/operators/orange-money/orange-notifications.js';
import { isWholeMajor, tokenRequest, transactionStatus, webPayment } from '../../../src/operators/orange-money/orange-requests.js';
import {
  errorMessage,
  isRefusal,
  notifTokenHash,
  orangeStatuses,
  orangeStatusTable,
  OrangeProtocolError,
  parseToken,
  parseWebPayment,
  statusAnswer,
} from '../../../src/operators/orange-money/orange-responses.js';
import { orangeUrls, type OrangeMoneySettings } from '../../../src/operators/orange-money/orange-settings.js';
import { SecretValue } from '../../../src/operators/secret-value.js';
import { returnProof } from '../../../src/operators/return-proof.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/orange-money/${name}.json`, import.meta.url), 'utf8'));

const settings: OrangeMoneySettings = {
  slug: 'orange_ci',
  baseUrl: 'https://api.orange.com',
  authorizationHeader: new SecretValue('Basic b3JhbmdlLWlkOm9yYW5nZS1zZWNyZXQ='),
  merchantKey: new SecretValue('c5a2f5a1'),
  webpayPath: '/orange-money-webpay/dev/v1',
  tokenPath: '/oauth/v3/token',
  currency: 'OUV',
  lang: 'fr',
  reference: 'Boutique',
  timeoutMs: 10_000,
  ...orangeUrls('https://akwe.example/', () => 'server-secret'),
};

const payment = { id: '01a21e00-0000-7000-8000-000000000001', amountMinor: 500_000 } as Payment;

describe('Orange Money requests', () => {
  it('asks a token with the Authorization header as Orange shows it, form-encoded client credentials', () => {
    const request = tokenRequest(settings);
    assert.equal(request.path, '/oauth/v3/token');
    assert.equal(request.headers['authorization'], 'Basic b3JhbmdlLWlkOm9yYW5nZS1zZWNyZXQ=');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(request.form, { grant_type: 'client_credentials' });
  });

  it('opens a web payment with our payment id as order id, whole francs and our URLs', () => {
    const request = webPayment(settings, payment);
    assert.equal(request.path, '/orange-money-webpay/dev/v1/webpayment');
    assert.deepEqual(request.body, {
      merchant_key: 'c5a2f5a1',
      currency: 'OUV',
      order_id: payment.id,
      amount: 5000,
      return_url: `https://akwe.example/api/v1/operators/orange-money/return/${payment.id}/${returnProof('server-secret', 'orange-money', payment.id)}`,
      cancel_url: `https://akwe.example/api/v1/operators/orange-money/return/${payment.id}/${returnProof('server-secret', 'orange-money', payment.id)}`,
      notif_url: `https://akwe.example/api/v1/operators/orange-money/notifications/${payment.id}`,
      lang: 'fr',
      reference: 'Boutique',
    });
    assert.equal(isWholeMajor(500_050), false);
  });

  it('asks the transaction status by order id, amount and pay_token', () => {
    const request = transactionStatus(settings, payment, 'tok');
    assert.equal(request.path, '/orange-money-webpay/dev/v1/transactionstatus');
    assert.deepEqual(request.body, { order_id: payment.id, amount: 5000, pay_token: 'tok' });
  });
});

describe('Orange Money answers', () => {
  it('reads the token (expires_in as Orange sends it, a string)', () => {
    assert.deepEqual(parseToken(fixture('token')), { accessToken: 'i6m2iIcY0SodWSe...L3ojAXXrH', expiresInSeconds: 7_776_000 });
    assert.throws(() => parseToken({}), OrangeProtocolError);
  });

  it('reads the web payment: pay_token, payment_url, notif_token', () => {
    const opened = parseWebPayment(fixture('webpayment-201'));
    assert.equal(opened.notifToken, 'dd497bda3b250e536186fc0663f32f40');
    assert.match(opened.paymentUrl, /^https:\/\/webpayment\.orange-money\.com\/payment\/pay_token\//);
    assert.throws(() => parseWebPayment({ status: 201 }), OrangeProtocolError);
  });

  it('maps every Orange status to our path, and SUCCESS carries the txnid as psp reference', () => {
    assert.deepEqual(statusAnswer(fixture('transactionstatus-success'), payment.id), { path: ['processing', 'completed'], pspReference: 'MP150709.1341.A00073' });
    assert.deepEqual(statusAnswer(fixture('transactionstatus-pending'), payment.id), { path: ['processing'] });
    for (const status of orangeStatuses) {
      const row = orangeStatusTable[status];
      if (row.failureCode) assert.ok(isFailureCode(row.failureCode));
    }
    assert.equal(statusAnswer({ status: 'EXPIRED', order_id: payment.id }, payment.id).failureCode, 'timeout');
    assert.throws(() => statusAnswer({ status: 'SUCCESSFUL' }, payment.id), OrangeProtocolError, 'an unknown status is never guessed');
    assert.throws(() => statusAnswer({ status: 'SUCCESS', order_id: 'another' }, payment.id), OrangeProtocolError);
  });

  it('tells refusals (nothing taken) from unknown outcomes', () => {
    assert.equal(errorMessage(fixture('error-401')), '42 Expired credentials The requested service needs credentials, and the ones provided were out-of-date.');
    assert.equal(isRefusal(400), true);
    for (const status of [401, 408, 429, 500, 503]) assert.equal(isRefusal(status), false, String(status));
  });
});

describe('Orange Money notifications', () => {
  it('reads the notification and matches it against the kept hash of its notif_token only', () => {
    const notification = readOrangeNotification(fixture('notification'));
    assert.ok(!('invalid' in notification));
    assert.equal(notificationMatches(notification, notifTokenHash('dd497bda3b250e536186fc0663f32f40')), true);
    assert.equal(notificationMatches(notification, notifTokenHash('another-token')), false);
    assert.equal(notificationMatches(notification, undefined), false, 'a payment without a kept token accepts none');
    assert.ok('invalid' in readOrangeNotification({ status: 'SUCCESS' }));
    assert.ok('invalid' in readOrangeNotification({ status: 'DONE', notif_token: 'x' }));
  });
});
