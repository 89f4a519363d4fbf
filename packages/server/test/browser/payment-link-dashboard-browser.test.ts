/**
 * Issue #41's "done when" in Chromium: a merchant creates an open-amount reusable link in the
 * dashboard (Liens de paiement), shares it (URL, WhatsApp, QR code and its download), a customer
 * pays it on `/pay/<slug>`, and the merchant sees the payment under the link with the total, and
 * the webhook; then deactivates it. Once in the test environment (sandbox, JavaScript on; the
 * webhook reaches a real local receiver) and once in live against the operator mocks (the customer
 * with JavaScript off). Every page is checked by axe-core at 360 px and at 1280 px.
 * The no-JavaScript sandbox payment itself is test/browser/payment-link-browser.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD } from '../support/dashboard.js';
import {
  artifacts,
  browserSkip,
  deliverAllWebhooks,
  launchBrowser,
  openTab,
  seriousAccessibilityProblems,
  signInInBrowser,
  signUpInBrowser,
  startDashboardServer,
  stopDashboardServer,
} from '../support/dashboard-browser.js';
import { eventually, operatorsFileFor, startLiveServer, type LiveServer } from '../support/live-operators.js';
import type { TestApp } from '../support/test-app.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const spaces = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ');

/** axe-core finds nothing serious at 360 px nor at 1280 px; a screenshot at each width is kept. */
async function accessibleAtBothWidths(page: Page, name: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 740 : 900 });
    assert.deepEqual(await seriousAccessibilityProblems(page), [], `axe on ${name} at ${width} px`);
    await page.screenshot({ path: `${artifacts}${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 360, height: 740 });
}

/** The merchant makes the open-amount reusable link in the pages; answers its id and URL. */
async function createOpenLinkInDashboard(page: Page, description: string): Promise<{ id: string; url: string }> {
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Liens de paiement' }).click();
  await page.getByRole('heading', { name: 'Liens de paiement', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Nouveau lien' }).click();
  await page.getByRole('heading', { name: 'Nouveau lien de paiement', level: 1 }).waitFor();
  await accessibleAtBothWidths(page, 'payment-link-new');
  await page.getByLabel('Ce qui est vendu').fill(description);
  await page.getByLabel('Montant libre (le client le saisit)').check();
  // Bounds the wrong way round: refused beside the field, then corrected and sent again.
  await page.getByLabel('Minimum (FCFA, facultatif)').fill('20000');
  await page.getByLabel('Maximum (FCFA, facultatif)').fill('1000');
  await page.getByRole('button', { name: 'Créer le lien' }).click();
  await page.getByText('min_amount_minor is above max_amount_minor.').first().waitFor();
  await page.getByLabel('Minimum (FCFA, facultatif)').fill('1000');
  await page.getByLabel('Maximum (FCFA, facultatif)').fill('20000');
  assert.ok(await page.getByLabel('Réutilisable (plusieurs clients)').isChecked(), 'reusable by default');
  await page.getByRole('button', { name: 'Créer le lien' }).click();
  await page.getByText('Lien créé. Partagez-le ou imprimez son code QR.').waitFor();
  await page.getByRole('heading', { name: description, level: 1 }).waitFor();
  const id = /\/dashboard\/payment-links\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? assert.fail(`no link id in ${page.url()}`);
  const url = (await page.locator('[data-link-url]').innerText()).trim();
  return { id, url };
}

/** The merchant's link page after the customer paid: the payment listed and the total. */
async function seePaymentUnderLink(page: Page, linkId: string, status: RegExp): Promise<void> {
  await page.reload();
  await page.getByRole('heading', { name: 'Paiements par ce lien' }).waitFor();
  await page.locator('[data-link-total]').waitFor();
  assert.match(spaces(await page.locator('[data-link-total]').innerText()), /Total payé : 2 500 F CFA 1 paiement\(s\) réussi\(s\)/);
  const rows = page.locator('.data-list tbody tr');
  assert.equal(await rows.count(), 1);
  assert.match(spaces(await rows.first().innerText()), status);
  assert.match(spaces(await rows.first().innerText()), /2 500 F CFA/);
  assert.ok(page.url().includes(linkId));
}

async function deactivateInDashboard(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Désactiver le lien' }).click();
  await page.getByText(/ne prendra plus de paiement/).waitFor();
  await page.getByRole('button', { name: 'Confirmer' }).click();
  await page.getByText('Lien désactivé.').waitFor();
  await page.getByText('Désactivé', { exact: true }).waitFor();
}

describe('payment links from the dashboard to a paid link in Chromium', { skip: browserSkip }, () => {
  describe('in the test environment (sandbox, SQLite)', () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let dataDir: string;
    let receiver: WebhookReceiver;

    before(async () => {
      ({ t, base, browser, dataDir } = await startDashboardServer('payment-links-browser'));
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await receiver?.close();
      await stopDashboardServer({ t, browser, dataDir });
    });

    it(
      'creates an open-amount reusable link, shares it, a customer pays 2 500 FCFA, the merchant sees it with the total and gets the webhook, then deactivates the link',
      { timeout: 180_000 },
      async () => {
        const merchant = await openTab(browser, base);
        await signUpInBrowser(merchant.page, base, dataDir, 'Boutique Lien');
        const merchantRow = await t.services.database.db.selectFrom('merchants').select('id').where('name', '=', 'Boutique Lien').executeTakeFirstOrThrow();
        await t.services.webhooks.createEndpoint({ merchantId: merchantRow.id, environment: 'test' }, { url: `${receiver.origin}/links`, eventTypes: ['collect.payment.*'] });

        const link = await createOpenLinkInDashboard(merchant.page, 'Panier de légumes');
        const { page } = merchant;
        assert.match(link.url, /\/pay\/[A-Za-z0-9_-]{32}$/);
        assert.equal(
          await page.getByRole('link', { name: 'Envoyer sur WhatsApp' }).getAttribute('href'),
          `https://wa.me/?text=${encodeURIComponent(`Panier de légumes : ${link.url}`)}`,
        );
        const qr = page.getByRole('img', { name: 'Code QR du lien de paiement' });
        await qr.waitFor();
        assert.ok((await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0, 'the QR code is drawn');
        const [svgFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Télécharger (SVG, impression)' }).click()]);
        assert.match(svgFile.suggestedFilename(), /\.svg$/);
        assert.match(readFileSync(await svgFile.path(), 'utf8'), /<svg/);
        const [pngFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Télécharger (PNG)' }).click()]);
        assert.equal(
          readFileSync(await pngFile.path())
            .subarray(1, 4)
            .toString('latin1'),
          'PNG',
        );
        await page.getByRole('button', { name: 'Copier le lien' }).click();
        await page.getByRole('button', { name: 'Copié' }).waitFor();
        await accessibleAtBothWidths(page, 'payment-link-created');

        const customer = await openTab(browser, base);
        await customer.page.goto(`${base}${new URL(link.url).pathname}`);
        await accessibleAtBothWidths(customer.page, 'payment-link-pay-page');
        await customer.page.getByLabel('Montant à payer (FCFA)').fill('2500');
        await customer.page.getByLabel('Numéro Mobile Money').fill('01 97 00 00 00');
        await customer.page.getByRole('button', { name: 'Continuer vers le paiement' }).click();
        await customer.page.getByRole('heading', { name: 'Paiement réussi' }).waitFor();
        await accessibleAtBothWidths(customer.page, 'payment-link-paid');

        await seePaymentUnderLink(page, link.id, /Terminé/);
        await accessibleAtBothWidths(page, 'payment-link-with-payment');
        await deliverAllWebhooks(t, base);
        const completed = receiver.requests.map((request) => JSON.parse(request.body) as Wire).find((event) => event.type === 'collect.payment.completed');
        assert.ok(completed, `the completed payment reached the receiver (${receiver.requests.length} requests)`);
        assert.equal(completed.data.object.payment_link, link.id);
        assert.equal(completed.data.object.amount, 2500);

        await deactivateInDashboard(page);
        assert.equal((await customer.page.goto(`${base}${new URL(link.url).pathname}`))?.status(), 410);
        assert.deepEqual([...merchant.problems, ...customer.problems], []);
        await customer.context.close();
        await merchant.context.close();
      },
    );

    it('a viewer sees the links, their QR code and payments, without the new-link form or the deactivate button', { timeout: 120_000 }, async () => {
      const call = dashboardCall(() => t);
      const owner = await newOwner(call, dataDir);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/payment-links',
        headers: { authorization: `Bearer ${owner.access}`, 'x-akwe-merchant': owner.merchantId },
        payload: { amount_minor: 500000, country: 'BJ', description: 'Pagne wax' },
      });
      assert.equal(created.statusCode, 201, created.body);
      const email = `viewer-links-${Date.now()}@example.com`;
      await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role: 'viewer' });
      await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: 'Vi', password: PASSWORD });
      const viewer = await openTab(browser, base);
      await signInInBrowser(viewer.page, base, email);
      await viewer.page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Liens de paiement' }).click();
      await viewer.page.getByText('Votre rôle permet de consulter les liens').waitFor();
      assert.equal(await viewer.page.getByRole('link', { name: 'Nouveau lien' }).count(), 0);
      await viewer.page.getByRole('link', { name: 'Pagne wax' }).click();
      await viewer.page.getByRole('heading', { name: 'Pagne wax', level: 1 }).waitFor();
      await viewer.page.getByRole('img', { name: 'Code QR du lien de paiement' }).waitFor();
      await viewer.page.getByRole('heading', { name: 'Paiements par ce lien' }).waitFor();
      assert.equal(await viewer.page.getByRole('button', { name: 'Désactiver le lien' }).count(), 0);
      await accessibleAtBothWidths(viewer.page, 'payment-link-viewer');
      assert.deepEqual(viewer.problems, []);
      await viewer.context.close();
    });
  });

  describe('in live against the operator mocks (SQLite)', () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let live: LiveServer;
    let dir: string;
    let browser: Browser;

    before(async () => {
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 } });
      dir = mkdtempSync(join(tmpdir(), 'akwe-live-link-browser-'));
      db = await testDatabases()
        .find((target) => target.name === 'sqlite')!
        .open();
      live = await startLiveServer({
        mocks,
        databaseUrl: db.url,
        operatorsFile: operatorsFileFor(mocks, 1_000),
        dataDir: dir,
        settings: { RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
      });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await live?.close();
      await mocks?.close();
      await db?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(
      'a live open-amount link made in the dashboard is paid without JavaScript on MTN Bénin’s mock; the merchant sees the payment with the total and its webhook is queued for the live endpoint',
      { timeout: 180_000 },
      async () => {
        const base = live.running.url;
        const merchant = await openTab(browser, base);
        await signUpInBrowser(merchant.page, base, dir, 'Boutique Live Lien');
        const { page } = merchant;
        await page.getByRole('group', { name: 'Environnement' }).getByRole('button', { name: 'Production' }).click();
        const merchantRow = await live.running.services.database.db.selectFrom('merchants').select('id').where('name', '=', 'Boutique Live Lien').executeTakeFirstOrThrow();
        // Live receivers must be public HTTPS addresses (webhook-senders.ts), so no local receiver can
        // take this delivery: the test checks the delivery made for the live endpoint instead.
        const endpoint = await live.running.services.webhooks.createEndpoint(
          { merchantId: merchantRow.id, environment: 'live' },
          { url: 'https://hooks.example.com/akwe', eventTypes: ['collect.payment.*'] },
        );

        const link = await createOpenLinkInDashboard(page, 'Tissu kente');
        assert.equal(await page.getByText('Mode test').count(), 0);

        // axe runs as a script in the page: it checks the live page in a tab with JavaScript, and the
        // customer pays in one without (the server sends both the same HTML).
        const checker = await openTab(browser, base);
        await checker.page.goto(`${base}${new URL(link.url).pathname}`);
        await accessibleAtBothWidths(checker.page, 'payment-link-live-pay-page');
        await checker.context.close();
        const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'fr-FR', javaScriptEnabled: false });
        const customerPage = await customer.newPage();
        await customerPage.goto(`${base}${new URL(link.url).pathname}`);
        await customerPage.getByLabel('Montant à payer (FCFA)').fill('2500');
        await customerPage.getByLabel('Numéro Mobile Money').fill('01 97 00 00 01');
        await customerPage.getByRole('button', { name: 'Continuer vers le paiement' }).click();
        await customerPage.waitForURL(/\/checkout\//);

        const paid = await eventually(async () => {
          const row = await live.running.services.database.db.selectFrom('payments').select(['id', 'status', 'operator']).where('payment_link_id', '=', link.id).executeTakeFirst();
          return row?.status === 'completed' ? row : undefined;
        }, 'the live payment through the link to complete');
        assert.equal(paid.operator, 'mtn_bj');
        await seePaymentUnderLink(page, link.id, /Terminé/);
        await accessibleAtBothWidths(page, 'payment-link-live-with-payment');

        const delivery = await eventually(async () => {
          const rows = await live.running.services.database.db
            .selectFrom('webhook_deliveries')
            .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
            .select(['events.type', 'events.payload', 'webhook_deliveries.target_url'])
            .where('webhook_deliveries.endpoint_id', '=', endpoint.id)
            .execute();
          return rows.find((row) => row.type === 'collect.payment.completed');
        }, 'the completed event’s delivery to the live endpoint');
        assert.equal(delivery.target_url, 'https://hooks.example.com/akwe');
        assert.ok(delivery.payload.includes(link.id), 'the event names the link');
        assert.deepEqual(merchant.problems, []);
        await customer.close();
        await merchant.context.close();
      },
    );
  });
});
