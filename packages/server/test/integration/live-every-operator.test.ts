/**
 * Every catalog operator live, on the operators file `npx akwe mocks` writes (each operator's direct
 * route first where it has one, then FedaPay, then pawaPay): for each of the nine, a live payment
 * and a live payout complete through the route the file gives it, with their merchant events; and
 * the failover between families: with MTN Bénin's own route down, a new payment and payout go to
 * pawaPay, while what MTN holds is never sent there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { eventually, operatorsFileFor, startLiveServer, type LiveServer, type LiveWire } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

/** Each catalog operator, a number its mocks complete, and the routes the mocks' file gives its flows. */
const nine = [
  { slug: 'mtn_bj', country: 'BJ', phone: '0197000001', collectRoute: 'mtn-momo', payoutRoute: 'mtn-momo' },
  { slug: 'moov_bj', country: 'BJ', phone: '0164000001', collectRoute: 'fedapay', payoutRoute: 'fedapay' },
  { slug: 'celtiis_bj', country: 'BJ', phone: '0140000001', collectRoute: 'fedapay', payoutRoute: 'fedapay' },
  { slug: 'tmoney_tg', country: 'TG', phone: '90112233', collectRoute: 'fedapay', payoutRoute: 'fedapay' },
  { slug: 'flooz_tg', country: 'TG', phone: '99112233', collectRoute: 'fedapay', payoutRoute: 'fedapay' },
  { slug: 'mtn_ci', country: 'CI', phone: '0501020304', collectRoute: 'mtn-momo', payoutRoute: 'mtn-momo' },
  // Orange's own Web Payment is hosted only and pays nothing out: the OTP flow and payouts take pawaPay.
  { slug: 'orange_ci', country: 'CI', phone: '0703456789', collectRoute: 'pawapay', payoutRoute: 'pawapay', otp: '482913' },
  { slug: 'moov_ci', country: 'CI', phone: '0103456789', collectRoute: 'pawapay', payoutRoute: 'pawapay' },
  // Wave's own API is its checkout page (tested in live-operators): a push takes pawaPay; payouts Wave.
  { slug: 'wave_ci', country: 'CI', phone: '0703456788', collectRoute: 'pawapay', payoutRoute: 'wave' },
] as const;

for (const target of testDatabases()) {
  describe(`every catalog operator live on the mocks on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let live: LiveServer;
    let dir: string;

    const api = (method: string, path: string, body?: unknown) => live.api(method, path, body);
    const scope = () => ({ merchantId: live.merchantId, environment: 'live' as const });
    const statusOf = (path: string, wanted: string, what: string) =>
      eventually(async () => {
        const current = (await api('GET', path)).body;
        return current.status === wanted ? current : undefined;
      }, what);
    const eventOf = (type: string, reference: string) =>
      eventually(async () => {
        const events = (await api('GET', `/events?type=${type}&limit=100`)).body.data as LiveWire[];
        return events.find((event) => JSON.stringify(event.data).includes(reference));
      }, `the ${type} event of ${reference}`);

    before(async () => {
      mocks = await startOperatorMocks({
        mtn: { decisionDelayMs: 100 },
        pawapay: { decisionDelayMs: 100, signCallbacks: true },
        fedapay: { decisionDelayMs: 100 },
        wave: { decisionDelayMs: 100 },
      });
      dir = mkdtempSync(join(tmpdir(), 'akwe-every-operator-'));
      db = await target.open();
      live = await startLiveServer({
        mocks,
        databaseUrl: db.url,
        operatorsFile: operatorsFileFor(mocks, 1_000),
        dataDir: dir,
        balanceMinor: 50_000_000,
        settings: { OPERATOR_BREAKER_FAILURES: '3', OPERATOR_BREAKER_HALF_OPEN_MS: '4000', IDEMPOTENCY_LEASE_SECONDS: '10' },
      });
    });

    after(async () => {
      await live?.close();
      await mocks?.close();
      await db?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const operator of nine) {
      it(`collects and pays out live through ${operator.slug} (${operator.collectRoute} / ${operator.payoutRoute}), each with its event`, async () => {
        const created = await api('POST', '/collect/payments', {
          reference: `ALL-${newId()}`,
          amount: 3000,
          currency: 'XOF',
          country: operator.country,
          mode: 'direct',
          operator: operator.slug,
          customer: { phone: operator.phone },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        if ('otp' in operator) {
          assert.equal(created.body.status, 'awaiting_otp');
          const confirmed = await api('POST', `/collect/payments/${created.body.reference}/confirm`, { otp: operator.otp });
          assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
        }
        await statusOf(`/collect/payments/${created.body.reference}`, 'completed', `the ${operator.slug} payment to complete`);
        await eventOf('collect.payment.completed', created.body.reference);
        assert.equal((await live.running.services.payments.get(scope(), created.body.id)).route, operator.collectRoute);

        const sent = await api('POST', '/payout/mobile-money/', {
          reference: `ALLP-${newId()}`,
          amount: 100_000,
          phone: operator.phone,
          country: operator.country,
          operator: operator.slug,
        });
        assert.equal(sent.status, 201, JSON.stringify(sent.body));
        await statusOf(`/payout/mobile-money/${sent.body.reference}/`, 'COMPLETED', `the ${operator.slug} payout to complete`);
        await eventOf('payout.completed', sent.body.reference);
        assert.equal((await live.running.services.payouts.get(scope(), sent.body.id)).route, operator.payoutRoute);
      });
    }

    it('fails over from MTN Bénin’s own route to pawaPay when MTN’s breaker is open; what MTN holds is never sent to pawaPay', async () => {
      const mtn = mocks.mtn.mtn_bj;
      const pawapay = mocks.pawapay;
      const direct = (phone: string) => ({ reference: `FO-${newId()}`, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone } });
      // Held by MTN and still pending there (MTN keeps numbers ending 453 pending).
      const held = await api('POST', '/collect/payments', direct('0197000453'));
      assert.equal(held.status, 201, JSON.stringify(held.body));
      mtn.setFaults({ failNext: 100_000 });
      try {
        let created: Awaited<ReturnType<typeof api>>;
        let failures = 0;
        while ((created = await api('POST', '/collect/payments', direct('0197345789'))).status === 502) {
          failures += 1;
          assert.ok(failures <= 3, 'the breaker opens after 3 failures in a row');
        }
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal((await live.running.services.payments.get(scope(), created.body.id)).route, 'pawapay');
        assert.equal(pawapay.postsFor('deposits', created.body.id), 1, 'the new payment went to pawaPay');
        assert.equal(mtn.callsFor(created.body.id), 0, 'and never to MTN, whose breaker is open');
        await statusOf(`/collect/payments/${created.body.reference}`, 'completed', 'the failed-over payment to complete');

        const payout = await api('POST', '/payout/mobile-money/', { reference: `FOP-${newId()}`, amount: 100_000, phone: '0197345789', country: 'BJ', operator: 'mtn_bj' });
        assert.equal(payout.status, 201, JSON.stringify(payout.body));
        await statusOf(`/payout/mobile-money/${payout.body.reference}/`, 'COMPLETED', 'the failed-over payout to complete');
        assert.equal((await live.running.services.payouts.get(scope(), payout.body.id)).route, 'pawapay');
        assert.equal(pawapay.postsFor('payouts', payout.body.id), 1);
        assert.equal(mtn.callsFor(payout.body.id), 0);

        // What MTN holds stays with MTN, even while it is down.
        const read = await api('GET', `/collect/payments/${held.body.reference}?sync=true`);
        assert.equal(read.status, 200, JSON.stringify(read.body));
        assert.equal(read.body.status, 'processing');
        assert.equal(pawapay.postsFor('deposits', held.body.id), 0);
      } finally {
        mtn.setFaults({ failNext: 0 });
      }
      // Back up (its half-open probe aside), MTN settles what it holds; pawaPay never heard of it.
      mtn.settle('requesttopay', held.body.id, 'SUCCESSFUL');
      await statusOf(`/collect/payments/${held.body.reference}`, 'completed', 'the held payment, settled by MTN');
      assert.equal(mtn.postsFor('requesttopay', held.body.id), 1);
      assert.equal(pawapay.postsFor('deposits', held.body.id), 0);
      assert.equal(pawapay.transaction('deposits', held.body.id), undefined);
    });
  });
}
