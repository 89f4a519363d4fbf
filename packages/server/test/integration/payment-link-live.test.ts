/**
 * A live payment link against the operator mocks (`npx akwe mocks`' operators file), on every
 * database: the customer posts the link's page on a real server, the hosted payment it creates goes
 * to MTN Bénin's own route (the operator guessed from the number), completes when the mock's
 * customer approves, carries the link, and the link counts it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { eventually, operatorsFileFor, startLiveServer, type LiveServer, type LiveWire } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`a live payment link on the operator mocks on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let live: LiveServer;
    let dir: string;

    before(async () => {
      mocks = await startOperatorMocks({
        mtn: { decisionDelayMs: 100 },
        pawapay: { decisionDelayMs: 100, signCallbacks: true },
        fedapay: { decisionDelayMs: 100 },
        wave: { decisionDelayMs: 100 },
      });
      dir = mkdtempSync(join(tmpdir(), 'akwe-live-link-'));
      db = await target.open();
      live = await startLiveServer({ mocks, databaseUrl: db.url, operatorsFile: operatorsFileFor(mocks, 1_000), dataDir: dir });
    });
    after(async () => {
      await live?.close();
      await mocks?.close();
      await db?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('collects through the link’s page on MTN Bénin’s route, the payment carrying the link', async () => {
      const created = await live.api('POST', '/payment-links', { amount_minor: 300_000, country: 'BJ', description: 'Live wax', reusable: false });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const link = created.body;
      assert.equal(link.sandbox, false);
      const pagePath = new URL(link.url).pathname;
      const page = await fetch(`${live.running.url}${pagePath}`);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.ok(!html.includes('Mode test'), 'no test banner in live');
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? assert.fail('no form token');
      const posted = await fetch(`${live.running.url}${pagePath}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, phone: '0197000001', operator: '' }).toString(),
      });
      assert.equal(posted.status, 303, await posted.text());
      assert.match(String(posted.headers.get('location')), /^\/checkout\/[A-Za-z0-9_-]{43}\?lang=fr$/);
      const payment = await eventually(async () => {
        const listed = (await live.api('GET', `/collect/payments?payment_link=${link.id}`)).body.data as LiveWire[];
        return listed.find((each) => each.status === 'completed');
      }, 'the link’s live payment to complete');
      assert.equal(payment.payment_link, link.id);
      assert.equal(payment.operator, 'mtn_bj');
      assert.equal(payment.amount, 3000);
      const stored = await live.running.services.payments.get({ merchantId: live.merchantId, environment: 'live' }, payment.id);
      assert.equal(stored.route, 'mtn-momo');
      const after = (await live.api('GET', `/payment-links/${link.id}`)).body;
      assert.equal(after.status, 'completed', 'single use, paid');
      assert.equal(after.completed_payments, 1);
    });
  });
}
