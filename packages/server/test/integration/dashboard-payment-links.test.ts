/**
 * Payment links from the dashboard (docs/dashboard.md, "The API from the dashboard"): a session
 * creates, reads and deactivates links and downloads their QR codes as a key would, each change in
 * the audit log; a viewer reads links and their QR codes but cannot create or deactivate them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dashboardCall, mailedToken, newOwner, PASSWORD } from '../support/dashboard.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`payment links from a dashboard session on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-dash-links-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const asSession = (method: 'GET' | 'POST', url: string, access: string, merchantId: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${access}`, 'x-akwe-merchant': merchantId }, ...(payload ? { payload } : {}) });
    const openLink = { min_amount_minor: 100000, max_amount_minor: 2000000, country: 'BJ', description: 'Panier de légumes' };

    async function auditActions(owner: { access: string; merchantId: string }, wanted: string[]): Promise<string[]> {
      let actions: string[] = [];
      // The session audit is written after the answer: wait for it.
      for (let i = 0; i < 100 && !wanted.every((action) => actions.includes(action)); i++) {
        const res = await call('GET', `/merchants/${owner.merchantId}/audit-log?limit=100`, owner.access);
        actions = (res.json().data as { action: string }[]).map((row) => row.action);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return actions;
    }

    it('an owner’s session creates a link, reads its QR codes (SVG and PNG), deactivates it, and both changes are audited', async () => {
      const owner = await newOwner(call, dataDir);
      const created = await asSession('POST', '/payment-links', owner.access, owner.merchantId, openLink);
      assert.equal(created.statusCode, 201, created.body);
      const link = created.json() as { id: string; url: string; status: string };
      const svg = await asSession('GET', `/payment-links/${link.id}/qr.svg?size=256`, owner.access, owner.merchantId);
      assert.equal(svg.statusCode, 200, svg.body);
      assert.match(String(svg.headers['content-type']), /^image\/svg\+xml/);
      assert.match(svg.body, /<svg[^>]*viewBox/);
      const png = await asSession('GET', `/payment-links/${link.id}/qr.png`, owner.access, owner.merchantId);
      assert.equal(png.statusCode, 200);
      assert.equal(png.rawPayload.subarray(1, 4).toString('latin1'), 'PNG');
      const deactivated = await asSession('POST', `/payment-links/${link.id}/deactivate`, owner.access, owner.merchantId);
      assert.equal(deactivated.statusCode, 200, deactivated.body);
      assert.equal(deactivated.json().status, 'inactive');
      const actions = await auditActions(owner, ['api.create_payment_link', 'api.deactivate_payment_link']);
      assert.ok(actions.includes('api.create_payment_link'), actions.join(', '));
      assert.ok(actions.includes('api.deactivate_payment_link'), actions.join(', '));
    });

    it('a viewer reads the links and their QR codes, but creating or deactivating one is 403 insufficient_role and changes nothing', async () => {
      const owner = await newOwner(call, dataDir);
      const link = (await asSession('POST', '/payment-links', owner.access, owner.merchantId, openLink)).json() as { id: string };
      const email = `viewer-links-${Date.now()}@example.com`;
      await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role: 'viewer' });
      await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: 'Vi', password: PASSWORD });
      const viewer = (await call('POST', '/auth/sign-in', undefined, { email, password: PASSWORD })).json().access_token as string;
      const list = await asSession('GET', '/payment-links', viewer, owner.merchantId);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(
        list.json().data.map((each: { id: string }) => each.id),
        [link.id],
      );
      assert.equal((await asSession('GET', `/payment-links/${link.id}/qr.svg`, viewer, owner.merchantId)).statusCode, 200);
      const refusedCreate = await asSession('POST', '/payment-links', viewer, owner.merchantId, openLink);
      assert.equal(refusedCreate.statusCode, 403, refusedCreate.body);
      assert.equal(refusedCreate.json().error.code, 'insufficient_role');
      const refusedDeactivate = await asSession('POST', `/payment-links/${link.id}/deactivate`, viewer, owner.merchantId);
      assert.equal(refusedDeactivate.statusCode, 403);
      const after = (await asSession('GET', '/payment-links', owner.access, owner.merchantId)).json().data as { status: string }[];
      assert.deepEqual(
        after.map((each) => each.status),
        ['active'],
      );
    });
  });
}
