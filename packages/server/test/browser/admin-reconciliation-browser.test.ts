/**
 * The back office's reconciliation page in Chromium (SQLite; the API's suites cover PostgreSQL):
 * a platform administrator imports a pawaPay statement, sees the run's summary, downloads its
 * report, and a file that is no statement lists its problems with nothing recorded. axe-core on
 * each state; screenshots at 360 px and 1280 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkip, checkPage, openTab, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { type TestApp } from '../support/test-app.js';

const statement = readFileSync(new URL('../fixtures/pawapay/statement-2026-11-26.csv', import.meta.url));

describe('the reconciliation page in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('reconciliation-browser'));
  });
  after(async () => {
    await stopDashboardServer({ t, browser, dataDir });
  });

  it('an administrator imports a statement, reads the run and downloads its report; a bad file lists its problems', async () => {
    const tab = await openTab(browser, base, { width: 1280 });
    const page = tab.page;
    const { email } = await signUpInBrowser(page, base, dataDir, 'Plateforme');
    assert.equal(await t.services.platformAdmins.grant(email, 'cli'), true);
    await page.goto(`${base}/admin`);
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Rapprochement' }).click();
    await page.getByRole('heading', { name: 'Rapprochement', level: 1 }).waitFor();
    await page.getByText('Aucun rapprochement pour l’instant.').waitFor();
    await checkPage(page, 'admin-reconciliation-empty');

    await page.getByLabel('Prestataire').selectOption('pawapay');
    await page.getByLabel('Fichier CSV du relevé').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: statement });
    await page.getByRole('button', { name: 'Importer' }).click();
    // None of the statement's three movements is ours (an empty database): three missing at Akwe.
    await page.getByText('Relevé importé : 0 lignes rapprochées, 3 écarts.').waitFor();
    const row = page.getByRole('row', { name: /pawapay/ });
    await row.waitFor();
    assert.equal(await row.getByRole('cell').nth(4).textContent(), '3');
    await checkPage(page, 'admin-reconciliation-run');

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /Télécharger le rapport CSV/ }).click()]);
    assert.equal(download.suggestedFilename(), 'akwe-reconciliation-pawapay-2026-11-26-2026-11-26.csv');
    const report = readFileSync((await download.path())!, 'utf8');
    assert.match(report, /^\ufeffrun;/, 'French: the semicolon variant');
    assert.match(report, /\r\nmissing_at_akwe;3\r\n/);

    // The run's page: its mismatched lines, both sides.
    await row.getByRole('link', { name: /Voir les écarts/ }).click();
    await page.getByRole('heading', { name: 'Rapprochement pawapay du 2026-11-26', level: 1 }).waitFor();
    await page.getByText('3 lignes dans le relevé ; 0 rapprochées, 3 écarts.').waitFor();
    assert.equal(await page.getByRole('cell', { name: 'Absentes chez Akwe' }).count(), 3);
    // The refund line has no provider reference: the id it claims is ours names it.
    await page.getByRole('cell', { name: /0193c5d2-0000-7000-8000-000000000003/ }).waitFor();
    await checkPage(page, 'admin-reconciliation-run-lines');

    // The run's discrepancies are on the operators page, with their kind.
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Opérateurs' }).click();
    await page.getByRole('heading', { name: 'Écarts non résolus', level: 2 }).waitFor();
    await page.getByRole('cell', { name: 'Absent chez Akwe' }).first().waitFor();
    assert.equal(await page.getByRole('cell', { name: 'Absent chez Akwe' }).count(), 3);
    await checkPage(page, 'admin-operators-reconciliation');
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Rapprochement' }).click();
    await page.getByRole('heading', { name: 'Rapprochement', level: 1 }).waitFor();

    await page.getByLabel('Prestataire').selectOption('pawapay');
    await page
      .getByLabel('Fichier CSV du relevé')
      .setInputFiles({ name: 'autre.csv', mimeType: 'text/csv', buffer: Buffer.from('Creation Date,Transaction ID,Amount,Currency,Type\n2026-11-26,x,dix,XOF,DEPOSIT\n') });
    await page.getByRole('button', { name: 'Importer' }).click();
    await page.getByText(/Le fichier autre\.csv n’a pas été importé/).waitFor();
    await checkPage(page, 'admin-reconciliation-problems');
    assert.equal((await t.services.reconciliation.listRuns({ limit: 10 })).data.length, 1, 'nothing recorded from the bad file');
    assert.deepEqual(tab.problems, []);
  });
});
