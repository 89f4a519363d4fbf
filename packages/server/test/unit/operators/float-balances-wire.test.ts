/** Each provider's balance read (the route's float): its request and its answer, pure, from recorded bodies, no network. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { minorFromMajorText } from '../../../src/core/shared/money.js';
import { modeBalanceOf } from '../../../src/operators/fedapay/fedapay-balance.js';
import { balancesQuery } from '../../../src/operators/fedapay/fedapay-requests.js';
import { FedaPayProtocolError } from '../../../src/operators/fedapay/fedapay-responses.js';
import { parseAccountBalance } from '../../../src/operators/mtn-momo/mtn-balance.js';
import { balanceQuery as mtnBalanceQuery } from '../../../src/operators/mtn-momo/mtn-requests.js';
import { MtnProtocolError } from '../../../src/operators/mtn-momo/mtn-responses.js';
import type { MtnMomoSettings } from '../../../src/operators/mtn-momo/mtn-settings.js';
import { walletBalanceFor } from '../../../src/operators/pawapay/pawapay-balance.js';
import { walletBalancesQuery } from '../../../src/operators/pawapay/pawapay-requests.js';
import { PawapayProtocolError } from '../../../src/operators/pawapay/pawapay-responses.js';
import type { PawapaySettings } from '../../../src/operators/pawapay/pawapay-settings.js';
import { parseWalletBalance } from '../../../src/operators/wave/wave-balance.js';
import { balanceQuery as waveBalanceQuery } from '../../../src/operators/wave/wave-requests.js';
import { WaveProtocolError } from '../../../src/operators/wave/wave-responses.js';

const fixture = (family: string, name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/${family}/${name}.json`, import.meta.url), 'utf8'));

describe('major amounts as providers write them, in centimes', () => {
  it('reads whole and decimal amounts, as text or number, and negative balances', () => {
    assert.equal(minorFromMajorText('1500'), 150_000);
    assert.equal(minorFromMajorText('1500.5'), 150_050);
    assert.equal(minorFromMajorText('21798.03'), 2_179_803);
    assert.equal(minorFromMajorText(952), 95_200);
    assert.equal(minorFromMajorText('-20.25'), -2_025);
  });

  it('refuses what is not an amount instead of guessing', () => {
    for (const value of ['', '12.345', '1e3', 'abc', null, undefined, {}, '1 000', Number.NaN]) assert.equal(minorFromMajorText(value), undefined, String(value));
  });
});

describe('MTN MoMo: the disbursement account balance', () => {
  const settings = { targetEnvironment: 'mtnbenin' } as MtnMomoSettings;

  it('asks the disbursement product for its account balance in the target environment', () => {
    const request = mtnBalanceQuery(settings, 'disbursement');
    assert.equal(request.method, 'GET');
    assert.equal(request.path, '/disbursement/v1_0/account/balance');
    assert.equal(request.product, 'disbursement');
    assert.equal(request.headers['x-target-environment'], 'mtnbenin');
  });

  it('reads availableBalance and currency', () => {
    assert.deepEqual(parseAccountBalance(fixture('mtn-momo', 'disbursement-balance')), { amountMinor: 125_000_050, currency: 'XOF' });
  });

  it('refuses an answer without a readable balance', () => {
    assert.throws(() => parseAccountBalance({ availableBalance: 'n/a', currency: 'XOF' }), MtnProtocolError);
    assert.throws(() => parseAccountBalance({ availableBalance: '10' }), MtnProtocolError);
  });
});

describe('pawaPay: the wallet that pays the provider', () => {
  const settings = { country: 'BEN', provider: 'MTN_MOMO_BEN' } as PawapaySettings;

  it('asks for the wallet balances of the route’s country', () => {
    const request = walletBalancesQuery(settings);
    assert.equal(request.method, 'GET');
    assert.equal(request.path, '/v2/wallet-balances?country=BEN');
  });

  it('takes the country’s shared wallet when the provider has none of its own', () => {
    assert.deepEqual(walletBalanceFor(fixture('pawapay', 'wallet-balances-per-provider'), 'BEN', 'MTN_MOMO_BEN'), { amountMinor: 2_179_803, currency: 'XOF' });
  });

  it('takes the provider’s own wallet when it has one', () => {
    assert.deepEqual(walletBalanceFor(fixture('pawapay', 'wallet-balances-per-provider'), 'BEN', 'MOOV_BEN'), { amountMinor: 50_000, currency: 'XOF' });
  });

  it('refuses when no wallet of the country pays the provider, or the answer has no list', () => {
    assert.throws(() => walletBalanceFor(fixture('pawapay', 'wallet-balances-per-provider'), 'TGO', 'MOOV_TGO'), PawapayProtocolError);
    assert.throws(() => walletBalanceFor({}, 'BEN', 'MTN_MOMO_BEN'), PawapayProtocolError);
  });
});

describe('Wave: the business wallet’s balance', () => {
  it('asks the Balance API', () => {
    assert.deepEqual(waveBalanceQuery(), { method: 'GET', path: '/v1/balance', headers: {} });
  });

  it('reads amount and currency', () => {
    assert.deepEqual(parseWalletBalance(fixture('wave', 'balance')), { amountMinor: 1_000_000, currency: 'XOF' });
  });

  it('refuses an answer without an amount', () => {
    assert.throws(() => parseWalletBalance({ currency: 'XOF' }), WaveProtocolError);
  });
});

describe('FedaPay: the balance of the route’s payment mode', () => {
  it('asks for the account’s balances', () => {
    assert.deepEqual(balancesQuery(), { method: 'GET', path: '/v1/balances', headers: {} });
  });

  it('takes the balance of the route’s own mode, in whole francs', () => {
    assert.deepEqual(modeBalanceOf(fixture('fedapay', 'balances'), 'moov', 'XOF'), { amountMinor: 12_500_000, currency: 'XOF' });
    assert.deepEqual(modeBalanceOf(fixture('fedapay', 'balances'), 'mtn_open', 'XOF'), { amountMinor: 95_200, currency: 'XOF' });
  });

  it('refuses when the account holds no balance for the mode', () => {
    assert.throws(() => modeBalanceOf(fixture('fedapay', 'balances'), 'togocel', 'XOF'), FedaPayProtocolError);
    assert.throws(() => modeBalanceOf({ 'v1/balances': {} }, 'moov', 'XOF'), FedaPayProtocolError);
  });
});
