/** The three catalog shapes: current (ours, documented), earlier (the earlier contract's fields exactly), payouts. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MtnMomoConnector } from '../../src/operators/mtn-momo/mtn-momo-connector.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SecretValue } from '../../src/operators/secret-value.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const sqlite = testDatabases().find((d) => d.name === 'sqlite')!;

describe('operator catalogs over HTTP', () => {
  let t: TestApp;
  let key: string;
  const get = async (url: string) => {
    const res = await t.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  let liveKey: string;

  before(async () => {
    // Live: MTN Benin has a connector with collection credentials only (no disbursement).
    const mtnBenin = new MtnMomoConnector(
      {
        slug: 'mtn_bj',
        baseUrl: 'http://127.0.0.1:9',
        targetEnvironment: 'mtnbenin',
        currency: 'XOF',
        timeoutMs: 1_000,
        callbackBaseUrl: 'http://localhost:8080/api/v1/operators/mtn-momo/callbacks',
        products: { collection: { subscriptionKey: new SecretValue('s'), apiUser: 'u', apiKey: new SecretValue('k') } },
      },
      new FakeClock(),
    );
    t = await buildTestApp(sqlite, { operators: new OperatorRegistry({ live: new Map([['MTN_BJ', mtnBenin]]) }) });
    ({ testKey: key, liveKey } = await t.newMerchant());
  });
  after(() => t.close());

  it('serves the earlier catalog with exactly the fields of the earlier contract', async () => {
    const body = await get('/api/v1/collect/operators/');
    assert.deepEqual(Object.keys(body).sort(), ['api_version', 'countries']);
    assert.match(body.api_version, /^\d{4}-\d{2}\.\d+$/);
    assert.deepEqual(body.countries.map((c: { code: string }) => c.code).sort(), ['BJ', 'CI', 'TG']);
    for (const country of body.countries) {
      assert.deepEqual(
        Object.keys(country)
          .filter((k) => k !== 'unsupported')
          .sort(),
        ['code', 'currency_default', 'operators'],
      );
      assert.equal(country.currency_default, 'XOF');
      for (const operator of country.operators) {
        const allowed = ['slug', 'label', 'gateway_code', 'aliases', 'requires_otp'];
        for (const field of Object.keys(operator)) assert.ok(allowed.includes(field), `unexpected ${field}`);
        assert.equal(typeof operator.slug, 'string');
        assert.equal(typeof operator.gateway_code, 'string');
        assert.equal(typeof operator.requires_otp, 'boolean');
      }
    }
    const togo = body.countries.find((c: { code: string }) => c.code === 'TG');
    const tmoney = togo.operators.find((o: { slug: string }) => o.slug === 'tmoney_tg');
    assert.deepEqual(tmoney.aliases, ['togocom_tg']);
  });

  it('flags Orange Côte d’Ivoire as requiring an OTP in both collect catalogs', async () => {
    for (const url of ['/api/v1/collect/operators/', '/api/v1/collect/payments/operators/']) {
      const body = await get(url);
      const ci = body.countries.find((c: { code: string }) => c.code === 'CI');
      const otp = ci.operators.filter((o: { requires_otp: boolean }) => o.requires_otp).map((o: { slug: string }) => o.slug);
      assert.deepEqual(otp, ['orange_ci'], url);
    }
  });

  it('serves the current catalog with currencies and limits in major units', async () => {
    const body = await get('/api/v1/collect/payments/operators/');
    assert.equal(body.object, 'collect.operator_catalog');
    assert.equal(body.api_version, '2026-06');
    const benin = body.countries.find((c: { code: string }) => c.code === 'BJ');
    assert.deepEqual(benin.currencies, ['XOF']);
    assert.equal(benin.default_currency, 'XOF');
    assert.deepEqual(
      benin.operators.map((o: { slug: string }) => o.slug),
      ['mtn_bj', 'moov_bj', 'celtiis_bj'],
    );
    for (const operator of benin.operators) {
      assert.equal(operator.min_amount, 100);
      assert.ok(Number.isInteger(operator.max_amount) && operator.max_amount > operator.min_amount);
    }
  });

  it('serves the payout catalog with limits in centimes', async () => {
    const body = await get('/api/v1/payout/operators/');
    assert.equal(body.object, 'payout.operator_catalog');
    const flooz = body.countries.find((c: { code: string }) => c.code === 'TG').operators.find((o: { slug: string }) => o.slug === 'flooz_tg');
    assert.equal(flooz.min_amount_minor, 10000);
    assert.deepEqual(flooz.aliases, ['moov_tg']);
  });

  it('shows each operator’s status and flows in the key’s environment, read from its connector', async () => {
    const inTest = await get('/api/v1/collect/payments/operators/');
    for (const country of inTest.countries) {
      for (const operator of country.operators) {
        assert.equal(operator.status, 'available', operator.slug);
        assert.deepEqual(operator.supports, { direct: true, hosted: true, refunds: true }, operator.slug);
      }
    }
    key = liveKey;
    try {
      const live = await get('/api/v1/collect/payments/operators/');
      const operators = new Map(live.countries.flatMap((c: { operators: Array<{ slug: string }> }) => c.operators.map((o) => [o.slug, o])));
      assert.deepEqual(operators.get('mtn_bj'), { ...(operators.get('mtn_bj') as object), status: 'available', supports: { direct: true, hosted: true, refunds: false } });
      assert.deepEqual((operators.get('moov_bj') as { status: string; supports: object }).status, 'unavailable');
      assert.deepEqual((operators.get('moov_bj') as { supports: object }).supports, { direct: false, hosted: false, refunds: false });
      const payouts = await get('/api/v1/payout/operators/');
      const benin = payouts.countries.find((c: { code: string }) => c.code === 'BJ');
      assert.equal(benin.operators.find((o: { slug: string }) => o.slug === 'mtn_bj').status, 'unavailable', 'no disbursement credentials: no payouts');
    } finally {
      key = (await t.newMerchant()).testKey;
    }
  });

  it('predicts the operator of a number: POST /operators/predict', async () => {
    const ask = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/operators/predict', headers: { authorization: `Bearer ${key}` }, payload });
    const benin = await ask({ phone: '+229 01 97 00 00 00' });
    assert.equal(benin.statusCode, 200, benin.body);
    assert.deepEqual(benin.json(), {
      object: 'operator_prediction',
      phone: '+2290197000000',
      country: 'BJ',
      operator: 'mtn_bj',
      confidence: 'high',
      may_be_ported: false,
      operators_possible: ['mtn_bj'],
      source: benin.json().source,
    });
    assert.match(benin.json().source, /ARCEP Bénin/);
    const ivory = (await ask({ phone: '0701020304', country: 'CI' })).json();
    assert.deepEqual([ivory.operator, ivory.confidence, ivory.may_be_ported], ['orange_ci', 'medium', true]);
    const national = await ask({ phone: '0197000000' });
    assert.deepEqual([national.statusCode, national.json().error.code, national.json().error.field], [400, 'validation_error', 'country']);
    assert.equal((await ask({ phone: '+33612345678' })).json().error.code, 'invalid_phone');
    const nowhere = await ask({ phone: '12345' });
    assert.deepEqual([nowhere.statusCode, nowhere.json().error.code, nowhere.json().error.field], [400, 'invalid_phone', 'phone'], 'fits no served country: the number is wrong');
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/operators/predict', payload: { phone: '+2290197000000' } })).statusCode, 401);
  });
});
