/**
 * Routes with failover, end to end on each database: MTN Bénin reached through two routes, two
 * MTN MoMo mocks (real HTTP servers) in order. With the first route's breaker open, a new live
 * payment and a new payout go through the second; what the first route already holds stays with
 * it (status checks, callbacks, recovery ask it alone, even while its breaker is open); a refund
 * goes to the route that holds its payment. The mocks count every call naming a reference.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/core/shared/ids.js';
import { createLogger } from '../../src/logging.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { startMtnMomoMock, type RunningMtnMock } from '../../src/operators/mtn-momo/mock/mtn-momo-mock.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from '../support/child-process.js';
import { eventually } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`operator routes with failover on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let backup: RunningMtnMock;
    let db: OpenTestDatabase;
    let running: RunningServer;
    let dir: string;
    let liveKey: string;
    let merchantId: string;

    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${running.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${liveKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' ? { 'idempotency-key': newId() } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Wire };
    };
    const direct = (phone = '0197000000') => ({
      reference: `RT-${newId()}`,
      amount: 3000,
      currency: 'XOF',
      country: 'BJ',
      mode: 'direct',
      operator: 'mtn_bj',
      customer: { phone },
    });
    const statusOf = (path: string, wanted: string, what: string) =>
      eventually(async () => {
        const current = (await api('GET', path)).body;
        return current.status === wanted ? current : undefined;
      }, what);
    const scope = () => ({ merchantId, environment: 'live' as const });
    const first = () => mocks.mtn.mtn_bj;
    const second = () => backup.state;

    before(async () => {
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 } });
      backup = await startMtnMomoMock({ targetEnvironment: 'mtnbenin', decisionDelayMs: 100 });
      // MTN's own route (the mocks file lists it first, then pawaPay's).
      const entry = { ...([mocks.operatorsFile.operators['mtn_bj']].flat()[0] as object), timeout_ms: 1_000 };
      dir = mkdtempSync(join(tmpdir(), 'akwe-routes-'));
      const operatorsFile = join(dir, 'operators.json');
      // mtn_bj: MTN MoMo direct, then a second MTN MoMo account as the fallback route.
      writeFileSync(operatorsFile, JSON.stringify({ operators: { mtn_bj: [entry, { ...entry, route: 'mtn-momo-backup', base_url: backup.url }] } }));
      db = await target.open();
      const port = await freePort();
      const config = loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        AKWE_DEV: 'true',
        AKWE_DATA_DIR: dir,
        DATABASE_URL: db.url,
        OPERATORS_FILE: operatorsFile,
        LOG_LEVEL: 'silent',
        PAYOUT_CHECK_INTERVAL_MS: '200',
        PAYMENT_CHECK_MIN_INTERVAL_MS: '200',
        OPERATOR_BREAKER_FAILURES: '3',
        OPERATOR_BREAKER_HALF_OPEN_MS: '6000',
        // A call refused by the open breaker keeps its lease: a short one lets recovery resume it soon.
        IDEMPOTENCY_LEASE_SECONDS: '10', // five chained MTN calls of 1 s fit in half of it (the start-time check)
        RATE_LIMIT_CREATE_PER_MINUTE: '100000',
        RATE_LIMIT_READ_PER_MINUTE: '100000',
        RATE_LIMIT_PAYOUT_PER_MINUTE: '100000',
        RATE_LIMIT_REFUND_PER_MINUTE: '100000',
      });
      running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
      const { merchant } = await running.services.merchants.createMerchant({ name: 'Boutique Routes', kycStatus: 'validated', keyEnvironments: [] });
      merchantId = merchant.id;
      liveKey = (await running.services.merchants.createKey({ merchantId, environment: 'live' })).secret;
    });

    after(async () => {
      await running?.shutdown();
      await mocks?.close();
      await backup?.close();
      await db?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('sends new requests to the first route while it is up, and records it (not on the wire)', async () => {
      const created = await api('POST', '/collect/payments', direct());
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await statusOf(`/collect/payments/${created.body.reference}`, 'completed', 'the payment to complete');
      assert.equal(first().postsFor('requesttopay', created.body.id), 1);
      assert.equal(second().callsFor(created.body.id), 0, 'the second route never heard of it');
      assert.equal((await running.services.payments.get(scope(), created.body.id)).route, 'mtn-momo');
      assert.equal('route' in created.body, false, 'the contract’s shapes are unchanged');
    });

    it('fails over to the second route when the first one’s breaker is open; what the first holds never moves', async () => {
      // Held by the first route and still pending there (MTN keeps numbers ending 453 pending).
      const held = await api('POST', '/collect/payments', direct('0197000453'));
      assert.equal(held.status, 201, JSON.stringify(held.body));
      assert.equal(held.body.status, 'processing');

      first().setFaults({ failNext: 100_000 });
      const unknown: string[] = [];
      let created: { status: number; body: Wire };
      // Failures in a row open the first route's breaker (the reconciliation's queries of `held` count too).
      while ((created = await api('POST', '/collect/payments', direct())).status === 502) {
        assert.equal(created.body.error.code, 'operator_outcome_unknown');
        unknown.push(created.body.error.request_id);
        assert.ok(unknown.length <= 3, 'the breaker opens after 3 failures in a row');
      }
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const failedOver = created.body;
      assert.equal(second().postsFor('requesttopay', failedOver.id), 1, 'the new payment went to the second route');
      assert.equal(first().callsFor(failedOver.id), 0, 'and never to the first, whose breaker is open');
      assert.equal((await running.services.payments.get(scope(), failedOver.id)).route, 'mtn-momo-backup');

      const payout = await api('POST', '/payout/mobile-money/', { reference: `RTP-${newId()}`, amount: 100_000, phone: '0197000001', country: 'BJ', operator: 'mtn_bj' });
      assert.equal(payout.status, 201, JSON.stringify(payout.body));
      assert.equal((await running.services.payouts.get(scope(), payout.body.id)).route, 'mtn-momo-backup');

      // The catalog shows the best route; the back office each route.
      const catalog = (await api('GET', '/collect/payments/operators/')).body;
      assert.equal(catalog.countries.flatMap((c: Wire) => c.operators).find((o: Wire) => o.slug === 'mtn_bj').status, 'available');
      const state = running.services.backOffice.operators({ failingOnly: true }).find((o) => o.slug === 'mtn_bj' && o.environment === 'live');
      assert.deepEqual(state?.routes, [
        { route: 'mtn_bj/mtn-momo', health: 'unavailable' },
        { route: 'mtn_bj/mtn-momo-backup', health: 'available' },
      ]);

      // A read of the held payment asks the first route only, even with its breaker open.
      const read = await api('GET', `/collect/payments/${held.body.reference}?sync=true`);
      assert.notEqual(read.status, 500, JSON.stringify(read.body));
      assert.equal((await api('GET', `/collect/payments/${held.body.reference}`)).body.status, 'processing');

      const done = await statusOf(`/payout/mobile-money/${payout.body.reference}/`, 'COMPLETED', 'the payout through the second route');
      assert.equal(second().postsFor('transfer', done.id), 1);
      assert.equal(first().callsFor(done.id), 0);
      await statusOf(`/collect/payments/${failedOver.reference}`, 'completed', 'the failed-over payment to complete');

      // The first route comes back: what it holds is settled there, by its callback and its status query.
      first().setFaults({ failNext: 0 });
      const resumed = await eventually(
        async () => {
          const res = await api('POST', '/collect/payments', direct());
          return res.status === 201 && first().postsFor('requesttopay', res.body.id) === 1 ? res : undefined;
        },
        'the first route to take new payments again',
        20_000,
      );
      assert.equal(second().callsFor(resumed.body.id), 0);
      first().settle('requesttopay', held.body.id, 'SUCCESSFUL');
      await statusOf(`/collect/payments/${held.body.reference}`, 'completed', 'the held payment, settled by the first route');
      assert.equal(first().postsFor('requesttopay', held.body.id), 1);
      assert.equal(second().callsFor(held.body.id), 0, 'the second route was never asked about what the first holds');

      // A refund goes to the route that holds its payment.
      const refund = await api('POST', `/collect/payments/${failedOver.reference}/refunds`, { amount: 1000 });
      assert.equal(refund.status, 201, JSON.stringify(refund.body));
      await eventually(async () => {
        const listed = (await api('GET', `/collect/payments/${failedOver.reference}/refunds`)).body.data as Wire[];
        return listed[0]?.status === 'completed' ? listed[0] : undefined;
      }, 'the refund to complete');
      assert.equal(second().postsFor('refund', refund.body.id), 1);
      assert.equal(first().callsFor(refund.body.id), 0);
    });

    it('never sends a payment whose outcome the first route left unknown to the second: recovery asks the first', async () => {
      const stored = await running.services.payments.list(scope(), {}, { limit: 100 });
      const leftUnknown = stored.data.filter((p) => p.route === 'mtn-momo' && second().callsFor(p.id) > 0);
      assert.deepEqual(leftUnknown, []);
      const onFirst = stored.data.filter((p) => p.route === 'mtn-momo');
      assert.ok(onFirst.length >= 3, 'the payments refused during the outage are held by the first route');
      // Recovery takes them back to the first route once it answers: each is charged there once.
      for (const p of onFirst) {
        let last: unknown;
        await eventually(
          async () => {
            const current = await running.services.payments.get(scope(), p.id);
            last = { ...current, posts: first().postsFor('requesttopay', p.id), calls: first().callsFor(p.id), faults: first().faults };
            return current.status === 'completed' ? current : undefined;
          },
          `payment ${p.id} recovered on the first route`,
          30_000,
        ).catch((e: Error) => assert.fail(`${e.message}: ${JSON.stringify(last)}`));
        assert.ok(first().postsFor('requesttopay', p.id) <= 1, 'charged at most once');
        assert.equal(second().callsFor(p.id), 0);
      }
    });
  });
}
