/**
 * Bulk payouts and maker-checker in Chromium (SQLite; the API suites cover PostgreSQL). User A,
 * the owner, sets an approval threshold, switches to live, drops a CSV with bad lines (every one is
 * listed with its reason, nothing is stored), chooses the fixed file and submits the batch, which
 * waits: it is above the threshold. A cannot approve it; user B (finance) approves it in another
 * browser, the batch executes, and A's page follows its progress without a reload. Every page
 * passes axe-core and is photographed at 360 px and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { dashboardCall, mailedToken, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { browserSkip, checkPage, openTab, signInInBrowser, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { type TestApp } from '../support/test-app.js';

describe('bulk payouts and approvals in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('approvals-browser', { liveSandbox: true }));
  });
  after(async () => {
    await stopDashboardServer({ t, browser, dataDir });
  });

  const run = Date.now();
  const header = 'beneficiary_name;phone;amount;currency;reference;country;operator;description';
  const line = (n: number, phone = '0197000000', amount = 600_000) => `Bénéficiaire ${n};${phone};${amount};XOF;LOT-${run}-${n};BJ;mtn_bj;Salaire`;
  const badFile = [header, line(1), line(2, '12'), line(3, '0197000000', 5)].join('\r\n');
  const fixedFile = [header, line(1), line(2), line(3)].join('\r\n');

  /** Drops a file on the page's drop zone, as a person dragging it from their files. */
  async function dropFile(page: Page, name: string, content: string) {
    const transfer = await page.evaluateHandle(
      ([fileName, text]) => {
        // Runs in the page: the browser's DataTransfer (this file is typed without the DOM).
        const data = new (globalThis as unknown as { DataTransfer: new () => { items: { add(file: File): void } } }).DataTransfer();
        data.items.add(new File([text], fileName, { type: 'text/csv' }));
        return data;
      },
      [name, content] as const,
    );
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: transfer });
  }

  /** What the workers do, until the batch is final. */
  async function runBatch(batchId: string) {
    for (let pass = 0; pass < 100; pass++) {
      await t.services.bulk.followDue();
      await t.services.payouts.handOffDue();
      await t.services.payouts.checkDue();
      const { batch } = await t.services.bulk.get({ merchantId: (await merchantOf()).id, environment: 'live' }, batchId);
      if (batch.status !== 'processing') return batch.status;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return 'still processing';
  }

  let merchantName = '';
  const merchantOf = async () => (await t.services.merchants.listMerchants()).find((m) => m.name === merchantName)!;

  it('uploads a CSV with bad lines, fixes it, submits it in live as A, approved by B, executed', async () => {
    const a = await openTab(browser, base);
    merchantName = `Coopérative Awa ${run}`;
    const { email: ownerEmail } = await signUpInBrowser(a.page, base, dataDir, merchantName);
    const merchant = await merchantOf();
    await t.services.merchants.updateMerchant(merchant.id, { kycStatus: 'validated' });
    await seedLiveBalance(t.db.database, merchant.id, 50_000_000);
    // B joins as finance (the team page's invitation is covered by the dashboard suite).
    const call = dashboardCall(() => t);
    const financeEmail = uniqueEmail('finance');
    await call('POST', `/merchants/${merchant.id}/invitations`, await signIn(call, ownerEmail), { email: financeEmail, role: 'finance' });
    const accepted = await call('POST', '/auth/invitations/accept', undefined, {
      token: mailedToken(dataDir, financeEmail, 'accept-invitation'),
      name: 'Bintou Finance',
      password: PASSWORD,
    });
    assert.equal(accepted.statusCode, 200, accepted.body);

    // A sets the threshold: 10 000 FCFA.
    const menuA = a.page.getByRole('navigation', { name: 'Menu principal' });
    await menuA.getByRole('link', { name: 'Approbations' }).click();
    await a.page.getByRole('heading', { name: 'Approbations', level: 1 }).waitFor();
    await a.page.getByText('Aucun seuil').waitFor();
    await a.page.getByLabel('Seuil en FCFA').fill('10000');
    await a.page.getByRole('button', { name: 'Enregistrer le seuil' }).click();
    await a.page.getByText('Seuil enregistré.').waitFor();
    await a.page.getByText(/au-delà de 10\s000\sF\s?CFA/).waitFor();
    await checkPage(a.page, 'approvals-policy');

    // A, in live, drops a file with two bad lines: both are listed, nothing is stored.
    await a.page.getByRole('button', { name: 'Production' }).click();
    await a.page.getByRole('button', { name: 'Production', pressed: true }).waitFor();
    await menuA.getByRole('link', { name: 'Lots de décaissement' }).click();
    await a.page.getByRole('heading', { name: 'Lots de décaissement', level: 1 }).waitFor();
    await dropFile(a.page, 'paie.csv', badFile);
    await a.page
      .getByRole('alert')
      .getByText(/problème\(s\) dans paie\.csv/)
      .waitFor();
    const problems = await a.page.getByRole('table', { name: 'Lignes à corriger' }).locator('tbody tr').allInnerTexts();
    assert.ok(
      problems.some((row) => /^3\s/.test(row) && row.includes('invalid_phone')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((row) => /^4\s/.test(row) && row.includes('amount_too_low')),
      problems.join('\n'),
    );
    assert.ok(!problems.some((row) => /^2\s/.test(row)), 'the good line is not listed');
    assert.deepEqual((await t.services.bulk.list({ merchantId: merchant.id, environment: 'live' }, {}, { limit: 10 })).data, [], 'nothing stored');
    await checkPage(a.page, 'bulk-problems');

    // The fixed file, chosen with the file input: a draft batch of three lines.
    await a.page.getByLabel('Fichier CSV').setInputFiles({ name: 'paie-corrigee.csv', mimeType: 'text/csv', buffer: Buffer.from(fixedFile) });
    await a.page.waitForURL(/\/dashboard\/bulk\/[0-9a-f-]{36}$/);
    const batchId = a.page.url().split('/').at(-1)!;
    await a.page.getByRole('heading', { name: /^Lot / }).waitFor();
    await a.page.getByText('Brouillon').waitFor();
    await a.page.getByRole('cell', { name: `Bénéficiaire 3` }).waitFor();
    await checkPage(a.page, 'bulk-batch-draft');

    // Submitted: 18 000 FCFA is above the threshold, so it waits.
    await a.page.getByRole('button', { name: 'Soumettre le lot' }).click();
    await a.page.getByText(/Payer 3 ligne\(s\) pour 18\s000\sF\s?CFA/).waitFor();
    await a.page.getByRole('button', { name: 'Confirmer' }).click();
    await a.page.getByText('Le lot attend l’approbation d’un autre membre', { exact: false }).waitFor();
    assert.equal((await t.services.bulk.get({ merchantId: merchant.id, environment: 'live' }, batchId)).batch.status, 'draft');

    // A cannot approve their own request.
    await menuA.getByRole('link', { name: 'Approbations' }).click();
    await a.page.getByText('Votre demande : un autre membre doit l’approuver.').waitFor();
    assert.equal(await a.page.getByRole('button', { name: 'Approuver' }).count(), 0);

    // B approves it in their own browser.
    const b = await openTab(browser, base, { width: 1280 });
    await signInInBrowser(b.page, base, financeEmail);
    await b.page.getByRole('button', { name: 'Production' }).click();
    await b.page.getByRole('button', { name: 'Production', pressed: true }).waitFor();
    await b.page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Approbations' }).click();
    await b.page.getByRole('link', { name: 'Lot de paiements' }).waitFor();
    await b.page.getByRole('cell', { name: 'Adjoa Mensah' }).waitFor();
    await checkPage(b.page, 'approvals-pending');
    await b.page.getByRole('button', { name: 'Approuver' }).click();
    await b.page.getByText(/Approuver et exécuter maintenant : Lot de paiements, 18\s000\sF\s?CFA/).waitFor();
    await b.page.getByRole('button', { name: 'Confirmer' }).click();
    await b.page.getByText('Demande approuvée et exécutée.').waitFor();
    await b.page.getByText('Aucune demande.').waitFor();

    // A's batch page follows the execution by itself.
    await a.page.goto(`${base}/dashboard/bulk/${batchId}`);
    await a.page.getByText('0 ligne(s) traitée(s) sur 3', { exact: false }).waitFor();
    await checkPage(a.page, 'bulk-batch-processing');
    assert.equal(await runBatch(batchId), 'completed');
    await a.page.getByText('3 ligne(s) traitée(s) sur 3 : 3 payée(s), 0 en échec.').waitFor({ timeout: 10_000 });
    await a.page.getByRole('heading', { name: /^Lot / }).waitFor();
    await checkPage(a.page, 'bulk-batch-completed');

    // A single payout from the dashboard: above the threshold it waits, at or below it goes at once.
    await menuA.getByRole('link', { name: 'Approbations' }).click();
    await a.page.getByRole('link', { name: 'Nouveau décaissement' }).click();
    await a.page.getByRole('heading', { name: 'Nouveau décaissement', level: 1 }).waitFor();
    const sendPayout = async (reference: string, amountFcfa: string) => {
      await a.page.getByLabel('Référence').fill(reference);
      await a.page.getByLabel('Montant en FCFA').fill(amountFcfa);
      await a.page.getByLabel('Numéro du bénéficiaire').fill('0197000000');
      await a.page.getByRole('button', { name: 'Envoyer' }).click();
      await a.page.getByRole('button', { name: 'Confirmer' }).click();
    };
    await sendPayout(`SUP-${run}-1`, '20000');
    await a.page.getByText('Le décaissement attend l’approbation d’un autre membre de l’équipe.').waitFor();
    await checkPage(a.page, 'new-payout-pending');
    await sendPayout(`SUP-${run}-2`, '5000');
    await a.page.getByText('Décaissement créé.').waitFor();
    const livePayouts = await t.services.payouts.list({ merchantId: merchant.id, environment: 'live' }, {}, { limit: 10 });
    assert.deepEqual(
      livePayouts.data.filter((p) => p.reference.startsWith('SUP-')).map((p) => [p.reference, p.amountMinor]),
      [[`SUP-${run}-2`, 500_000]],
      'only the payout at or below the threshold went out',
    );

    assert.deepEqual(a.problems, []);
    assert.deepEqual(b.problems, []);
    await a.context.close();
    await b.context.close();
  });
});
