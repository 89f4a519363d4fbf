/**
 * A limited payment link's uses (docs/decisions.md, "Payment link uses"), on every database: the use
 * is taken when the payment is created, under the link's lock, so of customers posting the form at
 * the same moment only as many as the link takes get a payment; the others are told why (409 while
 * a payment holds the use, 410 once it is paid) and nothing is written for them. A payment that
 * fails gives its use back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Sandbox numbers (Bénin, MTN): the suffix decides what the operator answers. */
const stillPending = '0197000002';
const failing = '0197000001';
const completing = '0197000000';
const concurrentCustomers = 8;

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? assert.fail('no form token on the page');

for (const target of testDatabases()) {
  describe(`payment link uses on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let merchant: { merchantId: string; testKey: string };
    const clock = new FakeClock(new Date());

    before(async () => {
      // Many customers of one link at once: the page's per-link budget must not be what refuses them.
      t = await buildTestApp(target, { clock, env: { RATE_LIMIT_CHECKOUT_PER_TOKEN: '1000', RATE_LIMIT_CHECKOUT_PER_IP: '1000' } });
      merchant = await t.newMerchant({ name: 'Marché Dantokpa' });
    });
    after(() => t.close());

    const newLink = async (body: Wire) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/payment-links',
        headers: { authorization: `Bearer ${merchant.testKey}` },
        payload: { amount_minor: 200000, country: 'BJ', description: 'Sac de riz', ...body },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as Wire;
    };
    const pathOf = (link: Wire) => new URL(link.url).pathname;
    const formOf = async (link: Wire) => csrfOf((await t.app.inject({ url: pathOf(link) })).body);
    const pay = (link: Wire, csrf: string, phone: string) =>
      t.app.inject({
        method: 'POST',
        url: pathOf(link),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf, phone, operator: 'mtn_bj' }).toString(),
      });
    /** Straight from the database: what was written, whatever the answers said. */
    const storedPayments = (link: Wire) => t.services.database.db.selectFrom('payments').select(['id', 'status']).where('payment_link_id', '=', link.id).execute();
    const everyoneAtOnce = async (link: Wire, phone: string) => {
      const csrf = await formOf(link);
      return Promise.all(Array.from({ length: concurrentCustomers }, () => pay(link, csrf, phone)));
    };

    it('of customers paying a single-use link at the same moment, exactly one gets a payment; the others get 409 and nothing is written for them', async () => {
      const link = await newLink({ reusable: false });
      const answers = await everyoneAtOnce(link, stillPending);
      const statuses = answers.map((res) => res.statusCode).sort();
      assert.deepEqual(statuses, [303, ...Array<number>(concurrentCustomers - 1).fill(409)], answers.map((res) => res.statusCode).join(','));
      const refused = answers.find((res) => res.statusCode === 409)!;
      assert.match(refused.body, /Un autre paiement par ce lien est en cours/);
      assert.match(refused.body, /Rien n’a été débité/);
      const stored = await storedPayments(link);
      assert.equal(stored.length, 1);
      assert.equal(stored[0]!.status, 'pending');
    });

    it('once the single payment completed, concurrent customers get 410 (already paid) and nothing is written', async () => {
      const link = await newLink({ reusable: false });
      const csrf = await formOf(link);
      assert.equal((await pay(link, csrf, completing)).statusCode, 303);
      const answers = await Promise.all(Array.from({ length: 4 }, () => pay(link, csrf, completing)));
      assert.deepEqual(
        answers.map((res) => res.statusCode),
        [410, 410, 410, 410],
      );
      assert.match(answers[0]!.body, /déjà été payé/);
      assert.deepEqual(
        (await storedPayments(link)).map((p) => p.status),
        ['completed'],
      );
    });

    it('a single-use link whose payment failed takes a payment again, and is used up by the one that completes', async () => {
      const link = await newLink({ reusable: false });
      const csrf = await formOf(link);
      assert.equal((await pay(link, csrf, failing)).statusCode, 303);
      assert.deepEqual(
        (await storedPayments(link)).map((p) => p.status),
        ['failed'],
      );
      assert.equal((await pay(link, csrf, completing)).statusCode, 303);
      assert.equal((await pay(link, csrf, completing)).statusCode, 410);
      assert.deepEqual((await storedPayments(link)).map((p) => p.status).sort(), ['completed', 'failed']);
    });

    it('a single-use link whose payment was never approved takes a payment again once that payment expired', async () => {
      const link = await newLink({ reusable: false });
      const csrf = await formOf(link);
      assert.equal((await pay(link, csrf, stillPending)).statusCode, 303);
      assert.equal((await pay(link, csrf, completing)).statusCode, 409, 'held while the first may still complete');
      clock.advance(2 * 60 * 60 * 1000);
      assert.ok((await t.services.payments.expireDue()) >= 1);
      assert.deepEqual(
        (await storedPayments(link)).map((p) => p.status),
        ['expired'],
      );
      assert.equal((await pay(link, await formOf(link), completing)).statusCode, 303);
      assert.deepEqual((await storedPayments(link)).map((p) => p.status).sort(), ['completed', 'expired']);
    });

    it('max_payments: of concurrent customers, only as many as the link takes get a payment', async () => {
      const link = await newLink({ max_payments: 3 });
      const answers = await everyoneAtOnce(link, stillPending);
      assert.equal(answers.filter((res) => res.statusCode === 303).length, 3);
      assert.equal(answers.filter((res) => res.statusCode === 409).length, concurrentCustomers - 3);
      assert.equal((await storedPayments(link)).length, 3);
    });

    it('a reusable link without max_payments takes every concurrent customer', async () => {
      const link = await newLink({});
      const answers = await everyoneAtOnce(link, stillPending);
      assert.deepEqual(
        answers.map((res) => res.statusCode),
        Array<number>(concurrentCustomers).fill(303),
      );
      assert.equal((await storedPayments(link)).length, concurrentCustomers);
    });
  });
}
