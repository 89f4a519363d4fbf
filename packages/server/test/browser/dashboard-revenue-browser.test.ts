/**
 * The back office's revenue page in Chromium (SQLite; the API's suite covers PostgreSQL): live fees
 * of two merchants, the totals and the rows per day then per route, the CSV for a French Excel, in
 * French then English; axe-core finds nothing serious; screenshots at 360 px and 1280 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { feeFor } from '../../src/core/ledger/ledger.js';
import { collectClient, direct } from '../support/collect-client.js';
import { browserSkip, checkPage, openTab, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { type TestApp } from '../support/test-app.js';

const collectFee = (amountMinor: number) => feeFor(loadDefaultCatalog().findOperator('BJ', 'mtn_bj')!.collect.fee, amountMinor);

describe('the revenue page in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('revenue-browser', { liveSandbox: true }));
    for (const name of ['Boutique Adjoa', 'Maquis Akwaba']) {
      const { liveKey } = await t.newMerchant({ name });
      await collectClient(t.app, liveKey).createOk(direct({ amount: 3000 }));
    }
  });
  after(async () => {
    await stopDashboardServer({ t, browser, dataDir });
  });

  it('shows an administrator the fees per day and per route, and downloads them for Excel', async () => {
    const tab = await openTab(browser, base, { width: 1280 });
    const page = tab.page;
    const { email } = await signUpInBrowser(page, base, dataDir, 'Plateforme');
    assert.equal(await t.services.platformAdmins.grant(email, 'cli'), true);
    await page.goto(`${base}/admin`);
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Revenus' }).click();
    await page.getByRole('heading', { name: 'Revenus', level: 1 }).waitFor();
    const totals = page.getByRole('table', { name: 'Totaux' });
    await totals.waitFor();
    const fees = (2 * collectFee(300_000)) / 100;
    assert.match(await totals.innerText(), new RegExp(`XOF[\\s\\S]*${fees}`));
    await checkPage(page, 'admin-revenue-by-day');

    await page.getByLabel('Regrouper par').selectOption('route');
    await page.getByRole('button', { name: 'Afficher' }).click();
    await page.getByRole('rowheader', { name: 'mtn_bj / sandbox' }).waitFor();
    assert.match(await page.getByRole('table', { name: 'Détail' }).innerText(), /Encaissement/);
    await checkPage(page, 'admin-revenue-by-route');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV pour Excel en français' }).click()]);
    assert.match(download.suggestedFilename(), /^akwe-revenue-live-route-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = readFileSync((await download.path())!, 'utf8');
    assert.ok(file.startsWith('\ufeffoperator;route;flow;currency;fees_minor;'), file.slice(0, 60));
    assert.match(file, new RegExp(`\\r\\nmtn_bj;sandbox;collection;XOF;${2 * collectFee(300_000)};600000;2;0;${2 * collectFee(300_000)};no\\r\\n`));
    await page.getByText(/Fichier akwe-revenue-live-route-.* téléchargé\./).waitFor();

    // The test environment had no fees: the page says so.
    await page.getByLabel('Environnement des données').selectOption('test');
    await page.getByRole('button', { name: 'Afficher' }).click();
    await page.getByText('Aucun frais sur cette période.').waitFor();

    assert.deepEqual(tab.problems, []);
    await tab.context.close();
  });

  it('switches to English', async () => {
    const tab = await openTab(browser, base);
    const page = tab.page;
    const { email } = await signUpInBrowser(page, base, dataDir, 'Platform');
    assert.equal(await t.services.platformAdmins.grant(email, 'cli'), true);
    await page.goto(`${base}/admin/revenue`);
    await page.getByRole('heading', { name: 'Revenus', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Langue' }).selectOption('en');
    await page.getByRole('heading', { name: 'Revenue', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Totals' }).waitFor();
    await checkPage(page, 'admin-revenue-english');
    assert.deepEqual(tab.problems, []);
    await tab.context.close();
  });
});
