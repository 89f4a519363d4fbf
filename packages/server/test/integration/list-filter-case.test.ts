/**
 * Enum-valued list filters read in any letter case (collect statuses are lowercase and payout
 * statuses UPPERCASE by contract, so a developer mixes them up): each variant filters exactly as
 * the canonical value, answers keep each contract's casing, and a value matching none in any
 * case is still 400 listing the allowed values. On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface FilterCase {
  list: string;
  path: string;
  filter: string;
  /** The field of the listed objects that the filter reads. */
  field: string;
  /** The casing of the contract's values. */
  casing: RegExp;
}

const lowercase = /^[a-z_.]+$/;
const uppercase = /^[A-Z_]+$/;

/** The same word in other letter cases: UPPER, lower and Title. */
const otherCases = (value: string) =>
  [value.toUpperCase(), value.toLowerCase(), value.charAt(0).toUpperCase() + value.slice(1).toLowerCase()].filter((variant) => variant !== value);

for (const target of testDatabases()) {
  describe(`list filters in any letter case on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    let cases: FilterCase[];

    const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });
    const post = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}`, 'idempotency-key': newId() }, payload });
      assert.ok(res.statusCode < 300, `${url}: ${res.body}`);
      return res.json() as Wire;
    };

    before(async () => {
      t = await buildTestApp(target);
      key = (await t.newMerchant()).testKey;
      const api = collectClient(t.app, key);
      await api.createOk(direct());
      await api.createOk(direct({ reference: `FAIL-${newId()}` }));
      await post('/payout/mobile-money/', { reference: `P-${newId()}`, amount: 500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj' });
      const batch = await post('/bulk-payments/', {
        name: 'Case',
        items: [{ beneficiary_name: 'A', phone: '+2290197000000', amount: 2_500_000, currency: 'XOF', reference: `C-${newId()}` }],
      });
      cases = [
        { list: 'payments', path: '/collect/payments', filter: 'status', field: 'status', casing: lowercase },
        { list: 'payments', path: '/collect/payments', filter: 'mode', field: 'mode', casing: lowercase },
        { list: 'payouts', path: '/payout/mobile-money/', filter: 'status', field: 'status', casing: uppercase },
        { list: 'bulk batches', path: '/bulk-payments/', filter: 'status', field: 'status', casing: lowercase },
        { list: 'bulk items', path: `/bulk-payments/${batch.id as string}/items/`, filter: 'status', field: 'status', casing: lowercase },
        { list: 'balance transactions', path: '/balance-transactions', filter: 'type', field: 'type', casing: lowercase },
        { list: 'events', path: '/events', filter: 'type', field: 'type', casing: lowercase },
      ];
    });
    after(() => t.close());

    it('filters on a value in any letter case exactly as on the canonical value, answering in the contract casing', async () => {
      for (const { list, path, filter, field, casing } of cases) {
        const everything = ((await get(`${path}?limit=100`)).json() as Wire).data as Wire[];
        const canonical = everything[0]![field] as string;
        assert.match(canonical, casing, `${list}: the contract's casing`);
        const expected = (await get(`${path}?${filter}=${canonical}&limit=100`)).json() as Wire;
        assert.ok(expected.data.length > 0 && expected.data.every((object: Wire) => object[field] === canonical), `${list} ${filter}=${canonical}`);
        for (const variant of otherCases(canonical)) {
          const res = await get(`${path}?${filter}=${variant}&limit=100`);
          assert.equal(res.statusCode, 200, `${list} ${filter}=${variant}: ${res.body}`);
          assert.deepEqual(res.json(), expected, `${list} ${filter}=${variant}`);
        }
      }
    });

    it('filters collect payments on FAILED and payouts on pending', async () => {
      const failed = (await get('/collect/payments?status=FAILED')).json() as Wire;
      assert.deepEqual(
        failed.data.map((payment: Wire) => payment.status),
        ['failed'],
      );
      // A sandbox payout stays PENDING until the payout worker, which this suite does not run, takes it.
      const pending = (await get('/payout/mobile-money/?status=pending')).json() as Wire;
      assert.deepEqual(
        pending.data.map((payout: Wire) => payout.status),
        ['PENDING'],
      );
    });

    it('still refuses a value that matches none in any case, listing the allowed values', async () => {
      for (const [path, allowed] of [
        ['/collect/payments', 'completed'],
        ['/payout/mobile-money/', 'COMPLETED'],
        ['/bulk-payments/', 'partially_completed'],
      ] as const) {
        const res = await get(`${path}?status=paid`);
        assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
        assert.equal(res.json().error.code, 'validation_error', path);
        assert.match(res.body, new RegExp(allowed), `${path}: the allowed values are listed`);
      }
      const events = await get('/events?type=collect.payment.paid');
      assert.equal(events.statusCode, 400, events.body);
      assert.match(events.json().error.message, /collect\.payment\.completed/);
    });
  });
}
