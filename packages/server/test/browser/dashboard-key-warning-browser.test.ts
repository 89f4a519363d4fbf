/**
 * The API keys page in Chromium (SQLite; the API under it is tested on both databases): a key that
 * holds more than its creator's current role carries a visible warning naming what it holds beyond
 * it; a key within the role carries none. The page passes axe-core at 360 px and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { newId } from '../../src/core/shared/ids.js';
import { browserSkip, checkPage, openTab, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { type TestApp } from '../support/test-app.js';

describe('the API keys page warns of keys beyond their creator’s role, in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('dashboard-key-warning-browser'));
  });
  after(async () => {
    await stopDashboardServer({ t, browser, dataDir });
  });

  it('shows the warning on the key whose creator left, not on the owner’s own key', async () => {
    const { context, page, problems } = await openTab(browser, base);
    const name = `Boutique Clés ${newId().slice(-6)}`;
    await signUpInBrowser(page, base, dataDir, name);
    const merchant = (await t.services.merchants.listMerchants()).find((m) => m.name === name);
    assert.ok(merchant);
    // A key made in the session of someone who is no longer a member: every scope it holds is beyond.
    await t.services.merchants.createKey({ merchantId: merchant.id, environment: 'test', scopes: ['collect:read', 'collect:write'], createdByUserId: newId() });

    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Clés d’API' }).click();
    await page.getByRole('heading', { name: 'Clés d’API', level: 1 }).waitFor();
    const payoutWrite = page.getByRole('checkbox', { name: 'payout:write' });
    await payoutWrite.check();
    await page.getByRole('button', { name: 'Créer une clé' }).click();
    await page.locator('[data-secret]').waitFor();
    // The next key starts from nothing ticked.
    assert.equal(await page.locator('input[name="scope"]:checked').count(), 0);
    const warning = page.getByText(/Cette clé dépasse le rôle actuel de la personne qui l’a créée \(collect:read, collect:write\)/);
    await warning.waitFor();
    assert.equal(await warning.count(), 1, 'one warning: the owner’s new key is within the role');
    assert.ok(await warning.isVisible());
    await checkPage(page, 'developers-keys-beyond-role');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
