/**
 * The dashboard's layout and language details in Chromium (SQLite): the signed-out pages load with
 * no failing request and no console error (no refresh probe without a session); they follow the
 * browser's language until a switch picks one, which is remembered and becomes the language of the
 * user's emails; at 1280 px 100 000 000 F CFA fits its balance card; at 360 px every menu link is on
 * screen and nothing widens the page, long names included; a table's labels on two lines do not run
 * over the next one; checkboxes sit beside their labels; the endpoint form is empty after a create.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { PASSWORD, mailedToken, uniqueEmail } from '../support/dashboard.js';
import { browserSkip, openTab, signUpInBrowser, startDashboardServer, stopDashboardServer } from '../support/dashboard-browser.js';
import { type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** What the checks below use of the page's window (this suite is compiled without the DOM library). */
interface PageWindow {
  document: {
    documentElement: { scrollWidth: number; clientWidth: number };
    createRange(): { selectNodeContents(node: unknown): void; getBoundingClientRect(): { left: number; right: number; height: number } };
  };
  getComputedStyle(element: unknown, pseudo?: string): { lineHeight: string; fontSize: string; paddingTop: string; height: string };
}

describe('dashboard layout and language in Chromium (SQLite)', { skip: browserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let dataDir: string;
  let receiver: WebhookReceiver;

  before(async () => {
    ({ t, base, browser, dataDir } = await startDashboardServer('dashboard-layout-browser'));
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver?.close();
    await stopDashboardServer({ t, browser, dataDir });
  });

  /** The last email sent to `email`, as written in the dev mailbox. */
  function lastMailTo(email: string): string {
    const folder = join(dataDir, 'mailbox');
    const mail = readdirSync(folder)
      .sort()
      .map((name) => readFileSync(join(folder, name), 'utf8'))
      .filter((text) => text.includes(`To: ${email.toLowerCase()}`))
      .at(-1);
    assert.ok(mail, `an email was sent to ${email}`);
    return mail;
  }

  /** How far the page is wider than the window (0: it fits). */
  const pageOverflow = (page: Page) =>
    page.evaluate(() => {
      const { documentElement } = (globalThis as unknown as PageWindow).document;
      return documentElement.scrollWidth - documentElement.clientWidth;
    });

  it('loads the signed-out pages with no failing request and no console error', async () => {
    const { context, page, problems } = await openTab(browser, base);
    const failed: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') failed.push(`console: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    for (const path of ['/dashboard', '/dashboard/sign-in', '/dashboard/sign-up', '/dashboard/password-reset']) {
      await page.goto(`${base}${path}`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
    }
    assert.deepEqual(failed, [], 'nothing refused, nothing logged');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('follows the browser language until the switch picks one, which is remembered', async () => {
    const english = await openTab(browser, base, { locale: 'en-US' });
    await english.page.goto(`${base}/dashboard/sign-in`);
    await english.page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await english.page.locator('html[lang="en"]').waitFor({ state: 'attached' });
    await english.page.getByRole('button', { name: 'English', pressed: true }).waitFor();
    await english.context.close();

    const other = await openTab(browser, base, { locale: 'de-DE' });
    await other.page.goto(`${base}/dashboard/sign-in`);
    await other.page.getByRole('heading', { name: 'Connexion', level: 1 }).waitFor();
    await other.context.close();

    const { context, page, problems } = await openTab(browser, base, { locale: 'fr-FR' });
    await page.goto(`${base}/dashboard/sign-up`);
    await page.getByRole('heading', { name: 'Créer un compte', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Langue' }).getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Français' }).click();
    await page.getByRole('heading', { name: 'Connexion', level: 1 }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('writes the emails in the language the user chose: at sign-up, then from the dashboard', async () => {
    const { context, page, problems } = await openTab(browser, base, { width: 1280 });
    const email = uniqueEmail('english');
    await page.goto(`${base}/dashboard/sign-up`);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByLabel('Your name').fill('Kofi Mensah');
    await page.getByLabel('Your business name').fill('Kofi Trading');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByText(/Account created/).waitFor();
    assert.match(lastMailTo(email), /Subject: Verify your email address for Akwe/);

    await page.goto(`${base}/dashboard/verify-email?token=${mailedToken(dataDir, email, 'verify-email')}`);
    await page.getByText('Address verified. You can sign in.').waitFor();
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/v1/dashboard/me/language') && response.status() === 204);
    await page.getByLabel('Language').selectOption('fr');
    await saved;
    await page.getByRole('heading', { name: 'Accueil', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await page.getByLabel('Adresse e-mail').fill(email);
    await page.getByRole('button', { name: 'Recevoir un lien' }).click();
    await page.getByText(/un lien vient d’y être envoyé/).waitFor();
    await t.services.dashboard.mailsSent();
    for (let i = 0; i < 50 && !/Réinitialisez/.test(lastMailTo(email)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.match(lastMailTo(email), /Subject: Réinitialisez votre mot de passe Akwe/);
    assert.match(lastMailTo(email), /il est valable une heure/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('fits 100 000 000 F CFA in its balance card at 1280 px, and long names at 360 px and 1280 px', async () => {
    const { context, page, problems } = await openTab(browser, base, { width: 1280 });
    const longName = `Établissements ${'Kouassi'.repeat(8)} Fils et Compagnie de Commerce Général`;
    await signUpInBrowser(page, base, dataDir, longName);
    // The figures as the API would give a large merchant: the page's layout is what is tested.
    await page.route('**/api/v1/balances', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ object: 'balance', balances: [{ currency: 'XOF', available_minor: 10_000_000_000, reserved_minor: 9_999_999_900, pending_minor: 0 }] }),
      }),
    );
    await page.goto(`${base}/dashboard/balances`);
    const value = page.locator('.stat-value').first();
    await value.waitFor();
    assert.match((await value.innerText()).replace(/[\s\u202f\u00a0]+/g, ' '), /^100 000 000 F\s?CFA$/);
    for (const width of [1280, 1024, 640, 360]) {
      await page.setViewportSize({ width, height: 900 });
      const fit = await value.evaluate((element) => {
        const { document, getComputedStyle } = globalThis as unknown as PageWindow;
        const card = element.closest('.card')!.getBoundingClientRect();
        const text = element.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(element);
        const glyphs = range.getBoundingClientRect();
        return {
          overflow: element.scrollWidth - element.clientWidth,
          insideCard: text.left >= card.left && text.right <= card.right && glyphs.left >= card.left && glyphs.right <= card.right,
          lines: Math.round(glyphs.height / parseFloat(getComputedStyle(element).lineHeight)),
          fontSize: parseFloat(getComputedStyle(element).fontSize),
        };
      });
      assert.equal(fit.overflow, 0, `no overflow at ${width} px`);
      assert.ok(fit.insideCard, `the amount stays in its card at ${width} px`);
      assert.equal(fit.lines, 1, `one line at ${width} px`);
      assert.ok(fit.fontSize >= 16, `readable at ${width} px (${fit.fontSize} px)`);
      assert.equal(await pageOverflow(page), 0, `the page fits ${width} px`);
    }
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${base}/dashboard`);
      await page.getByRole('heading', { name: 'Accueil', level: 1 }).waitFor();
      assert.equal(await pageOverflow(page), 0, `a long merchant name fits ${width} px`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('shows every menu link on screen at 360 px without widening the page', async () => {
    const { context, page, problems } = await openTab(browser, base);
    await signUpInBrowser(page, base, dataDir, 'Boutique Étroite');
    const menu = page.getByRole('navigation', { name: 'Menu principal' });
    const links = await menu.getByRole('link').all();
    assert.ok(links.length >= 10, `the owner's menu (${links.length} links)`);
    for (const link of links) {
      const box = await link.boundingBox();
      assert.ok(box, `${await link.innerText()} is shown`);
      assert.ok(box.x >= 0 && box.x + box.width <= 360, `${await link.innerText()} is within 360 px (${box.x}–${box.x + box.width})`);
    }
    const strip = await menu.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    assert.ok(strip.scroll <= strip.client, `the menu is not a strip (${strip.scroll} for ${strip.client} px)`);
    assert.equal(await pageOverflow(page), 0);
    await menu.getByRole('link', { name: 'Journal d’audit' }).click();
    await page.getByRole('heading', { name: 'Journal d’audit', level: 1 }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('keeps the API key card labels apart and the checkboxes beside their labels, and empties the endpoint form after a create', async () => {
    const { context, page, problems } = await openTab(browser, base);
    await signUpInBrowser(page, base, dataDir, 'Boutique Formulaires');
    await page.goto(`${base}/dashboard/developers/keys`);
    await page.getByRole('heading', { name: 'Clés d’API', level: 1 }).waitFor();
    const scope = page.getByLabel('collect:read');
    const aligned = await scope.evaluate((box) => {
      const label = box.closest('label')!.querySelector('code')!.getBoundingClientRect();
      const own = box.getBoundingClientRect();
      const middle = own.top + own.height / 2;
      return middle > label.top && middle < label.bottom && own.right <= label.left;
    });
    assert.ok(aligned, 'the checkbox is on its label’s line, before it');
    await page.getByRole('button', { name: 'Créer une clé' }).click();
    await page.locator('[data-secret]').waitFor();
    await page.getByText('Copiez-la maintenant').waitFor();
    const cell = (label: string) => page.locator(`td[data-label="${label}"]`).first();
    await cell('État').waitFor();
    const lastUsed = await cell('Dernière utilisation').boundingBox();
    const state = await cell('État').boundingBox();
    const labelBottom = await cell('Dernière utilisation').evaluate((td) => {
      const { getComputedStyle } = globalThis as unknown as PageWindow;
      const before = getComputedStyle(td, '::before');
      return td.getBoundingClientRect().top + parseFloat(getComputedStyle(td).paddingTop) + parseFloat(before.height);
    });
    assert.ok(lastUsed && state, 'both cells are shown');
    assert.ok(lastUsed.y + lastUsed.height <= state.y + 0.5, 'the cells do not overlap');
    assert.ok(labelBottom <= state.y + 0.5, `the two-line label stays in its cell (${labelBottom} ≤ ${state.y})`);

    await page.goto(`${base}/dashboard/developers/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByLabel('URL').fill(`${receiver.origin}/cleared`);
    await page.getByLabel('Description').fill('Boutique');
    await page.getByLabel('collect.payment.*').check();
    await page.getByRole('button', { name: 'Ajouter le point de terminaison' }).click();
    await page.getByText('Copiez-le maintenant : il ne sera plus jamais affiché.').waitFor();
    assert.equal(await page.getByLabel('URL').inputValue(), '');
    assert.equal(await page.getByLabel('Description').inputValue(), '');
    assert.equal(await page.getByLabel('collect.payment.*').isChecked(), false);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
