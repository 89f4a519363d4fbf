/**
 * What a signed-in dashboard user does on the merchant API lands in the merchant's audit log
 * (docs/dashboard.md "The API from the dashboard"): every change and every export, with the user,
 * the client address and user agent; reads, refused calls and API-key calls do not.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { collectClient, direct } from '../support/collect-client.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { recordRoutes } from '../support/route-recorder.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

interface AuditRow {
  action: string;
  user_id: string;
  merchant_id: string;
  target: string;
  ip: string;
  user_agent: string;
}

describe('which merchant API routes the session audit covers', () => {
  it('every route that changes something needs a write scope (so it is audited), payouts, bulk, settlements and transfers included', async () => {
    const sqlite = testDatabases().find((d) => d.name === 'sqlite')!;
    const { result: t, routes } = await recordRoutes(() => buildTestApp(sqlite));
    try {
      const changing = routes.filter(
        (r) =>
          r.url.startsWith('/api/v1/') &&
          // The dashboard's and the back office's own APIs sign people in themselves and audit their own actions.
          !r.url.startsWith('/api/v1/dashboard/') &&
          !r.url.startsWith('/api/v1/admin/') &&
          // Operators' callbacks come with no session at all.
          !(r.config as { public?: boolean } | undefined)?.public &&
          [r.method].flat().some((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m)),
      );
      // Predicts an operator from a phone number: reads nothing of the merchant's, writes nothing.
      const notAudited = changing.filter((r) => !((r.config as { scope?: string } | undefined)?.scope ?? ':read').match(/:(write|refund)$/)).map((r) => r.url);
      assert.deepEqual(notAudited, ['/api/v1/operators/predict']);
      const urls = changing.map((r) => r.url).join(' ');
      for (const family of ['/refunds', '/payout/', '/bulk-payments/', '/settlements/', '/settlement-accounts/', '/transfers/', '/webhook-endpoints']) {
        assert.ok(urls.includes(family), `${family} routes are among the audited ones`);
      }
      const exports = routes.filter((r) => r.url.startsWith('/api/v1/exports/') && r.method === 'GET');
      assert.ok(exports.length >= 3, 'the exports are audited by their path');
    } finally {
      await t.close();
    }
  });
});

for (const target of testDatabases()) {
  describe(`the audit of dashboard sessions on the merchant API on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-sessaudit-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const asSession = (method: 'GET' | 'POST' | 'DELETE', url: string, access: string, merchantId: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        remoteAddress: '203.0.113.9',
        headers: {
          authorization: `Bearer ${access}`,
          'x-akwe-merchant': merchantId,
          'user-agent': 'AuditTest/1.0',
          ...(method === 'POST' ? { 'idempotency-key': `k-${Date.now()}-${Math.random()}` } : {}),
        },
        ...(payload ? { payload } : {}),
      });

    /** The rows the session audit wrote (`api.` actions), newest first; written after the answer, so waited for. */
    async function apiRows(owner: { access: string; merchantId: string }, atLeast: number): Promise<AuditRow[]> {
      let rows: AuditRow[] = [];
      for (let i = 0; i < 100; i++) {
        const res = await call('GET', `/merchants/${owner.merchantId}/audit-log?limit=100`, owner.access);
        assert.equal(res.statusCode, 200, res.body);
        rows = (res.json().data as AuditRow[]).filter((row) => row.action.startsWith('api.'));
        if (rows.length >= atLeast) return rows;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return rows;
    }

    it('records a refund, a webhook endpoint, a payout, a batch and an export made with a session, with who, where from and which browser', async () => {
      const owner = await newOwner(call, dataDir);
      const key = (await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {})).json().secret as string;
      const payment = await collectClient(t.app, key).createOk(direct({ amount: 5000 }));

      const refund = await asSession('POST', `/collect/payments/${payment.id}/refunds`, owner.access, owner.merchantId, { amount: 1000 });
      assert.equal(refund.statusCode, 201, refund.body);
      const endpoint = await asSession('POST', '/webhook-endpoints', owner.access, owner.merchantId, { url: 'https://hooks.example.com/akwe' });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const payout = await asSession('POST', '/payout/mobile-money/', owner.access, owner.merchantId, {
        amount: 100_000,
        phone: '0197000000',
        country: 'BJ',
        operator: 'mtn_bj',
        reference: `P-${Date.now()}`,
      });
      assert.equal(payout.statusCode, 201, payout.body);
      const batch = await asSession('POST', '/bulk-payments/', owner.access, owner.merchantId, {
        name: 'Audited batch',
        items: [{ beneficiary_name: 'Afi', phone: '0197000000', amount: 100_000, currency: 'XOF', reference: `B-${Date.now()}`, country: 'BJ', operator: 'mtn_bj' }],
      });
      assert.equal(batch.statusCode, 201, batch.body);
      const exported = await asSession('GET', '/exports/payments.csv?from=2026-01-01', owner.access, owner.merchantId);
      assert.equal(exported.statusCode, 200, exported.body);
      // Reads are not audited.
      assert.equal((await asSession('GET', '/collect/payments', owner.access, owner.merchantId)).statusCode, 200);
      assert.equal((await asSession('GET', '/balances', owner.access, owner.merchantId)).statusCode, 200);

      const rows = await apiRows(owner, 5);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(
        (await apiRows(owner, 5)).map((row) => row.action),
        ['api.export_payments', 'api.create_bulk_payment', 'api.create_payout', 'api.create_webhook_endpoint', 'api.create_payment_refund'],
        'five rows, newest first, and none for the reads',
      );
      for (const row of rows) {
        assert.equal(row.user_id, owner.userId);
        assert.equal(row.merchant_id, owner.merchantId);
        assert.equal(row.ip, '203.0.113.9');
        assert.equal(row.user_agent, 'AuditTest/1.0');
      }
      assert.equal(rows[0]!.target, 'GET /api/v1/exports/payments.csv?from=2026-01-01 -> 200 (test)');
      assert.equal(rows[2]!.target, 'POST /api/v1/payout/mobile-money/ -> 201 (test)');
      assert.equal(rows[3]!.target, 'POST /api/v1/webhook-endpoints -> 201 (test)');
      assert.equal(rows[4]!.target, `POST /api/v1/collect/payments/${payment.id}/refunds -> 201 (test)`);
    });

    it('records a session reading an endpoint’s signing secret', async () => {
      const owner = await newOwner(call, dataDir);
      const endpoint = await asSession('POST', '/webhook-endpoints', owner.access, owner.merchantId, { url: 'https://hooks.example.com/secret' });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const secret = await asSession('GET', `/webhook-endpoints/${endpoint.json().id}/secret`, owner.access, owner.merchantId);
      assert.equal(secret.statusCode, 200, secret.body);
      const rows = await apiRows(owner, 2);
      assert.deepEqual(
        rows.map((row) => row.action),
        ['api.get_webhook_endpoint_secret', 'api.create_webhook_endpoint'],
      );
    });

    it('records nothing for an API key’s calls, nor for a call the role refuses', async () => {
      const owner = await newOwner(call, dataDir);
      const key = (await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {})).json().secret as string;
      const payment = await collectClient(t.app, key).createOk(direct({ amount: 5000 }));
      const byKey = await t.app.inject({
        method: 'POST',
        url: `/api/v1/collect/payments/${payment.id}/refunds`,
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': `k-${Math.random()}` },
        payload: { amount: 1000 },
      });
      assert.equal(byKey.statusCode, 201, byKey.body);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/exports/payouts.csv', headers: { authorization: `Bearer ${key}` } })).statusCode, 200);

      const email = uniqueEmail('viewer');
      assert.equal((await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role: 'viewer' })).statusCode, 202);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: 'V', password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const viewer = await signIn(call, email);
      const refused = await asSession('POST', `/collect/payments/${payment.id}/refunds`, viewer, owner.merchantId, { amount: 100 });
      assert.equal(refused.statusCode, 403, refused.body);
      // A viewer's export is audited: reading out the merchant's data is what the log is for.
      assert.equal((await asSession('GET', '/exports/balance-transactions.csv', viewer, owner.merchantId)).statusCode, 200);

      const rows = await apiRows(owner, 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(
        (await apiRows(owner, 1)).map((row) => row.action),
        ['api.export_balance_transactions'],
      );
      assert.notEqual(rows[0]!.user_id, owner.userId, 'the viewer exported');
    });
  });
}
