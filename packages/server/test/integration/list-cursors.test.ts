/**
 * Every list pages with cursors bound to it. Its answers carry `next_cursor` / `previous_cursor`:
 * signed tokens bound to the list (path, merchant, environment) and its filters; a token altered,
 * from another list or merchant, or replayed with other filters is 400 invalid_cursor saying which.
 * An object id is still a cursor too, bound to the list but not to the filters (objects change
 * status between pages): an unknown id, another list's, merchant's or environment's is 400
 * invalid_cursor, an object the filters now exclude is a good position. A string that is neither
 * is 400 (it used to answer page 1 again with has_more, and a client looped). On every database.
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
  /** A filter that keeps two objects or more (or none, for lists without filters). */
  wide: string;
}

/** Every list of the API, under one merchant's parents. */
function listsOf(parents: Parents): ListCase[] {
  const otherStatus = (object: Wire, a: string, b: string) => `status=${object.status === a ? b : a}`;
  const since = 'created_gte=2000-01-01T00:00:00Z';
  return [
    { name: 'payments', path: '/collect/payments', excluding: (o) => otherStatus(o, 'failed', 'completed'), including: (o) => `status=${o.status}`, wide: since },
    { name: 'refunds', path: `/collect/payments/${parents.paymentReference}/refunds`, wide: '' },
    { name: 'payouts', path: '/payout/mobile-money/', excluding: (o) => otherStatus(o, 'FAILED', 'COMPLETED'), including: (o) => `status=${o.status}`, wide: since },
    {
      name: 'events',
      path: '/events',
      excluding: (o) => `type=${o.type === 'payout.failed' ? 'payout.completed' : 'payout.failed'}`,
      including: (o) => `type=${o.type}`,
      wide: since,
    },
    { name: 'webhook endpoints', path: '/webhook-endpoints', wide: '' },
    { name: 'deliveries', path: `/webhook-endpoints/${parents.endpointId}/deliveries`, wide: '' },
    {
      name: 'balance transactions',
      path: '/balance-transactions',
      excluding: (o) => `type=${o.type === 'refund' ? 'payout' : 'refund'}`,
      including: (o) => `type=${o.type}`,
      wide: since,
    },
    { name: 'bulk batches', path: '/bulk-payments/', excluding: (o) => otherStatus(o, 'cancelled', 'failed'), including: (o) => `status=${o.status}`, wide: since },
    {
      name: 'bulk items',
      path: `/bulk-payments/${parents.batchId}/items/`,
      excluding: (o) => otherStatus(o, 'cancelled', 'failed'),
      including: (o) => `status=${o.status}`,
      wide: 'status=pending',
    },
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
    let foreignParents: Parents;
    let otherKey: string;

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, apiKey: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${apiKey}`, ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) },
        ...(payload ? { payload } : {}),
      });
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
      for (const amount of [500_000, 600_000])
        await created('/payout/mobile-money/', apiKey, { reference: `P-${newId()}`, amount, phone: '0197000000', country: 'BJ', operator: 'mtn_bj' });
      return { paymentReference: payment.reference as string, endpointId: endpoint.id as string, batchId: batch.id as string };
    }

    before(async () => {
      t = await buildTestApp(target);
      ({ testKey: key, liveKey } = await t.newMerchant());
      const other = await t.newMerchant({ name: 'Another merchant' });
      lists = listsOf(await seed(key));
      foreignParents = await seed(other.testKey);
      otherKey = other.testKey;
      const foreignLists = listsOf(foreignParents);
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
          for (const bad of ['abc', 'page-2', '0', 'a.b'])
            assertInvalidCursor(
              await get(`${list.path}?${field}=${bad}`),
              field,
              /must be a cursor this list returned .* or the id of an object of this list/,
              `${list.name} ${field}=${bad}`,
            );
        }
      }
    });

    it('follows good cursors to the end of every list, both ways', async () => {
      for (const list of lists) {
        const expected = objectsOf(list).map((object) => object.id as string);
        const walk = async (field: string, from: string | undefined) => {
          const ids: string[] = [];
          for (let cursor = from; ;) {
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
          for (const [what, id] of Object.entries(strangers))
            assertInvalidCursor(await get(`${list.path}?${field}=${id}`), field, /^\w+ is not an object of this list/, `${list.name}, ${what}, ${field}`);
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
        for (const field of cursorFields)
          assertInvalidCursor(await get(`${list.path}?${field}=${id}`, liveKey), field, /is not an object of this list/, `${list.name} read live, ${field}`);
      }
      const testDelivery = objectsOf(lists.find((l) => l.name === 'deliveries')!)[0]!.id as string;
      assertInvalidCursor(
        await get(`/webhook-endpoints/${liveEndpointId}/deliveries?starting_after=${testDelivery}`, liveKey),
        'starting_after',
        /is not an object of this list/,
        'live deliveries',
      );
      // A nested list of test objects is not even found with the live key.
      for (const list of lists.filter((l) => nested.includes(l.name))) {
        assert.equal((await get(`${list.path}?starting_after=${objectsOf(list)[0]!.id as string}`, liveKey)).statusCode, 404, list.name);
      }
    });

    /** `path?query` with `extra` parameters added. */
    const url = (list: ListCase, ...extra: string[]) => {
      const query = [list.wide, ...extra].filter(Boolean).join('&');
      return `${list.path}${query ? `?${query}` : ''}`;
    };

    it('accepts an id that the filters exclude as a position, and pages on under the filters', async () => {
      const filtered = lists.filter((list) => list.excluding !== undefined);
      assert.deepEqual(
        filtered.map((list) => list.name),
        ['payments', 'payouts', 'events', 'balance transactions', 'bulk batches', 'bulk items'],
      );
      for (const list of filtered) {
        const all = objectsOf(list).map((object) => object.id as string);
        // The newest and the oldest, so that one direction at least has objects beyond.
        for (const object of [objectsOf(list)[0]!, objectsOf(list).at(-1)!]) {
          const filter = list.excluding!(object);
          const kept = new Set(((await get(`${list.path}?${filter}&limit=100`)).json() as Wire).data.map((o: Wire) => o.id as string));
          assert.ok(!kept.has(object.id as string), `${list.name} ${filter} keeps the object`);
          const at = all.indexOf(object.id as string);
          const expected = { starting_after: all.slice(at + 1).filter((id) => kept.has(id)), ending_before: all.slice(0, at).filter((id) => kept.has(id)) };
          for (const field of cursorFields) {
            const res = await get(`${list.path}?${filter}&limit=100&${field}=${object.id as string}`);
            assert.equal(res.statusCode, 200, `${list.name} ${filter}, ${field}: ${res.body}`);
            assert.deepEqual(
              (res.json() as Wire).data.map((o: Wire) => o.id),
              expected[field],
              `${list.name} ${filter}, ${field}`,
            );
          }
        }
      }
    });

    it('follows next_cursor through every list under a filter, and previous_cursor back', async () => {
      for (const list of lists) {
        const expected = ((await get(url(list, 'limit=100'))).json() as Wire).data.map((o: Wire) => o.id as string);
        assert.ok(expected.length >= 2, `${list.name} ${list.wide}: the walk needs two objects or more`);
        const ids: string[] = [];
        let page = (await get(url(list, 'limit=1'))).json() as Wire;
        assert.equal(page.previous_cursor, null, `${list.name}: a first page has no previous_cursor`);
        for (;;) {
          ids.push(...page.data.map((o: Wire) => o.id as string));
          assert.equal(page.next_cursor === null, !page.has_more, `${list.name}: next_cursor is null exactly when has_more is false`);
          if (page.next_cursor === null) break;
          assert.doesNotMatch(page.next_cursor, /^[0-9a-f-]{36}$/, `${list.name}: the cursor is a token, not an id`);
          page = (await get(url(list, 'limit=1', `starting_after=${page.next_cursor as string}`))).json() as Wire;
          assert.notEqual(page.previous_cursor, null, `${list.name}: a page after a cursor has a previous_cursor`);
        }
        assert.deepEqual(ids, expected, `${list.name}, forwards`);
        const back: string[] = [];
        for (let cursor = page.previous_cursor as string | null; cursor !== null;) {
          const before = (await get(url(list, 'limit=1', `ending_before=${cursor}`))).json() as Wire;
          back.unshift(...before.data.map((o: Wire) => o.id as string));
          assert.notEqual(before.next_cursor, null, `${list.name}: a page read backwards from a cursor has a next_cursor`);
          assert.equal(before.previous_cursor === null, !before.has_more, `${list.name}: previous_cursor is null exactly when has_more is false, backwards`);
          cursor = before.previous_cursor as string | null;
        }
        assert.deepEqual(back, expected.slice(0, -1), `${list.name}, backwards from the last page`);
      }
    });

    /** The next_cursor of the first page of `list` (limit 1), read with `apiKey`. */
    const tokenOf = async (list: ListCase, apiKey = key) => {
      const page = (await get(url(list, 'limit=1'), apiKey)).json() as Wire;
      assert.equal(typeof page.next_cursor, 'string', `${list.name}: ${JSON.stringify(page)}`);
      return page.next_cursor as string;
    };

    it('refuses a token with other filters, saying so, and takes the filters in any letter case', async () => {
      for (const list of lists.filter((l) => l.including !== undefined)) {
        const token = await tokenOf(list);
        const object = objectsOf(list)[0]!;
        for (const field of cursorFields) {
          assertInvalidCursor(
            await get(`${list.path}?${list.excluding!(object)}&${field}=${token}`),
            field,
            /was issued for other filters: repeat the filters/,
            `${list.name}, ${field}`,
          );
          assertInvalidCursor(await get(`${list.path}?${field}=${token}`), field, /was issued for other filters/, `${list.name} without filters, ${field}`);
        }
      }
      // Bulk items are read with status=pending: the same filter in capitals is the same filter.
      const items = lists.find((l) => l.name === 'bulk items')!;
      const res = await get(`${items.path}?status=PENDING&starting_after=${await tokenOf(items)}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        (res.json() as Wire).data.map((o: Wire) => o.id),
        objectsOf(items)
          .slice(1)
          .map((o) => o.id),
      );
    });

    it("refuses another list's, another parent's, another merchant's and the other environment's token", async () => {
      const others = listsOf(foreignParents);
      const endpoints = objectsOf(lists.find((l) => l.name === 'webhook endpoints')!);
      const otherEndpoint = endpoints.find((e) => e.id !== lists.find((l) => l.name === 'deliveries')!.path.split('/')[2])!;
      const siblingDeliveries: ListCase = { name: 'deliveries of the other endpoint', path: `/webhook-endpoints/${otherEndpoint.id as string}/deliveries`, wide: '' };
      for (const [index, list] of lists.entries()) {
        const otherList = lists[(index + 1) % lists.length]!;
        const strangers: Record<string, string> = { "another list's": await tokenOf(otherList), "another merchant's": await tokenOf(others[index]!, otherKey) };
        if (list.name === 'deliveries') strangers["another endpoint's"] = await tokenOf(siblingDeliveries);
        for (const field of cursorFields) {
          for (const [what, token] of Object.entries(strangers)) {
            assertInvalidCursor(await get(url(list, `${field}=${token}`)), field, /was issued for another list/, `${list.name}, ${what} token, ${field}`);
          }
        }
      }
      for (const list of lists.filter((l) => ['payments', 'payouts', 'events', 'webhook endpoints', 'balance transactions', 'bulk batches'].includes(l.name))) {
        assertInvalidCursor(await get(url(list, `starting_after=${await tokenOf(list)}`), liveKey), 'starting_after', /was issued for another list/, `${list.name} read live`);
      }
    });

    it('refuses an altered or cut token', async () => {
      const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      for (const list of lists) {
        const token = await tokenOf(list);
        const dot = token.indexOf('.');
        const altered = {
          'in its payload': flip(token, 5),
          'in its signature': flip(token, dot + 5),
          'at its last character': flip(token, token.length - 1),
          'cut short': token.slice(0, -1),
          'without signature': token.slice(0, dot + 1),
        };
        for (const field of cursorFields) {
          for (const [what, bad] of Object.entries(altered)) {
            assertInvalidCursor(
              await get(url(list, `${field}=${bad}`)),
              field,
              /is not a cursor this list returned|must be a cursor this list returned/,
              `${list.name}, altered ${what}, ${field}`,
            );
          }
        }
      }
    });

    it('continues a status filter with the id or the token of an object that has left it since', async () => {
      const batches = lists.find((l) => l.name === 'bulk batches')!;
      const line = () => ({ beneficiary_name: 'A', phone: '+2290197000000', amount: 2_500_000, currency: 'XOF', reference: `L-${newId()}` });
      const older = await created('/bulk-payments/', key, { name: 'Older', items: [line()] });
      const newer = await created('/bulk-payments/', key, { name: 'Newer', items: [line()] });
      const status = newer.status as string;
      const first = (await get(`${batches.path}?status=${status}&limit=1`)).json() as Wire;
      assert.equal(first.data[0].id, newer.id);
      const cancelled = await call('POST', `/bulk-payments/${newer.id as string}/cancel/`, key);
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      for (const cursor of [newer.id as string, first.next_cursor as string]) {
        const res = await get(`${batches.path}?status=${status}&limit=1&starting_after=${cursor}`);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal((res.json() as Wire).data[0].id, older.id, cursor);
      }
    });

    it("takes the token of a deleted webhook endpoint's page, and refuses its id", async () => {
      const endpoints = lists.find((l) => l.name === 'webhook endpoints')!;
      const doomed = await created('/webhook-endpoints', key, { url: 'https://shop.example/doomed' });
      const first = (await get(`${endpoints.path}?limit=1`)).json() as Wire;
      assert.equal(first.data[0].id, doomed.id);
      assert.equal((await call('DELETE', `/webhook-endpoints/${doomed.id as string}`, key)).statusCode, 200);
      const next = await get(`${endpoints.path}?limit=100&starting_after=${first.next_cursor as string}`);
      assert.equal(next.statusCode, 200, next.body);
      assert.deepEqual(
        (next.json() as Wire).data.map((o: Wire) => o.id),
        objectsOf(endpoints).map((o) => o.id),
      );
      assertInvalidCursor(await get(`${endpoints.path}?starting_after=${doomed.id as string}`), 'starting_after', /is not an object of this list/, 'the deleted endpoint id');
    });
  });
}
