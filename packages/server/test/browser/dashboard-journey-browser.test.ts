/**
 * Issue #27's "done when", in one story in Chromium and without the CLI on the merchant's side: a
 * new merchant signs up, gets a test key in the page and uses it, receives a webhook at an endpoint
 * added in the page, uploads and submits a batch, submits its KYC; a platform administrator approves
 * it in /admin; the merchant switches to live, creates a live key that works, invites a colleague
 * who joins from the emailed link, and that second user approves a live batch above the merchant's
 * threshold, which then executes. (Two things come from outside the pages: the administrator's role,
 * granted the way `akwe admins grant` does, and the live balance, which live collections would have
 * made.) SQLite; the API suites cover PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { verifySignature } from '../../src/core/webhooks/webhook-signature.js';
import { collectClient, direct } from '../support/collect-client.js';
import { mailedToken, PASSWORD, uniqueEmail } from '../support/dashboard.js';
import {
  browserSkip,
  checkPage,
  openTab,
  signInInBrowser,
  signUpInBrowser,
  startDashboardServer,
  stopDashboardServer,
  deliverAllWebhooks,
  runBatchesUntilFinal,
} from '../support/dashboard-browser.js';
import { jpegFile, pdfFile, pngFile } from '../support/kyc-files.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe('a new merchant from sign-up to an approved live batch, in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;
  let receiver: WebhookReceiver;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('journey-browser', { liveSandbox: true }));
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver?.close();
    await stopDashboardServer({ t, browser, dataDir });
  });

  const deliverAll = () => deliverAllWebhooks(t, base);

  const runBatches = (merchantId: string, environment: 'test' | 'live') => runBatchesUntilFinal(t, merchantId, environment);

  const run = Date.now();
  const csv = (prefix: string, amounts: number[]) =>
    [
      'beneficiary_name;phone;amount;currency;reference;country;operator;description',
      ...amounts.map((amount, i) => `Bénéficiaire ${i + 1};0197000000;${amount};XOF;${prefix}-${run}-${i + 1};BJ;mtn_bj;Salaire`),
    ].join('\r\n');

  async function uploadAndSubmit(page: Page, name: string, content: string, expected: RegExp) {
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Lots de décaissement' }).click();
    await page.getByRole('heading', { name: 'Lots de décaissement', level: 1 }).waitFor();
    await page.getByLabel('Fichier CSV').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
    await page.getByRole('heading', { name: /^Lot / }).waitFor();
    await page.getByRole('button', { name: 'Soumettre le lot' }).click();
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByText(expected).waitFor();
  }

  it('signs up, integrates in test, gets validated, goes live and has a live batch approved by a colleague', async () => {
    const owner = await openTab(browser, base);
    const a = owner.page;
    const merchantName = `Maison Ayélé ${run}`;
    await signUpInBrowser(a, base, dataDir, merchantName);
    const merchant = (await t.services.merchants.listMerchants()).find((m) => m.name === merchantName)!;
    const menu = a.getByRole('navigation', { name: 'Menu principal' });

    // A test key, made in the page and used by the integration.
    await menu.getByRole('link', { name: 'Clés d’API' }).click();
    await a.getByRole('heading', { name: 'Clés d’API', level: 1 }).waitFor();
    await a.getByRole('button', { name: 'Créer une clé' }).click();
    await a.locator('[data-secret]').waitFor();
    const testKey = (await a.locator('[data-secret]').innerText()).trim();
    assert.match(testKey, /^ak_test_/);

    // A webhook endpoint, and the delivery of a payment the test key made.
    await menu.getByRole('link', { name: 'Webhooks' }).click();
    await a.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await a.getByLabel('URL').fill(`${receiver.origin}/journey`);
    await a.getByLabel('collect.payment.*').check();
    await a.getByRole('button', { name: 'Ajouter le point de terminaison' }).click();
    await a.locator('[data-secret]').waitFor();
    const signingSecret = (await a.locator('[data-secret]').innerText()).trim();
    const payment = await collectClient(t.app, testKey).create(direct({ reference: `J-${run}`, customer: { phone: '0197000000' } }));
    assert.equal(payment.statusCode, 201, payment.body);
    await deliverAll();
    const received = receiver.requests.filter((request) => request.url === '/journey');
    assert.ok(received.length >= 1, 'the endpoint received the payment’s events');
    for (const request of received) assert.equal(verifySignature(request.body, request.headers['x-service-signature'] as string, signingSecret).ok, true);
    await a.getByRole('link', { name: `${receiver.origin}/journey` }).click();
    await a.getByText('HTTP 200').first().waitFor();

    // A batch in test: no approval there, it executes.
    await uploadAndSubmit(a, 'essai.csv', csv('TEST', [600_000, 700_000]), /Lot soumis : les paiements partent\./);
    assert.deepEqual(await runBatches(merchant.id, 'test'), ['completed']);

    // KYC, then the administrator's review in /admin.
    await menu.getByRole('link', { name: 'Dossier KYC' }).click();
    await a.getByRole('heading', { name: 'Dossier KYC', level: 1 }).waitFor();
    await a.getByLabel('Raison sociale').fill(`${merchantName} SARL`);
    await a.getByLabel('Numéro RCCM (ou équivalent)').fill('RB/COT/26 B 101');
    await a.getByLabel('Pays').selectOption('BJ');
    await a.getByLabel('Adresse du siège').fill('Rue 12.145, Cotonou');
    await a.getByLabel('Nom du représentant légal').fill('Adjoa Mensah');
    await a.getByLabel('Registre du commerce (RCCM)').setInputFiles({ name: 'rccm.pdf', mimeType: 'application/pdf', buffer: pdfFile('rccm') });
    await a.getByLabel('Pièce d’identité du représentant').setInputFiles({ name: 'cni.png', mimeType: 'image/png', buffer: pngFile() });
    await a.getByLabel('Justificatif d’adresse').setInputFiles({ name: 'facture.jpg', mimeType: 'image/jpeg', buffer: jpegFile() });
    await a.getByRole('button', { name: 'Envoyer le dossier' }).click();
    await a.getByText('Dossier envoyé. Nous vous écrirons après la revue.').waitFor();

    const administrator = await openTab(browser, base, { width: 1280 });
    const { email: adminEmail } = await signUpInBrowser(administrator.page, base, dataDir, `Plateforme ${run}`);
    assert.equal(await t.services.platformAdmins.grant(adminEmail, 'cli'), true);
    await administrator.page.goto(`${base}/admin`);
    await administrator.page.getByRole('heading', { name: 'Revue KYC', level: 1 }).waitFor();
    await administrator.page.getByRole('link', { name: `Ouvrir le dossier de ${merchantName} SARL` }).click();
    await administrator.page.getByRole('button', { name: 'Valider le dossier' }).click();
    await administrator.page.getByRole('button', { name: 'Confirmer' }).click();
    await administrator.page.getByText('Décision enregistrée : Validé.').waitFor();

    // Live: a live key that works.
    await a.reload();
    await a.getByText('Dossier validé : vous pouvez passer en live et créer des clés live.').waitFor();
    await a.getByRole('button', { name: 'Production' }).click();
    await a.getByRole('button', { name: 'Production', pressed: true }).waitFor();
    await menu.getByRole('link', { name: 'Clés d’API' }).click();
    await a.getByRole('button', { name: 'Créer une clé' }).click();
    await a.locator('[data-secret]').waitFor();
    const liveKey = (await a.locator('[data-secret]').innerText()).trim();
    assert.match(liveKey, /^ak_live_/);
    const account = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${liveKey}` } });
    assert.equal(account.json().environment, 'live');

    // A colleague joins from the team page's invitation.
    const colleagueEmail = uniqueEmail('finance');
    await menu.getByRole('link', { name: 'Équipe' }).click();
    await a.getByRole('heading', { name: 'Équipe', level: 1 }).waitFor();
    await a.getByLabel('E-mail').fill(colleagueEmail);
    await a.getByLabel('Rôle', { exact: true }).selectOption('finance');
    await a.getByRole('button', { name: 'Inviter' }).click();
    await a.getByText(`Invitation envoyée à ${colleagueEmail}.`).waitFor();
    const colleague = await openTab(browser, base);
    const b = colleague.page;
    await b.goto(`${base}/dashboard/accept-invitation?token=${mailedToken(dataDir, colleagueEmail, 'accept-invitation')}`);
    await b.getByLabel('Votre nom').fill('Bintou Finance');
    await b.getByLabel('Mot de passe').fill(PASSWORD);
    await b.getByRole('button', { name: 'Accepter l’invitation' }).click();
    await b.getByText('Invitation acceptée. Connectez-vous pour continuer.').waitFor();
    await signInInBrowser(b, base, colleagueEmail);

    // The owner's threshold, then a live batch above it: it waits for the colleague.
    await seedLiveBalance(t.db.database, merchant.id, 50_000_000);
    await menu.getByRole('link', { name: 'Approbations' }).click();
    await a.getByRole('heading', { name: 'Approbations', level: 1 }).waitFor();
    await a.getByLabel('Seuil en FCFA').fill('10000');
    await a.getByRole('button', { name: 'Enregistrer le seuil' }).click();
    await a.getByText('Seuil enregistré.').waitFor();
    await uploadAndSubmit(a, 'paie.csv', csv('LIVE', [600_000, 800_000]), /Le lot attend l’approbation d’un autre membre/);
    assert.deepEqual(await runBatches(merchant.id, 'live'), ['draft'], 'nothing leaves before the approval');

    await b.getByRole('button', { name: 'Production' }).click();
    await b.getByRole('button', { name: 'Production', pressed: true }).waitFor();
    await b.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Approbations' }).click();
    await b.getByRole('button', { name: 'Approuver' }).click();
    await b.getByRole('button', { name: 'Confirmer' }).click();
    await b.getByText('Demande approuvée et exécutée.').waitFor();
    await checkPage(b, 'journey-approved');
    assert.deepEqual(await runBatches(merchant.id, 'live'), ['completed']);

    for (const tab of [owner, administrator, colleague]) assert.deepEqual(tab.problems, []);
  });
});
