/**
 * A signed-in dashboard user on the merchant API (docs/dashboard.md, "The API from the dashboard"):
 * the access token as the bearer, the merchant in X-Akwe-Merchant, the environment in
 * X-Service-Environment. The role decides the scopes; another merchant, a signed-out session and a
 * bad environment are refused; test data never shows in live.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { roles, scopesOf } from '../../src/core/dashboard/permissions.js';
import { collectClient, direct } from '../support/collect-client.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD } from '../support/dashboard.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

describe('scopes of a dashboard role', () => {
  it('is never empty (an empty list would grant everything) and only owners, admins and finance move money', () => {
    for (const role of roles) assert.ok(scopesOf(role).length > 0, role);
    assert.deepEqual(
      roles.filter((role) => scopesOf(role).includes('payout:write')),
      ['owner', 'admin', 'finance'],
    );
    assert.ok(!scopesOf('viewer').some((scope) => scope.endsWith(':write') || scope.endsWith(':refund')));
  });
});

for (const target of testDatabases()) {
  describe(`a dashboard session on the merchant API on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-dashapi-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const asSession = (method: 'GET' | 'POST', url: string, access: string, merchantId: string, environment?: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: {
          authorization: `Bearer ${access}`,
          'x-akwe-merchant': merchantId,
          ...(environment ? { 'x-service-environment': environment } : {}),
          ...(payload ? { 'idempotency-key': `k-${Date.now()}-${Math.random()}` } : {}),
        },
        ...(payload ? { payload } : {}),
      });

    async function ownerWithPayment() {
      const owner = await newOwner(call, dataDir);
      const key = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {});
      assert.equal(key.statusCode, 201, key.body);
      const created = await collectClient(t.app, key.json().secret).create(direct());
      assert.equal(created.statusCode, 201, created.body);
      return { ...owner, payment: created.json() as { id: string; reference: string } };
    }

    it('reads the merchant’s test data in test, and none of it in live', async () => {
      const owner = await ownerWithPayment();
      const inTest = await asSession('GET', '/collect/payments', owner.access, owner.merchantId);
      assert.equal(inTest.statusCode, 200, inTest.body);
      assert.deepEqual(
        inTest.json().data.map((p: { id: string }) => p.id),
        [owner.payment.id],
      );
      const one = await asSession('GET', `/collect/payments/${owner.payment.id}`, owner.access, owner.merchantId, 'test');
      assert.equal(one.statusCode, 200);
      const inLive = await asSession('GET', '/collect/payments', owner.access, owner.merchantId, 'live');
      assert.equal(inLive.statusCode, 200);
      assert.deepEqual(inLive.json().data, []);
      const liveOne = await asSession('GET', `/collect/payments/${owner.payment.id}`, owner.access, owner.merchantId, 'live');
      assert.equal(liveOne.statusCode, 404);
      const account = await asSession('GET', '/account', owner.access, owner.merchantId, 'live');
      assert.equal(account.statusCode, 200, account.body);
      assert.equal(account.json().environment, 'live');
      assert.equal(account.json().api_key.id, `session:${owner.userId}`, 'a session, not a key, is calling');
    });

    it('refuses another merchant, a bad environment and a session signed out everywhere', async () => {
      const owner = await ownerWithPayment();
      const other = await newOwner(call, dataDir);
      const foreign = await asSession('GET', `/collect/payments/${owner.payment.id}`, other.access, owner.merchantId);
      assert.equal(foreign.statusCode, 401);
      assert.equal(foreign.json().error.code, 'invalid_session');
      const badEnvironment = await asSession('GET', '/collect/payments', owner.access, owner.merchantId, 'production');
      assert.equal(badEnvironment.statusCode, 400);
      assert.equal(badEnvironment.json().error.code, 'invalid_environment');
      const forged = await asSession('GET', '/collect/payments', `${owner.access.slice(0, -4)}AAAA`, owner.merchantId);
      assert.equal(forged.statusCode, 401);
      await call('POST', '/auth/sign-out-everywhere', owner.access);
      const afterSignOut = await asSession('GET', '/collect/payments', owner.access, owner.merchantId);
      assert.equal(afterSignOut.statusCode, 401);
    });

    it('gives a viewer reads only: a refund is refused with insufficient_role and writes nothing', async () => {
      const owner = await ownerWithPayment();
      const email = `viewer-${Date.now()}@example.com`;
      await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role: 'viewer' });
      await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: 'Vi', password: PASSWORD });
      const viewer = (await call('POST', '/auth/sign-in', undefined, { email, password: PASSWORD })).json().access_token as string;
      const read = await asSession('GET', '/collect/payments', viewer, owner.merchantId);
      assert.equal(read.statusCode, 200);
      const refund = await asSession('POST', `/collect/payments/${owner.payment.id}/refunds`, viewer, owner.merchantId, 'test', { amount: 100 });
      assert.equal(refund.statusCode, 403, refund.body);
      assert.equal(refund.json().error.code, 'insufficient_role');
      const refunds = await asSession('GET', `/collect/payments/${owner.payment.id}/refunds`, owner.access, owner.merchantId);
      assert.deepEqual(refunds.json().data, []);
    });
  });
}
