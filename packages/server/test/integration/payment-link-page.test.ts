/**
 * The public page of a payment link over HTTP (docs/payment-links.md), on every database: what it
 * shows, in French then English, with the checkout page's headers; its form without JavaScript
 * creates a hosted payment that carries the link and hands over to the checkout page, where the
 * sandbox completes it; single use, expiry and deactivation say why and create nothing; an open
 * amount's bounds; the form token and unknown slugs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { renderDelivery } from '../../src/http/contracts/index.js';
import { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../../src/webhooks/webhook-senders.js';
import { eventsOf } from '../support/collect-client.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const spaces = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? assert.fail('no form token on the page');

for (const target of testDatabases()) {
  describe(`payment link page on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let merchant: { merchantId: string; testKey: string; liveKey: string };
    const clock = new FakeClock(new Date());

    before(async () => {
      t = await buildTestApp(target, { clock });
      merchant = await t.newMerchant({ name: 'Boutique Adjoa' });
    });
    after(() => t.close());

    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${merchant.testKey}` }, ...(payload ? { payload } : {}) });
    const newLink = async (body: Wire = {}) => {
      const res = await api('POST', '/payment-links', { amount_minor: 500000, country: 'BJ', description: 'Pagne wax <6 yards>', ...body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as Wire;
    };
    const pathOf = (link: Wire) => new URL(link.url).pathname;
    const open = (path: string, headers: Record<string, string> = {}) => t.app.inject({ url: path, headers });
    const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: form(fields) });
    const submit = async (link: Wire, fields: Record<string, string>) => {
      const page = await open(pathOf(link));
      return post(pathOf(link), { csrf: csrfOf(page.body), ...fields });
    };
    const paymentsOf = async (link: Wire) => {
      const res = await api('GET', `/collect/payments?payment_link=${link.id}&limit=100`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as Wire[];
    };

    it('shows the merchant, what is sold and the amount, in French, with the test banner and the checkout page’s headers', async () => {
      const link = await newLink();
      const res = await open(pathOf(link));
      assert.equal(res.statusCode, 200);
      const body = spaces(res.body);
      assert.match(body, /<html lang="fr">/);
      assert.match(body, /Boutique Adjoa/);
      assert.match(body, /Pagne wax &#60;6 yards&#62;/, 'escaped');
      assert.match(body, /5 000 FCFA/);
      assert.match(body, /Mode test/);
      assert.match(body, /<form method="post" action="\/pay\/[A-Za-z0-9_-]{32}"/);
      assert.match(body, /Deviner d’après mon numéro/);
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.ok(!res.body.includes(link.id), 'the page never shows the link’s id');
      const english = await open(pathOf(link), { 'accept-language': 'en-US,en;q=0.9' });
      assert.match(english.body, /<html lang="en">/);
      assert.match(english.body, /Guess from my number/);
    });

    it('without JavaScript: the form creates a hosted payment carrying the link, paid with the predicted operator, and hands over to the checkout page', async () => {
      const link = await newLink({ return_url: 'https://shop.example/merci', metadata: { product: 'wax' } });
      const res = await submit(link, { phone: '01 97 00 00 00', operator: '', lang: 'fr' });
      assert.equal(res.statusCode, 303, res.body);
      assert.match(String(res.headers.location), /^\/checkout\/[A-Za-z0-9_-]{43}\?lang=fr$/);
      const [payment, ...others] = await paymentsOf(link);
      assert.equal(others.length, 0);
      assert.equal(payment!.payment_link, link.id);
      assert.equal(payment!.mode, 'hosted');
      assert.equal(payment!.amount, 5000);
      assert.equal(payment!.operator, 'mtn_bj', 'predicted from the number');
      assert.equal(payment!.status, 'completed', 'the sandbox completes it');
      assert.equal(payment!.description, 'Pagne wax <6 yards>');
      assert.equal(payment!.return_url, 'https://shop.example/merci');
      assert.deepEqual(payment!.metadata, { product: 'wax' });
      assert.equal(new URL(payment!.checkout_url).pathname, String(res.headers.location).split('?')[0]);
      assert.deepEqual(await eventsOf(t.services.database, payment!.id), [
        'collect.payment.created:awaiting_payment',
        'collect.payment.processing:processing',
        'collect.payment.completed:completed',
      ]);
      const checkoutPage = await open(String(res.headers.location));
      assert.match(checkoutPage.body, /Paiement réussi/);
      const read = (await api('GET', `/payment-links/${link.id}`)).json();
      assert.equal(read.completed_payments, 1);
      assert.equal(read.status, 'active', 'reusable');
      const direct = (await api('GET', `/collect/payments/${payment!.id}`)).json();
      assert.equal(direct.payment_link, link.id);
    });

    it('a sandbox payment through a link reaches the merchant’s webhook endpoint (payment_link.created, then the collect events carrying the link)', async () => {
      const receiver = await startWebhookReceiver();
      try {
        const owner = await t.newMerchant({ name: 'Hooked' });
        const call = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: `Bearer ${owner.testKey}` }, payload });
        const endpoint = await call('/webhook-endpoints', { url: `${receiver.origin}/hooks`, events: ['payment_link.*', 'collect.payment.*'] });
        assert.equal(endpoint.statusCode, 201, endpoint.body);
        const created = await call('/payment-links', { amount_minor: 300000, country: 'BJ', description: 'Atelier' });
        assert.equal(created.statusCode, 201, created.body);
        const link = created.json() as Wire;
        const paid = await submit(link, { phone: '0197000000', operator: '' });
        assert.equal(paid.statusCode, 303, paid.body);
        const job = new WebhookDeliveryJob(
          {
            store: t.services.webhookStore,
            webhooks: t.services.webhooks,
            senderFor: webhookSenders({ dev: true }),
            clock,
            newId,
            publicUrl: 'http://localhost:8080',
            render: renderDelivery,
          },
          { timeoutMs: 2_000, random: () => 0.5 },
        );
        while ((await t.services.webhooks.fanOut()) > 0);
        while ((await job.runOnce()) > 0) await job.drain();
        await job.drain();
        const envelopes = receiver.requests.filter((request) => request.url === '/hooks').map((request) => JSON.parse(request.body) as Wire);
        const types = envelopes.map((envelope) => envelope.type).sort();
        assert.deepEqual(types, ['collect.payment.completed', 'collect.payment.created', 'collect.payment.processing', 'payment_link.created'].sort());
        const linkEvent = envelopes.find((envelope) => envelope.type === 'payment_link.created')!;
        assert.equal(linkEvent.data.object.id, link.id);
        assert.equal(linkEvent.data.object.url, `http://localhost:8080${pathOf(link)}`);
        const completed = envelopes.find((envelope) => envelope.type === 'collect.payment.completed')!;
        assert.equal(completed.data.object.payment_link, link.id);
        assert.equal(completed.data.object.status, 'completed');
        const listed = await t.app.inject({ url: `/api/v1/collect/payments?payment_link=${link.id}`, headers: { authorization: `Bearer ${owner.testKey}` } });
        assert.deepEqual(
          listed.json().data.map((p: Wire) => p.id),
          [completed.data.object.id],
        );
      } finally {
        await receiver.close();
      }
    });

    it('a single-use link takes one payment: then its page says it was paid and its form creates nothing', async () => {
      const link = await newLink({ reusable: false });
      const csrf = csrfOf((await open(pathOf(link))).body);
      const first = await post(pathOf(link), { csrf, phone: '0197000000', operator: 'mtn_bj' });
      assert.equal(first.statusCode, 303, first.body);
      assert.equal((await paymentsOf(link)).length, 1);
      const page = await open(pathOf(link));
      assert.equal(page.statusCode, 410);
      assert.match(page.body, /déjà été payé/);
      assert.ok(!page.body.includes('<form'));
      // A second customer's form, loaded before the first paid.
      const again = await post(pathOf(link), { csrf, phone: '0197000000', operator: 'mtn_bj' });
      assert.equal(again.statusCode, 410);
      assert.match(again.body, /déjà été payé/);
      assert.equal((await paymentsOf(link)).length, 1);
      assert.equal((await api('GET', `/payment-links/${link.id}`)).json().status, 'completed');
    });

    it('a deactivated or expired link says why and creates nothing, even from a form loaded before', async () => {
      const deactivated = await newLink();
      const expiring = await newLink({ expires_at: new Date(clock.now().getTime() + 60_000).toISOString() });
      const forms = await Promise.all([deactivated, expiring].map(async (link) => csrfOf((await open(pathOf(link))).body)));
      await api('POST', `/payment-links/${deactivated.id}/deactivate`);
      clock.advance(61_000);
      for (const [link, csrf, why] of [
        [deactivated, forms[0]!, /désactivé ce lien/],
        [expiring, forms[1]!, /a expiré/],
      ] as const) {
        const page = await open(pathOf(link));
        assert.equal(page.statusCode, 410);
        assert.match(page.body, why);
        const res = await post(pathOf(link), { csrf, phone: '0197000000', operator: 'mtn_bj' });
        assert.equal(res.statusCode, 410);
        assert.match(res.body, why);
        assert.equal((await paymentsOf(link)).length, 0);
      }
    });

    it('an open amount: the field within bounds; out of bounds refused (422) and nothing created; within, the payment has that amount', async () => {
      const link = await newLink({ amount_minor: undefined, min_amount_minor: 100000, max_amount_minor: 2000000 });
      const page = await open(pathOf(link));
      assert.match(page.body, /name="amount"[^>]*min="1000" max="20000"/);
      for (const amount of ['999', '20001', '12.5', 'abc', '']) {
        const res = await submit(link, { amount, phone: '0197000000', operator: 'mtn_bj' });
        assert.equal(res.statusCode, 422, amount);
        assert.match(spaces(res.body), /entre 1 000 FCFA et 20 000 FCFA/);
      }
      assert.equal((await paymentsOf(link)).length, 0);
      const ok = await submit(link, { amount: '2 500', phone: '0197000000', operator: 'mtn_bj' });
      assert.equal(ok.statusCode, 303, ok.body);
      assert.equal((await paymentsOf(link))[0]!.amount, 2500);
    });

    it('several countries: the customer chooses one; a wrong number for it is refused with the country’s format', async () => {
      const link = await newLink({ country: undefined, countries: ['BJ', 'TG'] });
      const page = await open(pathOf(link));
      assert.match(page.body, /<select id="country" name="country"/);
      const none = await submit(link, { phone: '90000000', operator: '' });
      assert.equal(none.statusCode, 422);
      const wrong = await submit(link, { country: 'BJ', phone: '90000000', operator: '' });
      assert.equal(wrong.statusCode, 422);
      assert.match(spaces(wrong.body), /10 chiffres/);
      const ok = await submit(link, { country: 'TG', phone: '90 00 00 00', operator: '' });
      assert.equal(ok.statusCode, 303, ok.body);
      const [payment] = await paymentsOf(link);
      assert.equal(payment!.country, 'TG');
      assert.equal(payment!.payment_link, link.id);
    });

    it('refuses a form without the page’s token (403) and answers 404 for an unknown slug or the link’s id', async () => {
      const link = await newLink();
      const forged = await post(pathOf(link), { phone: '0197000000', operator: 'mtn_bj' });
      assert.equal(forged.statusCode, 403);
      const crossSite = await post(pathOf(link), { csrf: csrfOf((await open(pathOf(link))).body), phone: '0197000000', operator: 'mtn_bj' }, { 'sec-fetch-site': 'cross-site' });
      assert.equal(crossSite.statusCode, 403);
      assert.equal((await paymentsOf(link)).length, 0);
      for (const path of [`/pay/${link.id}`, `${pathOf(link)}x`, '/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
        const res = await open(path);
        assert.equal(res.statusCode, 404, path);
        assert.match(res.body, /Ce lien de paiement n’existe pas/);
      }
    });
  });
}
