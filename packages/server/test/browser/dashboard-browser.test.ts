/**
 * The merchant dashboard in Chromium (SQLite: the pages read the same API on both databases, whose
 * suites cover PostgreSQL). A new merchant signs up, verifies the address and signs in, sees the
 * home page, lists and opens payments, refunds one after a confirmation step, switches to live
 * (where the test payments do not show) and to English; every page passes axe-core and is
 * photographed at 360 px and 1280 px. No console error, no CSP violation, nothing loaded from
 * elsewhere. The page weight and time to first render are written to test-artifacts.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { collectClient, direct } from '../support/collect-client.js';
import { artifacts, browserSkip, checkPage, openTab, signInInBrowser, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { type TestApp } from '../support/test-app.js';

describe('merchant dashboard in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('dashboard-browser'));
  });
  after(async () => {
    await stopDashboardServer({ t, browser, dataDir });
  });

  /** The merchant the person signed up with, and a test key of it for the API side of the story. */
  async function merchantNamed(name: string) {
    const merchant = (await t.services.merchants.listMerchants()).find((m) => m.name === name);
    assert.ok(merchant, `merchant ${name} exists`);
    const key = await t.services.merchants.createKey({ merchantId: merchant.id, environment: 'test' });
    return { merchant, api: collectClient(t.app, key.secret) };
  }

  async function completedPayment(api: ReturnType<typeof collectClient>, reference: string, amount: number, phone = '0197000000') {
    const created = await api.create(direct({ reference, amount, customer: { phone } }));
    assert.equal(created.statusCode, 201, created.body);
    for (let i = 0; i < 50 && (await api.get(reference)).json().status !== 'completed'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await api.get(reference)).json().status, 'completed');
  }

  it('signs up, sees the home page, lists, opens and refunds a payment, switches to live and to English', async () => {
    const { context, page, problems } = await openTab(browser, base);
    await page.goto(`${base}/dashboard`);
    await page.waitForURL(/\/dashboard\/sign-in\?next=%2Fdashboard/);
    await checkPage(page, 'sign-in');
    await signUpInBrowser(page, base, dataDir, 'Boutique Adjoa');
    const { api } = await merchantNamed('Boutique Adjoa');
    await completedPayment(api, 'CMD-1001', 15000);
    await completedPayment(api, 'CMD-1002', 2500, '0197001000');

    await page.reload();
    await page.getByRole('heading', { name: 'Accueil', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'CMD-1002' }).waitFor();
    assert.match((await page.locator('.stat-value').allInnerTexts()).join(' ').replace(/[\s\u202f\u00a0]+/g, ' '), /17 500 F\s?CFA/);
    assert.ok((await page.locator('.chart svg rect').count()) >= 30, 'one bar a day');
    await checkPage(page, 'home');

    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Paiements' }).click();
    await page.getByRole('heading', { name: 'Paiements', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'CMD-1001' }).waitFor();
    await checkPage(page, 'payments');
    await page.getByLabel('Téléphone').fill('+229 01 97 00 10 00');
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.waitForURL(/phone=/);
    await page.getByRole('link', { name: 'CMD-1002' }).waitFor();
    await page.getByRole('link', { name: 'CMD-1001' }).waitFor({ state: 'detached' });
    await page.getByLabel('Téléphone').fill('');
    await page.getByLabel('Référence').fill('CMD-1001');
    await page.getByRole('button', { name: 'Filtrer' }).click();
    await page.waitForURL(/reference=CMD-1001/);
    await page.getByRole('link', { name: 'CMD-1002' }).waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'CMD-1001' }).click();
    await page.getByRole('heading', { name: 'Paiement CMD-1001' }).waitFor();
    await page.getByText('collect.payment.completed').first().waitFor();
    await page.locator('li', { hasText: 'collect.payment.completed' }).getByText('Livraisons').click();
    await page.getByText('Envoyé à aucun point de terminaison.').waitFor();
    await page.getByLabel('Montant à rembourser').fill('5000');
    await page.getByRole('button', { name: 'Rembourser' }).click();
    await page.getByText(/Rembourser 5\s000\sF\s?CFA au client/).waitFor();
    await checkPage(page, 'payment-refund-confirmation');
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByText('Remboursement demandé.').waitFor();
    const refunds = await api.get('CMD-1001');
    assert.equal(refunds.json().refunded_amount, 5000, 'the refund reached the API');

    await page.getByRole('button', { name: 'Production' }).click();
    await page.getByRole('button', { name: 'Production', pressed: true }).waitFor();
    await page.getByRole('alert').getByText('not_found').waitFor();
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Paiements' }).click();
    await page.getByText('Rien à afficher pour le moment.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'CMD-1001' }).count(), 0, 'test payments never show in live');
    await checkPage(page, 'payments-live-empty');

    await page.getByLabel('Langue').selectOption('en');
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Test' }).click();
    await page.getByRole('link', { name: 'CMD-1001' }).waitFor();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Balances' }).click();
    await page.getByRole('heading', { name: 'Balances', level: 1 }).waitFor();
    await page.getByText('collection').first().waitFor();
    await checkPage(page, 'balances');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Refunds' }).click();
    await page.getByRole('link', { name: 'CMD-1001' }).waitFor();
    for (const [link, heading, shot] of [
      ['Refunds', 'Refunds', 'refunds'],
      ['Payouts', 'Payouts', 'payouts'],
      ['Settlements', 'Settlements', 'settlements'],
      ['Transfers', 'Transfers', 'transfers'],
      ['Team', 'Team', 'team'],
      ['Security', 'Security', 'security'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await checkPage(page, shot);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('keeps the session across a reload, refuses a viewer the refund button, and signs out', async () => {
    const { context, page, problems } = await openTab(browser, base, { width: 1280 });
    const { email } = await signUpInBrowser(page, base, dataDir, 'Atelier Koffi');
    await page.reload();
    await page.getByRole('heading', { name: 'Accueil', level: 1 }).waitFor();
    const { api } = await merchantNamed('Atelier Koffi');
    await completedPayment(api, 'AK-1', 4000);
    await page.goto(`${base}/dashboard/team`);
    await page.getByRole('heading', { name: 'Équipe', level: 1 }).waitFor();
    await page.getByRole('cell', { name: email }).waitFor();
    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await page.goto(`${base}/dashboard/payments`);
    await page.waitForURL(/\/dashboard\/sign-in/);
    await signInInBrowser(page, base, email);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('measures page weight and time to first render of the home page (figures in docs/dashboard.md)', async () => {
    const { context, page } = await openTab(browser, base);
    const { email } = await signUpInBrowser(page, base, dataDir, 'Mesure');
    const fresh = await context.browser()!.newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-FR' });
    const measured = await fresh.newPage();
    const bytes: Record<string, number> = {};
    measured.on('response', async (response) => {
      if (response.url().startsWith(base) && !response.url().includes('/api/')) bytes[new URL(response.url()).pathname] = (await response.body()).length;
    });
    await signInInBrowser(measured, base, email);
    const paint = await measured.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
    const shellBytes = Object.values(bytes).reduce((sum, size) => sum + size, 0);
    const figures = { uncompressed_bytes: bytes, total_uncompressed_bytes: shellBytes, first_contentful_paint_ms: paint };
    writeFileSync(`${artifacts}page-weight.json`, `${JSON.stringify(figures, null, 2)}\n`);
    assert.ok(Object.keys(bytes).some((path) => path.endsWith('.js')) && Object.keys(bytes).some((path) => path.endsWith('.css')), 'the shell, script and stylesheet were loaded');
    assert.ok(shellBytes < 150_000, `the dashboard's own files stay small (${shellBytes} bytes)`);
    await fresh.close();
    await context.close();
  });
});
