/**
 * The developers pages, the audit log and the exports in Chromium (SQLite; the API under them is
 * tested on both databases): a new merchant creates a test key in the page and uses it against the
 * API, sees its "last used", revokes it after a confirmation; adds an endpoint pointing at a real
 * local receiver, sends a test event and sees the delivery (and the request); downloads an export;
 * reads the audit log. Every page passes axe-core and is photographed at 360 px and 1280 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { verifySignature } from '../../src/core/webhooks/webhook-signature.js';
import { collectClient, direct } from '../support/collect-client.js';
import { browserSkip, checkPage, openTab, signUpInBrowser, startDashboardServer, stopDashboardServer, deliverAllWebhooks } from '../support/dashboard-browser.js';
import { type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe('dashboard developers pages in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;
  let receiver: WebhookReceiver;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('dashboard-dev-browser'));
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver?.close();
    await stopDashboardServer({ t, browser, dataDir });
  });

  const deliverAll = () => deliverAllWebhooks(t, base);

  it('creates a test key and uses it, revokes it; adds an endpoint, sends a test event and sees its delivery; downloads an export; reads the audit log', async () => {
    const { context, page, problems } = await openTab(browser, base);
    await signUpInBrowser(page, base, dataDir, 'Boutique Dev');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });

    // API keys: create, shown once, used against the API.
    await menu.getByRole('link', { name: 'Clés d’API' }).click();
    await page.getByRole('heading', { name: 'Clés d’API', level: 1 }).waitFor();
    await checkPage(page, 'developers-keys-empty');
    await page.getByRole('button', { name: 'Créer une clé' }).click();
    const secretCell = page.locator('[data-secret]');
    await secretCell.waitFor();
    const secret = (await secretCell.innerText()).trim();
    assert.match(secret, /^ak_test_[A-Za-z0-9_-]{43}$/);
    await page.getByText('elle ne sera plus jamais affichée').waitFor();
    await page.getByRole('button', { name: 'Copier' }).click();
    await checkPage(page, 'developers-key-created');
    const payment = await collectClient(t.app, secret).create(direct({ reference: 'DEV-1' }));
    assert.equal(payment.statusCode, 201, payment.body);
    // Its events go out now, before any endpoint exists: the endpoint below gets the test event only.
    await deliverAll();

    // The use is recorded after the answer: the list shows it once written.
    await page.reload();
    await page.getByRole('heading', { name: 'Clés d’API', level: 1 }).waitFor();
    for (let i = 0; i < 20 && (await page.getByText('Jamais utilisée').count()) > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await page.reload();
      await page.getByRole('heading', { name: 'Clés d’API', level: 1 }).waitFor();
    }
    assert.equal(await page.getByText('Jamais utilisée').count(), 0, 'last used is shown');
    assert.equal(await page.locator('[data-secret]').count(), 0, 'the secret is not shown again');

    await page.getByRole('button', { name: 'Révoquer' }).click();
    await page.getByText(/Révoquer la clé ak_test_/).waitFor();
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await page.getByText(/Révoquée le/).waitFor();
    assert.equal((await collectClient(t.app, secret).create(direct())).statusCode, 401, 'the revoked key is refused');

    // Webhooks: an endpoint at a real receiver, a test event, its delivery and request.
    await menu.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByLabel('URL').fill(`${receiver.origin}/dashboard-hooks`);
    await page.getByLabel('Description').fill('Boutique');
    await page.getByLabel('collect.payment.*').check();
    await page.getByRole('button', { name: 'Ajouter le point de terminaison' }).click();
    await page.locator('[data-secret]').waitFor();
    const signingSecret = (await page.locator('[data-secret]').innerText()).trim();
    assert.match(signingSecret, /^whsec_/);
    await checkPage(page, 'developers-webhooks');
    await page.getByRole('link', { name: `${receiver.origin}/dashboard-hooks` }).click();
    await page.getByRole('heading', { name: 'Point de terminaison', level: 1 }).waitFor();
    await page.getByText('Aucune livraison pour le moment.').waitFor();
    await page.getByRole('button', { name: 'Envoyer un événement de test' }).click();
    await page.getByText('Événement de test envoyé').waitFor();
    await deliverAll();
    const received = receiver.requests.filter((r) => r.url === '/dashboard-hooks');
    assert.equal(received.length, 1);
    assert.equal(verifySignature(received[0]!.body, received[0]!.headers['x-service-signature'] as string, signingSecret).ok, true);
    const event = JSON.parse(received[0]!.body);
    assert.equal(event.type, 'collect.payment.completed');
    await page.getByRole('button', { name: 'Actualiser' }).click();
    await page.getByText('HTTP 200').first().waitFor();
    await page.getByText('Réussi').first().waitFor();
    await page.getByText(/Essais de la livraison/).click();
    await page.getByText(/Essai 1, .*HTTP 200/).waitFor();
    await page.getByRole('button', { name: 'Voir la requête' }).click();
    await page.locator('pre.code-block').filter({ hasText: event.id }).waitFor();
    await checkPage(page, 'developers-webhook-endpoint');
    await page.getByRole('button', { name: 'Renvoyer' }).click();
    await page.getByText('Renvoyé : la livraison reprend.').waitFor();

    // Exports: the payments of the test environment as a file.
    await menu.getByRole('link', { name: 'Exports' }).click();
    await page.getByRole('heading', { name: 'Exports', level: 1 }).waitFor();
    await checkPage(page, 'exports');
    await page.getByLabel('Du').fill('2020-01-01');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Télécharger' }).click()]);
    assert.equal(download.suggestedFilename(), 'akwe-payments-test-2020-01-01-now.csv');
    const file = readFileSync((await download.path())!, 'utf8');
    assert.match(file, /^id,reference,created_at,/);
    assert.match(file, /DEV-1/);
    await page.getByText(/Fichier akwe-payments-test-2020-01-01-now.csv téléchargé/).waitFor();

    // The audit log: the key, the endpoint, the test event and the export.
    await menu.getByRole('link', { name: 'Journal d’audit' }).click();
    await page.getByRole('heading', { name: 'Journal d’audit', level: 1 }).waitFor();
    for (const action of ['api_key.created', 'api_key.revoked', 'webhook_endpoint.created', 'webhook_endpoint.test_event_sent', 'event.resent', 'api.export_payments']) {
      await page.getByText(action, { exact: true }).first().waitFor();
    }
    await checkPage(page, 'audit-log');
    assert.deepEqual(problems, []);
    await context.close();
  });
});
