/**
 * The pawaPay connector, built from an operators-file entry, against the pawaPay mock through real
 * sockets: `akwe operators check` (token and wallet balance), DUPLICATE_IGNORED read as "already
 * sent" (its status answers, nothing charged twice), a refusal mapped, the availability reading.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadDefaultCatalog } from '../../../src/core/catalog/operator-catalog.js';
import type { Payment } from '../../../src/core/payments/payment.js';
import { systemClock } from '../../../src/core/shared/clock.js';
import { newId } from '../../../src/core/shared/ids.js';
import { parseOperatorsConfig } from '../../../src/operators/operators-file.js';
import { DEFAULT_PAWAPAY_MOCK_API_TOKEN, startPawapayMock, type RunningPawapayMock } from '../../../src/operators/pawapay/mock/pawapay-mock.js';
import type { PawapayConnector } from '../../../src/operators/pawapay/pawapay-connector.js';
import { eventually } from '../../support/live-operators.js';

describe('the pawaPay connector against the mock', () => {
  let mock: RunningPawapayMock;
  const build = (slug: string, token = DEFAULT_PAWAPAY_MOCK_API_TOKEN) =>
    parseOperatorsConfig({ operators: { [slug]: { connector: 'pawapay', base_url: `${mock.url}`, api_token: token } } }, 'test', {
      catalog: loadDefaultCatalog(),
      publicUrl: 'http://127.0.0.1:1',
      serverSecret: () => 'pawapay-test-secret',
      clock: systemClock,
    })[0]!.connector as PawapayConnector;

  before(async () => {
    mock = await startPawapayMock({ decisionDelayMs: 30 });
  });
  after(() => mock.close());

  it('checks the token and reads the wallet balance for `akwe operators check`', async () => {
    const [ok] = await build('moov_bj').check();
    assert.equal(ok!.ok, true, ok!.detail);
    assert.match(ok!.detail, /balance 5000000\.00 XOF/);
    const [refused] = await build('moov_bj', 'wrong-token').check();
    assert.deepEqual([refused!.ok, refused!.detail], [false, 'wallet balances answered 403 AUTHENTICATION_ERROR']);
  });

  it('reads DUPLICATE_IGNORED as already sent: the second start answers pawaPay’s status of the first', async () => {
    const connector = build('flooz_tg');
    const payment = { id: newId(), reference: 'ORDER-77', amountMinor: 150_000, phone: '+22899345789' } as Payment;
    assert.deepEqual((await connector.push.startCollection(payment, undefined as never)).path, ['processing']);
    await eventually(async () => (mock.state.transaction('deposits', payment.id)?.status === 'COMPLETED' ? true : undefined), 'the deposit to complete');
    const again = await connector.push.startCollection(payment, undefined as never);
    assert.deepEqual(again.path, ['processing', 'completed']);
    assert.equal(mock.state.postsFor('deposits', payment.id), 2);
    assert.ok(again.pspReference);
  });

  it('maps a rejection to a failed payment with its failure code, and calls nothing for a fraction of a franc', async () => {
    const connector = build('moov_bj');
    mock.state.setAvailability('MOOV_BEN', 'DEPOSIT', 'CLOSED');
    try {
      const rejected = await connector.push.startCollection({ id: newId(), reference: 'R-1', amountMinor: 150_000, phone: '+2290195345789' } as Payment, undefined as never);
      assert.deepEqual([rejected.path, rejected.failureCode], [['failed'], 'operator_unavailable']);
      await connector.refreshAvailability();
      assert.equal(connector.health(), 'unavailable');
    } finally {
      mock.state.setAvailability('MOOV_BEN', 'DEPOSIT', 'OPERATIONAL');
    }
    await connector.refreshAvailability();
    assert.equal(connector.health(), 'available');
    const id = newId();
    const fraction = await connector.push.startCollection({ id, reference: 'R-2', amountMinor: 150_050, phone: '+2290195345789' } as Payment, undefined as never);
    assert.deepEqual([fraction.path, mock.state.postsFor('deposits', id)], [['failed'], 0]);
  });

  it('offers the OTP flow (and no hosted checkout) for Orange Côte d’Ivoire, and push with hosted elsewhere', () => {
    const orange = build('orange_ci');
    assert.ok(orange.otp);
    assert.equal(orange.hosted, undefined);
    assert.equal(orange.settings.provider, 'ORANGE_CIV');
    const flooz = build('flooz_tg');
    assert.equal(flooz.otp, undefined);
    assert.ok(flooz.hosted);
  });

  it('cannot serve T-Money or Celtiis, which pawaPay does not offer', () => {
    assert.throws(() => build('tmoney_tg'), /cannot serve T-Money/);
    assert.throws(() => build('celtiis_bj'), /cannot serve Celtiis/);
  });
});
