/**
 * Each connector's balance read against its mock over real sockets (no database), configured by the
 * operators file `akwe mocks` writes: the balance each mock starts with, then the one a test sets
 * through the mock's control route, and a failed answer raised as an error, never read as a balance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../../src/core/catalog/operator-catalog.js';
import { startOperatorMocks, type OperatorMocks } from '../../../src/operators/mocks/operator-mocks.js';
import { parseOperatorsConfig, type ConfiguredOperator } from '../../../src/operators/operators-file.js';
import { FakeClock } from '../../support/fake-clock.js';

describe('balance reads against the mocks', () => {
  let mocks: OperatorMocks;
  let routes: ConfiguredOperator[];

  const route = (label: string) => {
    const found = routes.find((r) => r.label === label);
    assert.ok(found?.connector.balance, `${label} reads its balance`);
    return found.connector.balance;
  };
  const setBalance = async (path: string, body: object) => {
    const res = await fetch(`${mocks.url}${path}/_mock/balance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, await res.text());
  };

  before(async () => {
    mocks = await startOperatorMocks({});
    const context = { catalog: loadDefaultCatalog(), publicUrl: 'https://akwe.example/', serverSecret: () => 'balances-test-secret', clock: new FakeClock(), env: {} };
    routes = parseOperatorsConfig(mocks.operatorsFile, 'mocks', context);
  });
  after(async () => mocks?.close());

  it('reads MTN’s disbursement account, and what the mock is set to', async () => {
    assert.deepEqual(await route('mtn_bj/mtn-momo').readBalance(), { amountMinor: 100_000_000, currency: 'XOF' });
    await setBalance('/mtn-bj', { balance: 1234.5 });
    assert.deepEqual(await route('mtn_bj/mtn-momo').readBalance(), { amountMinor: 123_450, currency: 'XOF' });
    assert.deepEqual(await route('mtn_ci/mtn-momo').readBalance(), { amountMinor: 100_000_000, currency: 'XOF' }, 'each MTN company has its own account');
  });

  it('reads pawaPay’s wallet of the route’s country', async () => {
    assert.deepEqual(await route('moov_ci/pawapay').readBalance(), { amountMinor: 500_000_000, currency: 'XOF' });
    await setBalance('/pawapay', { country: 'CIV', balance: 700 });
    assert.deepEqual(await route('moov_ci/pawapay').readBalance(), { amountMinor: 70_000, currency: 'XOF' });
    assert.deepEqual(await route('mtn_bj/pawapay').readBalance(), { amountMinor: 500_000_000, currency: 'XOF' }, 'Benin’s wallet is another');
  });

  it('reads Wave’s business wallet', async () => {
    await setBalance('/wave-ci', { balance: 42 });
    assert.deepEqual(await route('wave_ci/wave').readBalance(), { amountMinor: 4_200, currency: 'XOF' });
  });

  it('reads the FedaPay balance of the route’s own payment mode', async () => {
    await setBalance('/fedapay', { mode: 'moov', balance: 900 });
    assert.deepEqual(await route('moov_bj/fedapay').readBalance(), { amountMinor: 90_000, currency: 'XOF' });
    assert.deepEqual(await route('tmoney_tg/fedapay').readBalance(), { amountMinor: 1_000_000_000, currency: 'XOF' }, 'T-Money’s mode is untouched');
  });

  it('refuses a balance the control route cannot take, with 400', async () => {
    const res = await fetch(`${mocks.url}/fedapay/_mock/balance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'nope', balance: 1 }),
    });
    assert.equal(res.status, 400);
  });

  it('raises an error, never a balance, when the provider fails to answer', async () => {
    mocks.wave.wave_ci.setFaults({ failNext: 1, failStatus: 500 });
    await assert.rejects(route('wave_ci/wave').readBalance(), /balance answered 500/);
    mocks.pawapay.setFaults({ failNext: 1, failStatus: 503 });
    await assert.rejects(route('mtn_bj/pawapay').readBalance(), /wallet balances answered 503/);
  });

  it('has no balance read on Orange Money’s hosted route, which pays nothing out', () => {
    assert.equal(routes.find((r) => r.label === 'orange_ci/orange-money')?.connector.balance, undefined);
  });
});
