/**
 * Every list takes as cursor (starting_after / ending_before) only the id of an object of that
 * very list as the request filters it. A string that is no id, an unknown id, an id of another
 * list, another merchant or the other environment, and an object the filters exclude are each
 * 400 invalid_cursor naming the parameter: read as positions they would page silently through
 * something else (a non-id used to answer page 1 again with has_more, and a client looped).
 * Good cursors page both ways, in any letter case. On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The parents of a merchant's nested lists, made by `seed`. */
interface Parents {
  paymentReference: string;
  endpointId: string;
  batchId: string;
}

interface ListCase {
  name: string;
  path: string;
  /** A filter that leaves `object` out, for lists that take one. */
  excluding?: (object: Wire) => string;
  /** A filter that keeps `object`. */
  including?: (object: Wire) => string;
}

/** Every list of the API, under one merchant's parents. */
function listsOf(parents: Parents): ListCase[] {
  const otherStatus = (object: Wire, a: string, b: string) => `status=${object.status === a ? b : a}`;
  return [
    { name: 'payments', path: '/collect/payments', excluding: (o) => otherStatus(o, 'failed', 'completed'), including: (o) => `status=${o.status}` },
    { name: 'refunds', path: `/collect/payments/${parents.paymentReference}/refunds` },
    { name: 'payouts', path: '/payout/mobile-money/', excluding: (o) => otherStatus(o, 'FAILED', 'COMPLETED'), including: (o) => `status=${o.status}` },
    { name: 'events', path: '/events', excluding: (o) => `type=${o.type === 'payout.failed' ? 'payout.completed' : 'payout.failed'}`, including: (o) => `type=${o.type}` },
    { name: 'webhook endpoints', path: '/webhook-endpoints' },
    { name: 'deliveries', path: `/webhook-endpoints/${parents.endpointId}/deliveries` },
    { name: 'balance transactions', path: '/balance-transactions', excluding: (o) => `type=${o.type === 'refund' ? 'payout' : 'refund'}`, including: (o) => `type=${o.type}` },
    { name: 'bulk batches', path: '/bulk-payments/', excluding: (o) => otherStatus(o, 'cancelled', 'failed'), including: (o) => `status=${o.status}` },
    { name: 'bulk items', path: `/bulk-payments/${parents.batchId}/items/`, excluding: (o) => otherStatus(o, 'cancelled', 'failed'), including: (o) => `status=${o.status}` },
  ];
}

const cursorFields = ['starting_after', 'ending_before'] as const;

for (const target of testDatabases()) {
  describe(`list cursors on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    let liveKey: string;
    let lists: ListCase[];
    /** Per list name: the ids of the same list at another merchant. */
    const foreignIds = new Map<string, string>();
    /** Per list name: its objects at this merchant, newest first. */
    const objects = new Map<string, Wire[]>();
    let liveEndpointId: string;

    const call = (method: 'GET' | 'POST', url: string, apiKey: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${apiKey}`, ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) }, ...(payload ? { payload } : {}) });
    const get = (url: string, apiKey = key) => call('GET', url, apiKey);
    const created = async (url: string, apiKey: string, payload: object): Promise<Wire> => {
      const res = await call('POST', url, apiKey, payload);
      assert.ok(res.statusCode < 300, `${url}: ${res.body}`);
      return res.json() as Wire;
    };

    /** At least two objects in every list of the merchant whose test key is `apiKey`. */
    async function seed(apiKey: string): Promise<Parents> {
      const api = collectClient(t.app, apiKey);
      const payment = await api.createOk(direct());
      await api.createOk(direct({ reference: `FAIL-${newId()}` }));
      for (const amount of [1000, 500]) assert.equal((await api.post(payment.reference, 'refunds', { amount })).statusCode, 201);
      const endpoint = await created('/webhook-endpoints', apiKey, { url: 'https://shop.example/hooks' });
      await created('/webhook-endpoints', apiKey, { url: 'https://shop.example/other-hooks' });
      const line = (reference: string) => ({ beneficiary_name: 'A', phone: '+2290197000000', amount: 2_500_000, currency: 'XOF', reference });
      const batch = await created('/bulk-payments/', apiKey, { name: 'Cursors', items: [line(`C1-${newId()}`), line(`C2-${newId()}`)] });
      await created('/bulk-payments/', apiKey, { name: 'Cursors too', items: [line(`C3-${newId()}`)] });
      for (const amount of [500_000, 600_000]) await created('/payout/mobile-money/', apiKey, { reference: `P-${newId()}`, amount, phone: '0197000000', country: 'BJ', operator: 'mtn_bj' });
      return { paymentReference: payment.reference as string, endpointId: endpoint.id as string, batchId: batch.id as string };
    }

    before(async () => {
      t = await buildTestApp(target);
      ({ testKey: key, liveKey } = await t.newMerchant());
      const other = await t.newMerchant({ name: 'Another merchant' });
      lists = listsOf(await seed(key));
      const foreignLists = listsOf(await seed(other.testKey));
      liveEndpointId = (await created('/webhook-endpoints', liveKey, { url: 'https://shop.example/live-hooks' })).id as string;
      // Events become deliveries to the endpoints (what the fan-out worker does).
      while ((await t.services.webhooks.fanOut()) > 0);
      for (const [index, list] of lists.entries()) {
        const page = (await get(`${list.path}?limit=100`)).json() as Wire;
        assert.ok(page.data.length >= 2, `${list.name}: the suite needs two objects or more, got ${page.data.length}`);
        objects.set(list.name, page.data as Wire[]);
        const foreign = (await get(`${foreignLists[index]!.path}?limit=1`, other.testKey)).json() as Wire;
        foreignIds.set(list.name, foreign.data[0].id as string);
      }
    });
    after(() => t.close());

    const objectsOf = (list: ListCase) => objects.get(list.name)!;

    const assertInvalidCursor = (res: Awaited<ReturnType<typeof get>>, field: string, message: RegExp, what: string) => {
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      const { error } = res.json() as Wire;
      assert.equal(error.code, 'invalid_cursor', what);
      assert.equal(error.field, field, what);
      assert.match(error.message, message, what);
    };

    it('refuses a cursor that is not an object id, on every list, naming the parameter', async () => {
      for (const list of lists) {
        for (const field of cursorFields) {
          for (const bad of ['abc', 'page-2', '0']) assertInvalidCursor(await get(`${list.path}?${field}=${bad}`), field, /must be the id of an object of this list/, `${list.name} ${field}=${bad}`);
        }
      }
    });

    it('follows good cursors to the end of every list, both ways', async () => {
      for (const list of lists) {
        const expected = objectsOf(list).map((object) => object.id as string);
        const walk = async (field: string, from: string | undefined) => {
          const ids: string[] = [];
          for (let cursor = from; ; ) {
            const page = (await get(`${list.path}?limit=1${cursor === undefined ? '' : `&${field}=${cursor}`}`)).json() as Wire;
            ids.push(...page.data.map((object: Wire) => object.id as string));
            if (!page.has_more) return ids;
            cursor = page.data[0].id as string;
          }
        };
        assert.deepEqual(await walk('starting_after', undefined), expected, `${list.name}, forwards`);
        assert.deepEqual((await walk('ending_before', expected.at(-1))).reverse(), expected.slice(0, -1), `${list.name}, backwards from the last`);
      }
    });

    it('reads an id in upper case as the id', async () => {
      for (const list of lists) {
        const id = objectsOf(list)[0]!.id as string;
        const lower = (await get(`${list.path}?limit=5&starting_after=${id}`)).json() as Wire;
        const upper = (await get(`${list.path}?limit=5&starting_after=${id.toUpperCase()}`)).json() as Wire;
        assert.ok(lower.data.length > 0, list.name);
        assert.deepEqual(upper, lower, list.name);
        assert.ok(!lower.data.some((object: Wire) => object.id === id), `${list.name}: the cursor's object is not on the next page`);
      }
    });

    it('refuses an unknown id, an id of another list and an id of another merchant, without telling them apart', async () => {
      for (const [index, list] of lists.entries()) {
        const otherList = lists[(index + 1) % lists.length]!;
        const strangers = { 'an unknown id': newId(), "another list's id": objectsOf(otherList)[0]!.id as string, "another merchant's id": foreignIds.get(list.name)! };
        for (const field of cursorFields) {
          for (const [what, id] of Object.entries(strangers)) assertInvalidCursor(await get(`${list.path}?${field}=${id}`), field, /^\w+ is not an object of this list/, `${list.name}, ${what}, ${field}`);
        }
      }
    });

    it("refuses the other environment's ids", async () => {
      // The live key reads its own lists: the test objects are strangers there.
      const nested = ['refunds', 'deliveries', 'bulk items'];
      const topLevel = lists.filter((list) => !nested.includes(list.name));
      assert.equal(topLevel.length, 6);
      for (const list of topLevel) {
        const id = objectsOf(list)[0]!.id as string;
        for (const field of cursorFields) assertInvalidCursor(await get(`${list.path}?${field}=${id}`, liveKey), field, /is not an object of this list/, `${list.name} read live, ${field}`);
      }
      const testDelivery = objectsOf(lists.find((l) => l.name === 'deliveries')!)[0]!.id as string;
      assertInvalidCursor(await get(`/webhook-endpoints/${liveEndpointId}/deliveries?starting_after=${testDelivery}`, liveKey), 'starting_after', /is not an object of this list/, 'live deliveries');
      // A nested list of test objects is not even found with the live key.
      for (const list of lists.filter((l) => nested.includes(l.name))) {
        assert.equal((await get(`${list.path}?starting_after=${objectsOf(list)[0]!.id as string}`, liveKey)).statusCode, 404, list.name);
      }
    });

    it('refuses a cursor that the filters exclude, saying so, and takes it where they keep it', async () => {
      const filtered = lists.filter((list) => list.excluding !== undefined);
      assert.deepEqual(filtered.map((list) => list.name), ['payments', 'payouts', 'events', 'balance transactions', 'bulk batches', 'bulk items']);
      for (const list of filtered) {
        const object = objectsOf(list)[0]!;
        for (const field of cursorFields) {
          assertInvalidCursor(await get(`${list.path}?${list.excluding!(object)}&${field}=${object.id as string}`), field, /filters exclude/, `${list.name} ${list.excluding!(object)}, ${field}`);
          const kept = await get(`${list.path}?${list.including!(object)}&${field}=${object.id as string}`);
          assert.equal(kept.statusCode, 200, `${list.name} ${list.including!(object)}: ${kept.body}`);
        }
      }
    });
  });
}
