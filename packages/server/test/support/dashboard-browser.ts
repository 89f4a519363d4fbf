/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core (no browser is
 * downloaded), a server listening on a real socket, axe-core run in the page, screenshots at
 * 360 px and 1280 px kept in test-artifacts/dashboard/.
 *
 * Without Chromium the suites fail when CI is set (.ci/run installs it) and are skipped elsewhere
 * with the reason. CHROMIUM_PATH names another binary.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { newId } from '../../src/core/shared/ids.js';
import { renderDelivery } from '../../src/http/contracts/index.js';
import type { OperatorConnectors } from '../../src/core/operators/operator-connector.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../../src/webhooks/webhook-senders.js';
import { mailedToken, PASSWORD, uniqueEmail } from './dashboard.js';
import { buildTestApp, type TestApp } from './test-app.js';
import { testDatabases } from './test-databases.js';

export const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(executablePath) ? false : `no Chromium at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`;
/** The `skip` option of a browser suite: skipped with the reason outside CI, failing in CI. */
export const browserSkip = missing && !process.env.CI ? missing : false;
export const artifacts = fileURLToPath(new URL('../../test-artifacts/dashboard/', import.meta.url));

export async function launchBrowser(): Promise<Browser> {
  if (missing) throw new Error(`CI: ${missing}`);
  mkdirSync(artifacts, { recursive: true });
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors, CSP violations, requests to other origins. */
  problems: string[];
}

/** A fresh browser profile: a phone (360 px, French) unless told otherwise. */
export async function openTab(browser: Browser, base: string, options: { width?: number; locale?: string } = {}): Promise<Tab> {
  const width = options.width ?? 360;
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 740 : 900 }, locale: options.locale ?? 'fr-FR', acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) problems.push(`request elsewhere: ${request.url()}`);
  });
  page.on('console', (message) => {
    // A refused call (401, 403 …) is an answer the page shows, not a fault of the page.
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core on the page as it is now. Evaluated through the DevTools protocol, so the page's CSP
 * (no inline script) stays on. Answers the serious and critical violations, described.
 */
export async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const scope = globalThis as unknown as {
      document: unknown;
      axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> };
    };
    const result = await scope.axe.run(scope.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((node) => node.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}

/** Checks the page with axe and keeps screenshots at 360 px and 1280 px wide. */
export async function checkPage(page: Page, name: string): Promise<void> {
  const problems = await seriousAccessibilityProblems(page);
  assert.deepEqual(problems, [], `axe on ${name}`);
  const size = page.viewportSize() ?? { width: 360, height: 740 };
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 740 : 900 });
    await page.screenshot({ path: `${artifacts}${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

/** Signs up through the pages, follows the mailed link and signs in: the merchant's owner on the home page. */
export async function signUpInBrowser(page: Page, base: string, dataDir: string, merchantName = 'Boutique Adjoa'): Promise<{ email: string }> {
  const email = uniqueEmail('owner');
  await page.goto(`${base}/dashboard/sign-up`);
  await page.getByLabel('Votre nom').fill('Adjoa Mensah');
  await page.getByLabel('Nom de votre entreprise').fill(merchantName);
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Créer le compte' }).click();
  await page.getByText(/Compte créé/).waitFor();
  await page.goto(`${base}/dashboard/verify-email?token=${mailedToken(dataDir, email, 'verify-email')}`);
  await page.getByText('Adresse vérifiée. Vous pouvez vous connecter.').waitFor();
  await signInInBrowser(page, base, email);
  return { email };
}

export async function signInInBrowser(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/dashboard/sign-in`);
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe').fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.getByRole('heading', { name: 'Accueil', level: 1 }).waitFor();
}

export interface DashboardServer {
  t: TestApp;
  /** The server's origin, listening on a real socket. */
  base: string;
  browser: Browser;
  /** The data folder: the dev mailbox and the KYC documents. */
  dataDir: string;
}

/**
 * A server on SQLite listening on a port, in development mode (cookies without Secure on
 * http://127.0.0.1, the mailbox folder), and Chromium. `liveSandbox`: the sandbox also answers live
 * MTN Benin payouts, so a live batch reaches an operator; `operators`: the operators to use instead.
 */
export async function startDashboardServer(label: string, options: { liveSandbox?: boolean; operators?: OperatorConnectors } = {}): Promise<DashboardServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `akwe-${label}-`));
  const sandbox = new SandboxOperator();
  const t = await buildTestApp(sqliteTarget(), {
    env: { AKWE_DATA_DIR: dataDir, AKWE_DEV: 'true', RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
    ...(options.liveSandbox ? { operators: new OperatorRegistry({ test: sandbox, live: new Map([['MTN_BJ', sandbox]]) }) } : {}),
    ...(options.operators ? { operators: options.operators } : {}),
  });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, base, browser: await launchBrowser(), dataDir };
}

export async function stopDashboardServer(server: Partial<DashboardServer>): Promise<void> {
  await server.browser?.close();
  await server.t?.close();
  if (server.dataDir) rmSync(server.dataDir, { recursive: true, force: true });
}

const sqliteTarget = () => testDatabases().find((target) => target.name === 'sqlite')!;

/** What the webhook delivery worker does, until nothing is left (test apps run no workers). */
export async function deliverAllWebhooks(t: TestApp, base: string): Promise<void> {
  const job = new WebhookDeliveryJob(
    {
      store: t.services.webhookStore,
      webhooks: t.services.webhooks,
      senderFor: webhookSenders({ dev: true }),
      clock: t.services.clock,
      newId,
      publicUrl: base,
      render: renderDelivery,
    },
    { timeoutMs: 2_000, random: () => 0.5 },
  );
  while ((await t.services.webhooks.fanOut()) > 0);
  while ((await job.runOnce()) > 0) await job.drain();
  await job.drain();
}

/** What the bulk and payout workers do, until none of the scope's batches is processing; answers their statuses, newest first. */
export async function runBatchesUntilFinal(t: TestApp, merchantId: string, environment: 'test' | 'live'): Promise<string[]> {
  for (let pass = 0; pass < 100; pass++) {
    await t.services.bulk.followDue();
    await t.services.payouts.handOffDue();
    await t.services.payouts.checkDue();
    const page = await t.services.bulk.list({ merchantId, environment }, {}, { limit: 10 });
    if (page.data.every((batch) => batch.status !== 'processing')) return page.data.map((batch) => batch.status);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return ['still processing'];
}
