/**
 * The back office's Floats page in Chromium (SQLite; the storage and live suites cover PostgreSQL):
 * an administrator sees each live route's provider balance, its threshold, its state and what the
 * ledger expects, and the low-float banner on every page; axe-core clean, screenshots at 360 px and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { OperatorConnector, ProviderBalance } from '../../src/core/operators/operator-connector.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { browserSkip, checkPage, openTab, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { type TestApp } from '../support/test-app.js';

/** A route's connector that pays out and reads the balance the test sets. */
function floatConnector(family: string, balance: { current: ProviderBalance }): OperatorConnector {
  const call = () => Promise.reject(new Error('not called'));
  return { family, payouts: { sendPayout: call, queryPayout: call }, balance: { readBalance: async () => balance.current } } as unknown as OperatorConnector;
}

describe('the Floats page in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;
  const momo = { current: { amountMinor: 4_500_000, currency: 'XOF' } };
  const pawapay = { current: { amountMinor: 90_000_000, currency: 'XOF' } };

  before(async () => {
    const operators = new OperatorRegistry({
      live: new Map([
        [
          'MTN_BJ',
          [
            { name: 'mtn-momo', label: 'mtn_bj/mtn-momo', connector: floatConnector('mtn-momo', momo), lowFloatMinor: 50_000_000 },
            { name: 'pawapay', label: 'mtn_bj/pawapay', connector: floatConnector('pawapay', pawapay), lowFloatMinor: 20_000_000 },
          ],
        ],
      ]),
    });
    ({ t, base, browser, dataDir } = await startDashboardServer('floats-browser', { operators }));
  });
  after(async () => {
    await stopDashboardServer({ t, browser, dataDir });
  });

  it('shows each route’s float, threshold, state and ledger expectation (none recorded here), and the low-float banner', async () => {
    assert.equal(await t.services.floats.watch.readDue(), 2);
    const tab = await openTab(browser, base, { width: 1280 });
    const page = tab.page;
    const { email } = await signUpInBrowser(page, base, dataDir, 'Plateforme');
    assert.equal(await t.services.platformAdmins.grant(email, 'cli'), true);

    await page.goto(`${base}/admin/floats`);
    await page.getByRole('heading', { name: 'Floats des fournisseurs', level: 1 }).waitFor();
    const banner = page.getByRole('alert');
    await banner.getByText(/Float bas sur mtn_bj\/mtn-momo/).waitFor();
    const table = page.getByRole('table', { name: 'Floats des fournisseurs' });
    const momoRow = table.getByRole('row', { name: /mtn_bj\/mtn-momo/ });
    await momoRow.getByText('Float bas').waitFor();
    assert.match((await momoRow.textContent()) ?? '', /45\s000\s*F\s*CFA/);
    assert.match((await momoRow.textContent()) ?? '', /500\s000\s*F\s*CFA/);
    await table
      .getByRole('row', { name: /mtn_bj\/pawapay/ })
      .getByText('Au-dessus du seuil')
      .waitFor();
    await checkPage(page, 'admin-floats');

    // The banner is on every back-office page, and links to the Floats page.
    await page.goto(`${base}/admin/operators`);
    await page.getByRole('alert').getByRole('link', { name: 'Voir les floats' }).click();
    await page.getByRole('heading', { name: 'Floats des fournisseurs', level: 1 }).waitFor();

    // In English too, once the float is back above its threshold: no banner.
    momo.current = { amountMinor: 80_000_000, currency: 'XOF' };
    await t.services.database.db.updateTable('route_floats').set({ next_read_at: '2000-01-01T00:00:00.000Z' }).execute();
    assert.equal(await t.services.floats.watch.readDue(), 2);
    await page.getByLabel('Langue').selectOption('en');
    await page.reload();
    await page.getByRole('heading', { name: 'Provider floats', level: 1 }).waitFor();
    await page
      .getByRole('table', { name: 'Provider floats' })
      .getByRole('row', { name: /mtn_bj\/mtn-momo/ })
      .getByText('Above threshold')
      .waitFor();
    assert.equal(await page.getByRole('alert').count(), 0, 'no banner once no float is low');
    await checkPage(page, 'admin-floats-en');
    assert.deepEqual(tab.problems, []);
  });
});
