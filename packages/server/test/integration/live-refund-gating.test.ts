/**
 * A live refund is money out (docs/decisions.md "Live before KYC"): on every database, through an
 * API key and through a dashboard session, a suspended merchant's live refund is 403
 * account_inactive and one whose KYC is not validated is 403 kyc_required, with nothing written;
 * the test environment keeps refunding, and an active, validated merchant refunds as the contract shows.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KycStatus, MerchantStatus } from '../../src/core/merchants/merchant.js';
import { newId } from '../../src/core/shared/ids.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { dashboardCall, newOwner } from '../support/dashboard.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Environment = 'test' | 'live';

for (const target of testDatabases()) {
  describe(`live refunds and the merchant's status on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-refundgate-'));
      // The sandbox answers live MTN Benin too, so a live payment completes and can be refunded.
      const sandbox = new SandboxOperator();
      t = await buildTestApp(target, {
        env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
        operators: new OperatorRegistry({ test: sandbox, live: new Map([['MTN_BJ', sandbox]]) }),
      });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    type Caller = { key: string } | { access: string; merchantId: string; environment: Environment };
    const api = (method: 'GET' | 'POST', url: string, who: Caller, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: {
          ...('key' in who
            ? { authorization: `Bearer ${who.key}` }
            : { authorization: `Bearer ${who.access}`, 'x-akwe-merchant': who.merchantId, 'x-service-environment': who.environment }),
          ...(method === 'POST' ? { 'idempotency-key': `k-${newId()}` } : {}),
        },
        ...(payload ? { payload } : {}),
      });
    /** A completed direct payment, exactly as the contract's request table shows one. */
    const completedPayment = async (who: Caller) => {
      const created = await api('POST', '/collect/payments', who, {
        reference: `RG-${newId()}`,
        amount: 3000,
        currency: 'XOF',
        country: 'BJ',
        mode: 'direct',
        customer: { phone: '0197000000' },
        operator: 'mtn_bj',
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().status, 'completed');
      return created.json().reference as string;
    };
    const refundCount = async (merchantId: string) =>
      Number(
        (
          await t.db.database.db
            .selectFrom('refunds')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('merchant_id', '=', merchantId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    /** An owner signed in, their merchant validated with a live balance, a live and a test key made by the CLI (every scope). */
    async function merchant() {
      const owner = await newOwner(call, dataDir);
      await t.services.merchants.updateMerchant(owner.merchantId, { kycStatus: 'validated' }, { actor: 'test' });
      // The collection fee is kept on a refund: a live balance covers it, as earlier sales would.
      await seedLiveBalance(t.db.database, owner.merchantId, 1_000_000);
      const liveKey = (await t.services.merchants.createKey({ merchantId: owner.merchantId, environment: 'live' })).secret;
      const testKey = (await t.services.merchants.createKey({ merchantId: owner.merchantId, environment: 'test' })).secret;
      const session = (environment: Environment) => ({ access: owner.access, merchantId: owner.merchantId, environment });
      return { owner, liveKey, testKey, session };
    }
    const setStatus = (merchantId: string, change: { status?: MerchantStatus; kycStatus?: KycStatus }) =>
      t.services.merchants.updateMerchant(merchantId, change, { actor: 'test' });

    it('an active, validated merchant refunds live as the contract shows, with a key and with a session', async () => {
      const m = await merchant();
      const byKey = await api('POST', `/collect/payments/${await completedPayment({ key: m.liveKey })}/refunds`, { key: m.liveKey });
      assert.equal(byKey.statusCode, 201, byKey.body);
      const bySession = await api('POST', `/collect/payments/${await completedPayment({ key: m.liveKey })}/refunds`, m.session('live'), { amount: 1000 });
      assert.equal(bySession.statusCode, 201, bySession.body);
    });

    it('refuses a suspended merchant’s live refund with account_inactive, by key and by session, writing nothing; test refunds go on', async () => {
      const m = await merchant();
      const live = [await completedPayment({ key: m.liveKey }), await completedPayment({ key: m.liveKey })];
      const test = await completedPayment({ key: m.testKey });
      await setStatus(m.owner.merchantId, { status: 'suspended' });
      const before = await refundCount(m.owner.merchantId);
      for (const [who, reference] of [
        [{ key: m.liveKey }, live[0]],
        [m.session('live'), live[1]],
      ] as const) {
        const refused = await api('POST', `/collect/payments/${reference}/refunds`, who, {});
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().error.code, 'account_inactive');
      }
      assert.equal(await refundCount(m.owner.merchantId), before, 'nothing written');
      const payment = await api('GET', `/collect/payments/${live[0]}`, { key: m.liveKey });
      assert.equal(payment.json().status, 'completed', 'the payment is untouched');
      const testRefund = await api('POST', `/collect/payments/${test}/refunds`, { key: m.testKey });
      assert.equal(testRefund.statusCode, 201, `a suspended merchant keeps test mode: ${testRefund.body}`);

      await setStatus(m.owner.merchantId, { status: 'active' });
      const again = await api('POST', `/collect/payments/${live[0]}/refunds`, { key: m.liveKey });
      assert.equal(again.statusCode, 201, `reactivated, it refunds again: ${again.body}`);
    });

    it('refuses a live refund before the KYC is validated with kyc_required, by key and by session', async () => {
      const m = await merchant();
      const references = [await completedPayment({ key: m.liveKey }), await completedPayment({ key: m.liveKey })];
      await setStatus(m.owner.merchantId, { kycStatus: 'submitted' });
      const before = await refundCount(m.owner.merchantId);
      const byKey = await api('POST', `/collect/payments/${references[0]}/refunds`, { key: m.liveKey });
      const bySession = await api('POST', `/collect/payments/${references[1]}/refunds`, m.session('live'));
      for (const refused of [byKey, bySession]) {
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().error.code, 'kyc_required');
      }
      assert.equal(await refundCount(m.owner.merchantId), before, 'nothing written');
    });
  });
}
