/**
 * KYC in Chromium (SQLite; the API's suites cover PostgreSQL): a merchant fills the KYC form and
 * chooses its documents, a platform administrator opens the submission in /admin, downloads a
 * document and validates it, and the merchant then sees its KYC validated. The back office's
 * merchants and operators pages pass axe-core too; screenshots at 360 px and 1280 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkip, checkPage, openTab, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { jpegFile, pdfFile, pngFile } from '../support/kyc-files.js';
import { type TestApp } from '../support/test-app.js';

describe('KYC and its review in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('kyc-browser'));
  });
  after(async () => {
    await stopDashboardServer({ t, browser, dataDir });
  });

  it('a merchant submits its KYC, an administrator validates it, the merchant sees it validated', async () => {
    const merchantTab = await openTab(browser, base);
    const merchantPage = merchantTab.page;
    await signUpInBrowser(merchantPage, base, dataDir, 'Pâtisserie Akwaba');

    await merchantPage.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Dossier KYC' }).click();
    await merchantPage.getByRole('heading', { name: 'Dossier KYC', level: 1 }).waitFor();
    await merchantPage.getByText('Aucun dossier envoyé').waitFor();
    await checkPage(merchantPage, 'kyc-form');
    await merchantPage.getByLabel('Raison sociale').fill('Pâtisserie Akwaba SARL');
    await merchantPage.getByLabel('Numéro RCCM (ou équivalent)').fill('RB/COT/25 B 777');
    await merchantPage.getByLabel('Pays').selectOption('TG');
    await merchantPage.getByLabel('Adresse du siège').fill('12 rue du Commerce, Lomé');
    await merchantPage.getByLabel('Nom du représentant légal').fill('Adjoa Mensah');
    const certificate = pdfFile('rccm');
    await merchantPage.getByLabel('Registre du commerce (RCCM)').setInputFiles({ name: 'rccm.pdf', mimeType: 'application/pdf', buffer: certificate });
    await merchantPage.getByLabel('Pièce d’identité du représentant').setInputFiles({ name: 'cni.png', mimeType: 'image/png', buffer: pngFile() });
    await merchantPage.getByLabel('Justificatif d’adresse').setInputFiles({ name: 'facture.jpg', mimeType: 'image/jpeg', buffer: jpegFile() });
    await merchantPage.getByRole('button', { name: 'Envoyer le dossier' }).click();
    await merchantPage.getByText('Dossier envoyé. Nous vous écrirons après la revue.').waitFor();
    await merchantPage.getByText(/en cours de revue/).waitFor();
    await checkPage(merchantPage, 'kyc-submitted');

    // The administrator: a dashboard user granted the role as `akwe admins grant` does.
    const adminTab = await openTab(browser, base, { width: 1280 });
    const adminPage = adminTab.page;
    const { email } = await signUpInBrowser(adminPage, base, dataDir, 'Plateforme');
    assert.equal(await t.services.platformAdmins.grant(email, 'cli'), true);
    await adminPage.goto(`${base}/admin`);
    await adminPage.getByRole('heading', { name: 'Revue KYC', level: 1 }).waitFor();
    await checkPage(adminPage, 'admin-kyc-review');
    await adminPage.getByRole('link', { name: 'Ouvrir le dossier de Pâtisserie Akwaba SARL' }).click();
    await adminPage.getByRole('heading', { name: 'Dossier KYC de Pâtisserie Akwaba SARL', level: 1 }).waitFor();
    await checkPage(adminPage, 'admin-kyc-submission');

    const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('button', { name: 'Télécharger le registre du commerce' }).click()]);
    assert.match(download.suggestedFilename(), /^registration_certificate-[0-9a-f-]+\.pdf$/);
    assert.deepEqual(readFileSync((await download.path())!), certificate);

    await adminPage.getByRole('button', { name: 'Valider le dossier' }).click();
    await adminPage.getByRole('button', { name: 'Confirmer' }).click();
    await adminPage.getByText('Décision enregistrée : Validé.').waitFor();

    await adminPage.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Marchands' }).click();
    await adminPage.getByRole('heading', { name: 'Marchands', level: 1 }).waitFor();
    await checkPage(adminPage, 'admin-merchants');
    const row = adminPage.getByRole('row', { name: /Pâtisserie Akwaba/ });
    await row.getByLabel('Motif pour Pâtisserie Akwaba').fill('Contrôle de routine');
    await row.getByRole('button', { name: 'Suspendre' }).click();
    await row.getByText('Suspendu').waitFor();
    await row.getByLabel('Motif pour Pâtisserie Akwaba').fill('Contrôle terminé');
    await row.getByRole('button', { name: 'Réactiver' }).click();
    await row.getByRole('button', { name: 'Suspendre' }).waitFor();
    await adminPage.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Opérateurs' }).click();
    await adminPage.getByRole('heading', { name: 'Opérateurs et écarts', level: 1 }).waitFor();
    await checkPage(adminPage, 'admin-operators');

    await merchantPage.reload();
    await merchantPage.getByText('Dossier validé : vous pouvez passer en live et créer des clés live.').waitFor();
    const merchant = (await t.services.merchants.listMerchants()).find((m) => m.name === 'Pâtisserie Akwaba');
    assert.equal(merchant?.kycStatus, 'validated');

    // The merchant's menu shows no back office, and /admin is not found for them.
    assert.equal(await merchantPage.getByRole('link', { name: 'Revue KYC' }).count(), 0);
    await merchantPage.goto(`${base}/admin`);
    await merchantPage.getByRole('heading', { level: 1 }).waitFor();
    assert.notEqual(await merchantPage.getByRole('heading', { level: 1 }).innerText(), 'Revue KYC');

    assert.deepEqual(merchantTab.problems, []);
    assert.deepEqual(adminTab.problems, []);
    await merchantTab.context.close();
    await adminTab.context.close();
  });
});
