/**
 * The hosted checkout page over HTTP, on every database (docs/checkout.md): its token, what it
 * shows, its forms (pay, code), refusal once final or expired, its headers, the form token (CSRF),
 * the rate limits of its actions, the live environment, return_url, and the first load's weight.
 * The browser suite (checkout-browser.test.ts) drives the same page in Chromium.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectClient, eventsOf, hosted } from '../support/collect-client.js';
import { FakeClock } from '../support/fake-clock.js';
import { capturedLog } from '../support/captured-log.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const spaces = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');
const pathOf = (checkoutUrl: string) => new URL(checkoutUrl).pathname;
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? assert.fail('no form token on the page');

for (const target of testDatabases()) {
  describe(`checkout page on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let api: ReturnType<typeof collectClient>;
    let live: ReturnType<typeof collectClient>;
    const clock = new FakeClock(new Date());

    before(async () => {
      t = await buildTestApp(target, { clock });
      const merchant = await t.newMerchant({ name: 'Boutique Adjoa' });
      api = collectClient(t.app, merchant.testKey);
      live = collectClient(t.app, merchant.liveKey);
    });
    after(() => t.close());

    const open = (path: string, headers: Record<string, string> = {}) => t.app.inject({ url: path, headers });
    const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: form(fields) });
    /** Opens the page and sends its form with these fields (plus the page's own form token). */
    const submit = async (checkoutUrl: string, action: 'pay' | 'confirm', fields: Record<string, string>) => {
      const page = await open(pathOf(checkoutUrl));
      return post(`${pathOf(checkoutUrl)}/${action}`, { csrf: csrfOf(page.body), ...fields });
    };

    describe('the token in checkout_url', () => {
      it('is 32 random bytes in base64url, neither the payment id nor its reference', async () => {
        const a = await api.createOk(hosted());
        const b = await api.createOk(hosted());
        const token = pathOf(a.checkout_url).split('/').pop()!;
        assert.match(token, /^[A-Za-z0-9_-]{43}$/);
        assert.equal(Buffer.from(token, 'base64url').length, 32);
        assert.ok(!a.checkout_url.includes(a.id) && !a.checkout_url.includes(a.reference));
        assert.notEqual(a.checkout_url, b.checkout_url);
        assert.equal((await api.get(a.reference)).json().checkout_url, a.checkout_url, 'every read shows the same URL');
      });

      it('answers 404 (an HTML page) for an unknown, garbled, id or reference token', async () => {
        const payment = await api.createOk(hosted());
        const token = pathOf(payment.checkout_url).split('/').pop()!;
        const unknown = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
        for (const path of [
          `/checkout/${payment.id}`,
          `/checkout/${payment.reference}`,
          `/checkout/${unknown}`,
          '/checkout/%E2%9C%93',
          `/checkout/${token}x`,
          `/checkout/${token}/nothing-here`,
        ]) {
          const res = await open(path);
          assert.equal(res.statusCode, 404, path);
          assert.match(String(res.headers['content-type']), /^text\/html/);
          assert.match(res.body, /Ce lien de paiement n’existe pas/);
        }
        const status = await open(`/checkout/${payment.id}/status`);
        assert.equal(status.statusCode, 404);
        const pay = await post(`/checkout/${payment.id}/pay`, { operator: 'mtn_ci', phone: '0500000000' });
        assert.equal(pay.statusCode, 404);
      });
    });

    describe('what the page shows', () => {
      it('merchant, description, amount as written in West Africa, the country’s operators and which need a code, the phone format, in French', async () => {
        const payment = await api.createOk(hosted({ amount: 3000, country: 'CI', description: 'Abonnement <mensuel> & "plus"' }));
        const res = await open(pathOf(payment.checkout_url));
        assert.equal(res.statusCode, 200);
        const body = spaces(res.body);
        assert.match(body, /<html lang="fr">/);
        assert.match(body, /Boutique Adjoa/);
        assert.match(body, /Abonnement &#60;mensuel&#62; &#38; &#34;plus&#34;/, 'every value is escaped');
        assert.match(body, /3 000 FCFA/);
        assert.match(res.body, /3\u202f000\u00a0FCFA/, 'a narrow no-break space groups thousands, a no-break space holds the unit');
        for (const label of ['Orange Money', 'MTN', 'Moov', 'Wave']) assert.match(body, new RegExp(label));
        assert.match(body, /id="op-orange_ci"[^>]*><label for="op-orange_ci">[^<]+<small>\(code de paiement demandé\)/);
        assert.match(body, /<label for="phone">Numéro Mobile Money<\/label>/);
        assert.match(body, /10 chiffres, par exemple 07 00 00 00 00/);
        assert.match(body, /Mode test/);
        assert.match(body, /Payer 3 000 FCFA/);
      });

      it('never shows the merchant’s reference, the payment id, a key or another payment', async () => {
        const other = await api.createOk(hosted({ description: 'Someone else' }));
        const payment = await api.createOk(hosted({ metadata: { customer_email: 'secret@example.com' } }));
        const body = (await open(pathOf(payment.checkout_url))).body;
        for (const hidden of [payment.reference, payment.id, 'secret@example.com', 'ak_test_', 'ak_live_', other.reference, 'Someone else'])
          assert.ok(!body.includes(hidden), hidden);
      });

      it('speaks English to a browser that prefers it, and on the page’s switch', async () => {
        const payment = await api.createOk(hosted());
        const byHeader = await open(pathOf(payment.checkout_url), { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.8' });
        assert.match(byHeader.body, /<html lang="en">/);
        assert.match(byHeader.body, /Your Mobile Money operator/);
        const preferred = await open(pathOf(payment.checkout_url), { 'accept-language': 'de-DE, fr;q=0.5, en;q=0.4' });
        assert.match(preferred.body, /<html lang="fr">/);
        const bySwitch = await open(`${pathOf(payment.checkout_url)}?lang=en`, { 'accept-language': 'fr' });
        assert.match(bySwitch.body, /<html lang="en">/);
        assert.match(bySwitch.body, /href="\/checkout\/[^"?]+\?lang=fr"[^>]*>Français</);
      });
    });

    describe('paying through the page', () => {
      it('runs the sandbox pay path: 303 back to the page, which shows the payment paid, with the same events as the API', async () => {
        const payment = await api.createOk(hosted({ return_url: 'https://shop.example/merci?order=7' }));
        const res = await submit(payment.checkout_url, 'pay', { operator: 'mtn_ci', phone: '05 00 00 00 00', lang: 'fr' });
        assert.equal(res.statusCode, 303, res.body);
        assert.equal(res.headers.location, `${pathOf(payment.checkout_url)}?lang=fr`);
        const after = (await api.get(payment.reference)).json();
        assert.equal(after.status, 'completed');
        assert.equal(after.operator, 'mtn_ci');
        assert.deepEqual(await eventsOf(t.services.database, payment.id), [
          'collect.payment.created:awaiting_payment',
          'collect.payment.processing:processing',
          'collect.payment.completed:completed',
        ]);
        const page = await open(res.headers.location as string);
        assert.match(page.body, /Paiement réussi/);
        assert.match(page.body, /<a class="button" href="https:\/\/shop.example\/merci\?order=7" rel="noreferrer">Retour chez Boutique Adjoa<\/a>/);
        assert.ok(!page.body.includes('<form'), 'a paid checkout has no form');
      });

      it('a failure number (ending 0001) fails, and the page says so', async () => {
        const payment = await api.createOk(hosted());
        const res = await submit(payment.checkout_url, 'pay', { operator: 'mtn_ci', phone: '0500000001' });
        assert.equal(res.statusCode, 303);
        assert.equal((await api.get(payment.reference)).json().status, 'failed');
        assert.match((await open(pathOf(payment.checkout_url))).body, /Paiement échoué/);
      });

      it('refuses a phone number of the wrong format with a clear message and the form again (422), changing nothing', async () => {
        const payment = await api.createOk(hosted({ country: 'BJ' }));
        const res = await submit(payment.checkout_url, 'pay', { operator: 'mtn_bj', phone: '97000000' });
        assert.equal(res.statusCode, 422);
        assert.match(spaces(res.body), /n’est pas un numéro mobile valide au Bénin : 10 chiffres, par exemple 01 97 00 00 00/);
        assert.match(res.body, /id="phone"[^>]*value="97000000"[^>]*aria-invalid="true"/);
        assert.match(res.body, /id="op-mtn_bj" value="mtn_bj" required checked/);
        const noOperator = await submit(payment.checkout_url, 'pay', { phone: '0197000000' });
        assert.equal(noOperator.statusCode, 422);
        assert.match(noOperator.body, /Choisissez votre opérateur/);
        const otherCountry = await submit(payment.checkout_url, 'pay', { operator: 'mtn_ci', phone: '0197000000' });
        assert.equal(otherCountry.statusCode, 422);
        assert.equal((await api.get(payment.reference)).json().status, 'awaiting_payment');
      });

      it('an OTP operator goes through the code step: how to get the code, a wrong code counted, 123456 completes', async () => {
        const payment = await api.createOk(hosted());
        assert.equal((await submit(payment.checkout_url, 'pay', { operator: 'orange_ci', phone: '0700000000' })).statusCode, 303);
        const codePage = await open(pathOf(payment.checkout_url));
        assert.match(codePage.body, /Entrez votre code de paiement/);
        assert.match(codePage.body, /#144\*82#/);
        assert.match(codePage.body, /autocomplete="one-time-code"/);
        const wrong = await submit(payment.checkout_url, 'confirm', { otp: '999999' });
        assert.equal(wrong.statusCode, 422);
        assert.match(wrong.body, /Code incorrect. Il vous reste 2 essais./);
        const garbled = await submit(payment.checkout_url, 'confirm', { otp: '12' });
        assert.equal(garbled.statusCode, 422);
        const right = await submit(payment.checkout_url, 'confirm', { otp: '123 456' });
        assert.equal(right.statusCode, 303);
        assert.equal((await api.get(payment.reference)).json().status, 'completed');
      });

      it('the status endpoint gives the state and the page’s part for it, never cached', async () => {
        const payment = await api.createOk(hosted());
        const before = await open(`${pathOf(payment.checkout_url)}/status`);
        assert.equal(before.statusCode, 200);
        assert.equal(before.headers['cache-control'], 'no-store');
        assert.equal(before.json().state, 'choose');
        await submit(payment.checkout_url, 'pay', { operator: 'mtn_ci', phone: '0500000002' });
        const waiting = (await open(`${pathOf(payment.checkout_url)}/status?lang=en`)).json();
        assert.equal(waiting.state, 'waiting');
        assert.match(waiting.html, /Approve the payment on your phone/);
        assert.match(waiting.html, /•• •• 00 02/, 'the phone is shown masked');
        const page = await open(pathOf(payment.checkout_url));
        assert.match(page.body, /<noscript><meta http-equiv="refresh" content="5"><\/noscript>/);
      });
    });

    describe('refusal once final or expired', () => {
      it('takes no second payment once paid (409, the paid page), and nothing changes', async () => {
        const payment = await api.createOk(hosted());
        const page = await open(pathOf(payment.checkout_url));
        const csrf = csrfOf(page.body);
        assert.equal((await post(`${pathOf(payment.checkout_url)}/pay`, { csrf, operator: 'mtn_ci', phone: '0500000000' })).statusCode, 303);
        const again = await post(`${pathOf(payment.checkout_url)}/pay`, { csrf, operator: 'mtn_ci', phone: '0500000001' });
        assert.equal(again.statusCode, 409);
        assert.match(again.body, /Ce paiement ne peut plus être réglé/);
        assert.match(again.body, /Paiement réussi/);
        const code = await post(`${pathOf(payment.checkout_url)}/confirm`, { csrf, otp: '123456' });
        assert.equal(code.statusCode, 409);
        assert.equal((await api.get(payment.reference)).json().status, 'completed');
        assert.equal((await eventsOf(t.services.database, payment.id)).length, 3);
      });

      it('takes nothing once past its expiry, even before the expiry worker ran, and shows it expired', async () => {
        const payment = await api.createOk(hosted({ expires_in_seconds: 60 }));
        const page = await open(pathOf(payment.checkout_url));
        clock.advance(61_000);
        const res = await post(`${pathOf(payment.checkout_url)}/pay`, { csrf: csrfOf(page.body), operator: 'mtn_ci', phone: '0500000000' });
        assert.equal(res.statusCode, 409);
        assert.match(res.body, /Paiement expiré/);
        assert.equal((await api.get(payment.reference)).json().status, 'awaiting_payment');
        await t.services.payments.expireDue();
        assert.equal((await api.get(payment.reference)).json().status, 'expired');
        assert.match((await open(pathOf(payment.checkout_url))).body, /Paiement expiré/);
      });
    });

    describe('headers', () => {
      it('every answer has the CSP (no inline script or style, frame-ancestors none), nosniff, no-store and no referrer', async () => {
        const payment = await api.createOk(hosted());
        const path = pathOf(payment.checkout_url);
        const page = await open(path);
        const answers = [page, await open(`${path}/status`), await post(`${path}/pay`, { csrf: csrfOf(page.body), phone: '1' }), await open('/checkout/nope')];
        for (const res of answers) {
          const csp = String(res.headers['content-security-policy']);
          assert.match(csp, /^default-src 'none'/);
          assert.match(csp, /script-src 'self'/);
          assert.match(csp, /style-src 'self'/);
          assert.match(csp, /frame-ancestors 'none'/);
          assert.match(csp, /form-action 'self'/);
          assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
          assert.equal(res.headers['x-content-type-options'], 'nosniff');
          assert.equal(res.headers['x-frame-options'], 'DENY');
          assert.equal(res.headers['cache-control'], 'no-store');
          assert.equal(res.headers['referrer-policy'], 'no-referrer');
        }
        assert.ok(!/<script>|<script [^>]*>[^<]|style=|<style/.test(page.body), 'no inline script or style');
      });

      it('serves its stylesheet and script itself, content-hashed and cached for a year', async () => {
        const payment = await api.createOk(hosted());
        const page = (await open(pathOf(payment.checkout_url))).body;
        const css = /<link rel="stylesheet" href="(\/checkout\/assets\/checkout\.[0-9a-f]{12}\.css)">/.exec(page)?.[1];
        const js = /<script src="(\/checkout\/assets\/checkout\.[0-9a-f]{12}\.js)" defer><\/script>/.exec(page)?.[1];
        assert.ok(css && js, 'hashed asset URLs');
        for (const [url, type] of [
          [css, /^text\/css/],
          [js, /^text\/javascript/],
        ] as const) {
          const res = await open(url);
          assert.equal(res.statusCode, 200);
          assert.match(String(res.headers['content-type']), type);
          assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
          assert.equal(res.headers['x-content-type-options'], 'nosniff');
        }
        assert.equal((await open('/checkout/assets/checkout.000000000000.css')).statusCode, 404);
      });

      it('the first load (HTML, CSS and the script it references) transfers under 50 KB, all from this origin', async () => {
        const payment = await api.createOk(hosted({ description: 'Facture 2026-11 — électricité, quartier Cadjèhoun' }));
        const page = await open(pathOf(payment.checkout_url));
        const references = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!.replace(/&#38;/g, '&'));
        for (const url of references) assert.ok(url.startsWith('/') || url === 'data:,', `same origin only: ${url}`);
        const assets = references.filter((url) => url.startsWith('/checkout/assets/'));
        assert.equal(assets.length, 2);
        let bytes = page.rawPayload.length;
        for (const url of assets) bytes += (await open(url)).rawPayload.length;
        assert.ok(bytes < 50 * 1024, `first load is ${bytes} bytes`);
      });
    });

    describe('form token (CSRF)', () => {
      it('refuses a form without the page’s token, with another checkout’s token, or sent from another site (403), changing nothing', async () => {
        const payment = await api.createOk(hosted());
        const other = await api.createOk(hosted());
        const path = pathOf(payment.checkout_url);
        const csrf = csrfOf((await open(path)).body);
        const otherCsrf = csrfOf((await open(pathOf(other.checkout_url))).body);
        assert.notEqual(csrf, otherCsrf);
        const fields = { operator: 'mtn_ci', phone: '0500000000' };
        const refusals = [
          await post(`${path}/pay`, fields),
          await post(`${path}/pay`, { ...fields, csrf: otherCsrf }),
          await post(`${path}/pay`, { ...fields, csrf: `${csrf.slice(0, -2)}xx` }),
          await post(`${path}/pay`, { ...fields, csrf }, { 'sec-fetch-site': 'cross-site' }),
          await post(`${path}/pay`, { ...fields, csrf }, { origin: 'https://evil.example' }),
          await post(`${path}/confirm`, { otp: '123456' }),
        ];
        for (const res of refusals) {
          assert.equal(res.statusCode, 403, res.body);
          assert.match(res.body, /Cette page a expiré/);
        }
        assert.equal((await api.get(payment.reference)).json().status, 'awaiting_payment');
        const same = await post(`${path}/pay`, { ...fields, csrf }, { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' });
        assert.equal(same.statusCode, 303, 'the same origin (Host) passes');
      });
    });

    describe('live', () => {
      it('has no test banner, and with no live operator configured tells the customer clearly (503, no 500), nothing written', async () => {
        const payment = await live.createOk(hosted());
        const path = pathOf(payment.checkout_url);
        const page = await open(path);
        assert.equal(page.statusCode, 200);
        assert.ok(!page.body.includes('Mode test'));
        const res = await post(`${path}/pay`, { csrf: csrfOf(page.body), operator: 'mtn_ci', phone: '0500000000' });
        assert.equal(res.statusCode, 503);
        assert.match(res.body, /momentanément indisponible. Rien n’a été débité/);
        assert.match(res.body, /<form/, 'the form stays, to try again later');
        const after = (await live.get(payment.reference)).json();
        assert.equal(after.status, 'awaiting_payment');
        assert.equal(after.operator, null);
      });
    });

    describe('return_url on creation', () => {
      it('is shown in the payment, refused on a direct payment, and must be https in live', async () => {
        const payment = await api.createOk(hosted({ return_url: 'https://shop.example/done' }));
        assert.equal(payment.return_url, 'https://shop.example/done');
        assert.equal((await api.createOk(hosted())).return_url, null);
        const onDirect = await api.create({
          reference: `D-${Date.now()}`,
          amount: 3000,
          country: 'BJ',
          mode: 'direct',
          operator: 'mtn_bj',
          customer: { phone: '0197000000' },
          return_url: 'https://shop.example/done',
        });
        assert.equal(onDirect.statusCode, 400);
        assert.equal(onDirect.json().error.field, 'return_url');
        for (const bad of ['http://shop.example/done', 'https://user:pw@shop.example/', 'javascript:alert(1)']) {
          const res = await live.create(hosted({ return_url: bad }));
          assert.equal(res.statusCode, 400, bad);
          assert.equal(res.json().error.field, 'return_url');
        }
        assert.equal((await api.create(hosted({ return_url: 'http://localhost:3000/done' }))).statusCode, 201, 'http for test payments on a development server');
      });
    });
  });

  describe(`checkout request log on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const log = capturedLog();
    const logLines = log.lines;

    before(async () => {
      t = await buildTestApp(target, { logger: log.logger });
    });
    after(() => t.close());

    it('never writes a checkout token (it lets whoever holds it pay) in the request log', async () => {
      const api = collectClient(t.app, (await t.newMerchant()).testKey);
      const { checkout_url: url } = await api.createOk(hosted());
      const token = pathOf(url).split('/').at(-1)!;
      assert.equal((await t.app.inject({ url: pathOf(url) })).statusCode, 200);
      const requests = logLines.map((line) => JSON.parse(line)).filter((line) => line.req?.url?.startsWith('/checkout/'));
      assert.ok(requests.length > 0, 'the page view is logged');
      for (const line of requests) assert.equal(line.req.url, '/checkout/[redacted]');
      assert.ok(!logLines.join('').includes(token), 'the token appears in no log line');
    });
  });

  describe(`checkout rate limits on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let api: ReturnType<typeof collectClient>;
    const clock = new FakeClock(new Date());

    before(async () => {
      t = await buildTestApp(target, { clock, env: { RATE_LIMIT_CHECKOUT_PER_TOKEN: '3', RATE_LIMIT_CHECKOUT_PER_IP: '5' } });
      api = collectClient(t.app, (await t.newMerchant()).testKey);
    });
    after(() => t.close());

    const attempt = (checkoutUrl: string, from: Sender = {}) => attemptOn(t, checkoutUrl, from);

    it('limits actions per checkout token and per client address, with a 429 page and Retry-After', async () => {
      const a = await api.createOk(hosted());
      const b = await api.createOk(hosted());
      for (let i = 0; i < 3; i++) assert.equal((await attempt(a.checkout_url)).statusCode, 422);
      const overToken = await attempt(a.checkout_url);
      assert.equal(overToken.statusCode, 429);
      assert.match(String(overToken.headers['content-type']), /^text\/html/);
      assert.match(overToken.body, /Trop de tentatives. Réessayez dans \d+ secondes/);
      assert.ok(Number(overToken.headers['retry-after']) >= 1);
      assert.equal(overToken.headers['cache-control'], 'no-store');
      // The address has spent 4 of its 5: one more action on another checkout, then it is over too.
      assert.equal((await attempt(b.checkout_url)).statusCode, 422);
      assert.equal((await attempt(b.checkout_url)).statusCode, 429);
      // No proxy is trusted here: a forwarded address changes nothing.
      assert.equal((await attempt(b.checkout_url, { forwardedFor: '203.0.113.9' })).statusCode, 429);
      clock.advance(61_000);
      assert.equal((await attempt(a.checkout_url)).statusCode, 422, 'a new minute, a new budget');
    });
  });

  describe(`checkout rate limits behind a trusted proxy on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let api: ReturnType<typeof collectClient>;

    before(async () => {
      t = await buildTestApp(target, { env: { TRUST_PROXY: '10.0.0.0/8', RATE_LIMIT_CHECKOUT_PER_TOKEN: '100', RATE_LIMIT_CHECKOUT_PER_IP: '2' } });
      api = collectClient(t.app, (await t.newMerchant()).testKey);
    });
    after(() => t.close());

    it('counts each customer the proxy forwards on its own, and a direct client by its own address whatever it forwards', async () => {
      const { checkout_url: url } = await api.createOk(hosted());
      const proxy = '10.1.2.3';
      const first = { remoteAddress: proxy, forwardedFor: '203.0.113.1' };
      for (let i = 0; i < 2; i++) assert.equal((await attemptOn(t, url, first)).statusCode, 422);
      assert.equal((await attemptOn(t, url, first)).statusCode, 429);
      assert.equal((await attemptOn(t, url, { remoteAddress: proxy, forwardedFor: '203.0.113.2' })).statusCode, 422, 'another customer behind the same proxy');

      const direct = { remoteAddress: '198.51.100.7', forwardedFor: '203.0.113.3' };
      for (let i = 0; i < 2; i++) assert.equal((await attemptOn(t, url, direct)).statusCode, 422);
      assert.equal((await attemptOn(t, url, { ...direct, forwardedFor: '203.0.113.4' })).statusCode, 429, 'a client that is no proxy cannot choose its address');
    });
  });
}

/** Where a form post comes from: the connection's address, and what it says it forwards. */
interface Sender {
  remoteAddress?: string;
  forwardedFor?: string;
}

/** Opens the checkout page and posts its pay form with a phone the page refuses (422), from `from`. */
async function attemptOn(t: TestApp, checkoutUrl: string, from: Sender) {
  const path = pathOf(checkoutUrl);
  const forwarded = from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {};
  const remote = from.remoteAddress ? { remoteAddress: from.remoteAddress } : {};
  const page = await t.app.inject({ url: path, headers: forwarded, ...remote });
  return t.app.inject({
    method: 'POST',
    url: `${path}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...forwarded },
    ...remote,
    payload: form({ csrf: csrfOf(page.body), operator: 'mtn_ci', phone: '12' }),
  });
}
