/**
 * A payment link's page in a real browser at 360 px (Debian's Chromium through playwright-core, as
 * the checkout page's browser suite): nothing loaded from elsewhere, no CSP violation, no sideways
 * scroll, and a customer going from the link to a paid checkout, with and without JavaScript.
 * SQLite only: the HTTP suite (test/integration/payment-link-page.test.ts) covers both databases.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(executablePath) ? false : `no Chromium at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`;
const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const sqlite = testDatabases().find((target) => target.name === 'sqlite')!;

describe('payment link page in Chromium (SQLite)', { skip: missing && !process.env.CI ? missing : false }, () => {
  let t: TestApp;
  let key: string;
  let browser: Browser;
  let base: string;
  const clock = new FakeClock(new Date());

  before(async () => {
    if (missing) throw new Error(`CI: ${missing}`);
    t = await buildTestApp(sqlite, { clock });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    key = (await t.newMerchant({ name: 'Boutique Adjoa' })).testKey;
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    mkdirSync(artifacts, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function phone(options: { javaScriptEnabled?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'fr-FR', ...options });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) problems.push(`request elsewhere: ${request.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return { context, page, problems };
  }
  const newLink = async (body: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment-links', headers: { authorization: `Bearer ${key}` }, payload: body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { id: string; url: string };
  };

  for (const javaScriptEnabled of [true, false]) {
    it(`an open-amount link is paid at 360 px ${javaScriptEnabled ? 'with' : 'without'} JavaScript, the operator guessed from the number`, async () => {
      const link = await newLink({ min_amount_minor: 100000, max_amount_minor: 2000000, country: 'BJ', description: 'Pagne wax' });
      const { context, page, problems } = await phone({ javaScriptEnabled });
      await page.goto(`${base}${new URL(link.url).pathname}`);
      assert.match(await page.locator('.description').innerText(), /Pagne wax/);
      const width = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
      assert.ok(width <= 360, `no sideways scroll (scrollWidth ${width})`);
      if (javaScriptEnabled) await page.screenshot({ path: `${artifacts}payment-link-360.png`, fullPage: true });
      await page.getByLabel('Montant à payer (FCFA)').fill('2500');
      await page.getByLabel('Numéro Mobile Money').fill('01 97 00 00 00');
      await page.getByRole('button', { name: 'Continuer vers le paiement' }).click();
      await page.getByRole('heading', { name: 'Paiement réussi' }).waitFor();
      assert.match(page.url(), /\/checkout\/[A-Za-z0-9_-]{43}\?lang=fr$/);
      const listed = await t.app.inject({ url: `/api/v1/collect/payments?payment_link=${link.id}`, headers: { authorization: `Bearer ${key}` } });
      const [payment] = listed.json().data;
      assert.equal(payment.amount, 2500);
      assert.equal(payment.operator, 'mtn_bj');
      assert.equal(payment.status, 'completed');
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
