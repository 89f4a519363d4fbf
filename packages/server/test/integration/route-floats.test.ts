/**
 * Provider floats in storage (migration 0037) and the worker that reads them, on every database:
 * a route's read is claimed once per period, a low spell alerts once, a failed read keeps the last
 * good reading, and the low routes are what payout routing avoids.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import type { Mail } from '../../src/core/dashboard/mailer.js';
import { FloatBoard } from '../../src/core/floats/float-board.js';
import { FLOAT_READINGS_KEPT_MS, FloatWatch } from '../../src/core/floats/float-watch.js';
import { LowFloats } from '../../src/core/floats/low-floats.js';
import type { OperatorConnector, ProviderBalance } from '../../src/core/operators/operator-connector.js';
import { newId } from '../../src/core/shared/ids.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { FloatRepository } from '../../src/storage/repositories/float-repository.js';
import { FakeClock } from '../support/fake-clock.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const catalog = loadDefaultCatalog();

/** A connector that pays out and whose balance the test sets (or makes fail). */
function floatConnector(family: string, balance: { current: ProviderBalance | Error }): OperatorConnector {
  const call = () => Promise.reject(new Error('not called'));
  return {
    family,
    payouts: { sendPayout: call, queryPayout: call },
    balance: { readBalance: async () => (balance.current instanceof Error ? Promise.reject(balance.current) : balance.current) },
  } as unknown as OperatorConnector;
}

for (const target of testDatabases()) {
  describe(`provider floats on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let store: FloatRepository;

    before(async () => {
      db = await target.open();
      store = new FloatRepository(db.database.db);
    });
    after(async () => db?.close());

    it('lets one of two workers claim a route’s read, and none before it is due again', async () => {
      const label = `mtn_bj/claim-${newId()}`;
      const now = '2026-11-27T10:00:00.000Z';
      const next = '2026-11-27T10:05:00.000Z';
      const claims = await Promise.all([store.claimRead(label, now, next), store.claimRead(label, now, next)]);
      assert.deepEqual(claims.filter(Boolean).length, 1, `exactly one claim wins: ${JSON.stringify(claims)}`);
      assert.equal(await store.claimRead(label, '2026-11-27T10:04:59.000Z', '2026-11-27T10:09:59.000Z'), false, 'not due yet');
      assert.equal(await store.claimRead(label, next, '2026-11-27T10:10:00.000Z'), true, 'due again after its period');
    });

    it('marks a low spell once, ends it when the float rises back, and keeps the readings until they are pruned', async () => {
      const label = `mtn_bj/spell-${newId()}`;
      await store.claimRead(label, '2026-11-27T10:00:00.000Z', '2026-11-27T10:05:00.000Z');
      const read = (balanceMinor: number, readAt: string) =>
        store.recordReading({ id: newId(), routeLabel: label, balanceMinor, currency: 'XOF', readAt, thresholdMinor: 1_000_000 });
      assert.deepEqual(await read(2_000_000, '2026-11-27T10:00:00.000Z'), { newlyLow: false });
      assert.deepEqual(await read(500_000, '2026-11-27T10:05:00.000Z'), { newlyLow: true }, 'the first reading under the threshold begins the spell');
      assert.deepEqual(await read(400_000, '2026-11-27T10:10:00.000Z'), { newlyLow: false }, 'a later low reading is the same spell');
      let float = (await store.list()).find((f) => f.routeLabel === label)!;
      assert.equal(float.low, true);
      assert.equal(float.lowSince, '2026-11-27T10:05:00.000Z');
      assert.equal(float.balanceMinor, 400_000);
      assert.ok((await store.lowRouteLabels()).includes(label));
      assert.deepEqual(await read(3_000_000, '2026-11-27T10:15:00.000Z'), { newlyLow: false });
      float = (await store.list()).find((f) => f.routeLabel === label)!;
      assert.equal(float.low, false);
      assert.equal(float.lowSince, null);
      assert.ok(!(await store.lowRouteLabels()).includes(label));
      assert.deepEqual(await read(10, '2026-11-27T10:20:00.000Z'), { newlyLow: true }, 'a new spell after the float rose back');
      const readings = await store.readings(label, 10);
      assert.deepEqual(
        readings.map((r) => r.balanceMinor),
        [10, 3_000_000, 400_000, 500_000, 2_000_000],
      );
      await store.pruneReadings(label, '2026-11-27T10:10:00.000Z');
      assert.deepEqual(
        (await store.readings(label, 10)).map((r) => r.balanceMinor),
        [10, 3_000_000, 400_000],
        'readings before the cut are forgotten',
      );
      assert.equal((await store.list()).find((f) => f.routeLabel === label)?.balanceMinor, 10, 'the state keeps the last reading');
    });

    it('reads due routes, alerts the administrators once per spell, and keeps the last good reading when a read fails', async () => {
      const clock = new FakeClock();
      const momo = { current: { amountMinor: 90_000_000, currency: 'XOF' } as ProviderBalance | Error };
      const pawapay = { current: { amountMinor: 1_000, currency: 'XOF' } as ProviderBalance | Error };
      // Labels of their own: the rows of the tests before stay in this database.
      const suffix = newId().slice(-8);
      const routes = [
        { name: `momo-${suffix}`, label: `mtn_bj/momo-${suffix}`, connector: floatConnector('mtn-momo', momo), lowFloatMinor: 50_000_000 },
        { name: `pawa-${suffix}`, label: `mtn_bj/pawa-${suffix}`, connector: floatConnector('pawapay', pawapay) },
      ];
      const connectors = new OperatorRegistry({ live: new Map([['MTN_BJ', routes]]) });
      const mails: Mail[] = [];
      const mailErrors: unknown[] = [];
      const lowFloats = new LowFloats(() => store.lowRouteLabels(), Date.now);
      const watch = new FloatWatch({
        store,
        catalog,
        connectors,
        lowFloats,
        adminEmails: async () => ['bounce@akwe.example', 'ops@akwe.example', 'cto@akwe.example'],
        mailer: { send: async (mail) => (mail.to.startsWith('bounce') ? Promise.reject(new Error('550 no such mailbox')) : void mails.push(mail)) },
        onMailError: (error) => void mailErrors.push(error),
        clock,
        newId,
        readIntervalMs: 60_000,
        publicUrl: 'https://akwe.example/',
      });
      const board = new FloatBoard({ store, catalog, connectors });
      const mine = async () => (await board.routes()).filter((r) => r.route.endsWith(suffix));

      assert.equal(await watch.readDue(), 2);
      assert.equal(await watch.readDue(), 0, 'nothing is due again within the period');
      assert.deepEqual(
        (await mine()).map((r) => [r.route, r.balanceMinor, r.state]),
        [
          [`mtn_bj/momo-${suffix}`, 90_000_000, 'ok'],
          [`mtn_bj/pawa-${suffix}`, 1_000, 'no_threshold'],
        ],
        'a route without a threshold is never low',
      );
      assert.equal(mails.length, 0);

      momo.current = { amountMinor: 4_500_000, currency: 'XOF' };
      clock.advance(60_000);
      await watch.readDue();
      assert.equal(lowFloats.isLow(`mtn_bj/momo-${suffix}`), true, 'known at once in the process that read it');
      assert.deepEqual(
        mails.map((m) => m.to),
        ['ops@akwe.example', 'cto@akwe.example'],
        'an address that fails does not keep the others from being told',
      );
      assert.equal(mailErrors.length, 1);
      assert.match(mails[0]!.subject, new RegExp(`Low float: mtn_bj/momo-${suffix}`));
      assert.match(mails[0]!.text, /45 000 XOF \(seuil 500 000 XOF\)/);
      assert.match(mails[0]!.text, /https:\/\/akwe\.example\/admin\/floats/);

      clock.advance(60_000);
      await watch.readDue();
      assert.equal(mails.length, 2, 'still low: no second alert');
      assert.equal(mailErrors.length, 1);

      momo.current = new Error('MTN MoMo: the disbursement balance answered 500');
      clock.advance(60_000);
      await watch.readDue();
      const failed = (await mine())[0]!;
      assert.equal(failed.state, 'low', 'a failed read keeps the last good reading and its state');
      assert.equal(failed.balanceMinor, 4_500_000);
      assert.match(failed.lastError ?? '', /answered 500/);

      momo.current = { amountMinor: 60_000_000, currency: 'XOF' };
      clock.advance(60_000);
      await watch.readDue();
      const back = (await mine())[0]!;
      assert.equal(back.state, 'ok');
      assert.equal(back.lastError, null);
      assert.equal(lowFloats.isLow(`mtn_bj/momo-${suffix}`), false);
      assert.deepEqual(
        (await board.low()).filter((r) => r.route.endsWith(suffix)),
        [],
      );

      // Readings are kept 90 days: a read after that forgets the older ones.
      assert.equal((await store.readings(`mtn_bj/momo-${suffix}`, 100)).length, 4);
      clock.advance(FLOAT_READINGS_KEPT_MS + 60_000);
      await watch.readDue();
      assert.equal((await store.readings(`mtn_bj/momo-${suffix}`, 100)).length, 1);
    });
  });
}
