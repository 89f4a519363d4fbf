/**
 * The dashboard's developers section on every database: API keys created, used and revoked from
 * the dashboard, live keys held back until KYC is validated, webhook endpoints that really
 * receive deliveries, roles and merchants enforced on every route, and the audit log.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { Role } from '../../src/core/dashboard/permissions.js';
import { newId } from '../../src/core/shared/ids.js';
import { renderDelivery } from '../../src/http/contracts/index.js';
import { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../../src/webhooks/webhook-senders.js';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { dashboardCall, mailedToken as mailedTokenIn, newOwner as newOwnerIn, PASSWORD, signIn as signInAs, uniqueEmail, type DashboardMethod } from '../support/dashboard.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

type Method = DashboardMethod;

for (const target of testDatabases()) {
  describe(`dashboard developers section on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-dashdev-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const withKey = (method: Method, url: string, key: string) => t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });
    const mailedToken = (email: string, page: string) => mailedTokenIn(dataDir, email, page);
    const signIn = (email: string) => signInAs(call, email);
    /** An owner with a merchant of their own (KYC pending, as after sign-up). */
    const newOwner = () => newOwnerIn(call, dataDir);
    const newMember = async (owner: { access: string; merchantId: string }, role: Role) => {
      const email = uniqueEmail(role);
      assert.equal((await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role })).statusCode, 202);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(email, 'accept-invitation'), name: role, password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const access = await signIn(email);
      return { access, userId: (await call('GET', '/me', access)).json().user.id as string };
    };
    const auditActions = async (owner: { access: string; merchantId: string }) => {
      const res = await call('GET', `/merchants/${owner.merchantId}/audit-log?limit=100`, owner.access);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as Array<{ action: string; user_id: string; target: string }>;
    };

    describe('API keys', () => {
      it('a developer creates a test key that works at once, shown once, and its revocation refuses it right after', async () => {
        const owner = await newOwner();
        const developer = await newMember(owner, 'developer');
        const created = await call('POST', `/merchants/${owner.merchantId}/keys`, developer.access, { scopes: ['collect:read'] });
        assert.equal(created.statusCode, 201, created.body);
        const key = created.json();
        assert.match(key.secret, /^ak_test_[A-Za-z0-9_-]{43}$/);
        assert.equal(key.environment, 'test');
        assert.deepEqual(key.scopes, ['collect:read']);
        assert.equal(key.prefix, key.secret.slice(0, 12));
        assert.equal(key.last4, key.secret.slice(-4));
        assert.equal(created.headers['cache-control'], 'no-store');

        const account = await withKey('GET', '/account', key.secret);
        assert.equal(account.statusCode, 200, account.body);

        const listed = await call('GET', `/merchants/${owner.merchantId}/keys`, developer.access);
        assert.equal(listed.statusCode, 200);
        const row = listed.json().data.find((k: { id: string }) => k.id === key.id);
        assert.ok(row, 'the new key is listed');
        assert.equal(row.secret, undefined, 'the secret is never shown again');
        assert.ok(!listed.body.includes(key.secret));
        assert.equal(row.revoked_at, null);
        // The call above is recorded after its answer: the list shows it once written.
        let lastUsed: string | null = row.last_used_at;
        for (let i = 0; lastUsed === null && i < 50; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const again = await call('GET', `/merchants/${owner.merchantId}/keys`, developer.access);
          lastUsed = again.json().data.find((k: { id: string }) => k.id === key.id).last_used_at;
        }
        assert.ok(lastUsed && lastUsed >= key.created_at, 'last used is shown once the key was used');
        const live = await call('GET', `/merchants/${owner.merchantId}/keys`, developer.access, undefined, 'live');
        assert.ok(!live.json().data.some((k: { id: string }) => k.id === key.id), 'a test key is not listed in live');

        const revoked = await call('DELETE', `/merchants/${owner.merchantId}/keys/${key.id}`, developer.access);
        assert.equal(revoked.statusCode, 200, revoked.body);
        assert.ok(revoked.json().revoked_at);
        assert.equal((await withKey('GET', '/account', key.secret)).statusCode, 401);
        const again = await call('DELETE', `/merchants/${owner.merchantId}/keys/${key.id}`, developer.access);
        assert.equal(again.statusCode, 200);
        assert.equal(again.json().revoked_at, revoked.json().revoked_at, 'the first revocation time stays');

        const actions = await auditActions(owner);
        const created_ = actions.find((a) => a.action === 'api_key.created' && a.target.startsWith(key.id));
        const revoked_ = actions.find((a) => a.action === 'api_key.revoked' && a.target.startsWith(key.id));
        assert.equal(created_?.user_id, developer.userId);
        assert.equal(revoked_?.user_id, developer.userId);
        assert.ok(actions.indexOf(revoked_!) < actions.indexOf(created_!), 'newest first');
        assert.equal(actions.filter((a) => a.action === 'api_key.revoked').length, 1, 'revoking again writes no second row');
      });

      it('makes a live key before the KYC is validated, without money-out scopes until then', async () => {
        const owner = await newOwner();
        const refused = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, { scopes: ['payout:write'] }, 'live');
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().error.code, 'kyc_required');
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/keys`, owner.access, undefined, 'live')).json().data.length, 0, 'nothing created');
        const early = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {}, 'live');
        assert.equal(early.statusCode, 201, early.body);
        assert.match(early.json().secret, /^ak_live_/);
        assert.ok(!early.json().scopes.includes('payout:write'), 'collection scopes only');
        await t.services.merchants.updateMerchant(owner.merchantId, { kycStatus: 'validated' }, { actor: 'test' });
        const created = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {}, 'live');
        assert.equal(created.statusCode, 201, created.body);
        assert.ok(created.json().scopes.includes('payout:write'), 'the owner’s scopes, money out included');
      });

      it('refuses a viewer’s and a finance member’s writes, and refuses unknown scopes', async () => {
        const owner = await newOwner();
        const key = (await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {})).json();
        for (const role of ['viewer', 'finance'] as const) {
          const member = await newMember(owner, role);
          assert.equal((await call('GET', `/merchants/${owner.merchantId}/keys`, member.access)).statusCode, 200, 'any member reads');
          const create = await call('POST', `/merchants/${owner.merchantId}/keys`, member.access, {});
          assert.equal(create.statusCode, 403);
          assert.equal(create.json().error.code, 'insufficient_role');
          assert.equal((await call('DELETE', `/merchants/${owner.merchantId}/keys/${key.id}`, member.access)).statusCode, 403);
        }
        assert.equal((await withKey('GET', '/account', key.secret)).statusCode, 200, 'still working');
        const unknown = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, { scopes: ['collect:everything'] });
        assert.equal(unknown.statusCode, 400);
      });

      it('answers 404 for another merchant’s keys, from either side', async () => {
        const owner = await newOwner();
        const other = await newOwner();
        const key = (await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {})).json();
        assert.equal((await call('DELETE', `/merchants/${other.merchantId}/keys/${key.id}`, other.access)).statusCode, 404);
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/keys`, other.access)).statusCode, 404);
        assert.equal((await call('POST', `/merchants/${owner.merchantId}/keys`, other.access, {})).statusCode, 404);
        assert.equal((await call('DELETE', `/merchants/${owner.merchantId}/keys/${key.id}`, owner.access, undefined, 'live')).statusCode, 404, 'not in the other environment');
        assert.equal((await withKey('GET', '/account', key.secret)).statusCode, 200, 'still working');
      });
    });

    describe('webhook endpoints', () => {
      let receiver: WebhookReceiver;
      beforeEach(async () => {
        receiver = await startWebhookReceiver();
      });
      afterEach(() => receiver.close());

      const job = () =>
        new WebhookDeliveryJob(
          {
            store: t.services.webhookStore,
            webhooks: t.services.webhooks,
            senderFor: webhookSenders({ dev: true }),
            clock: t.services.clock,
            newId,
            publicUrl: 'http://localhost:8080',
            render: renderDelivery,
          },
          { timeoutMs: 2_000, random: () => 0.5 },
        );
      const pump = async (deliveryJob: WebhookDeliveryJob) => {
        while ((await t.services.webhooks.fanOut()) > 0);
        while ((await deliveryJob.runOnce()) > 0) await deliveryJob.drain();
        await deliveryJob.drain();
      };

      it('an endpoint created in the dashboard receives deliveries, listed with their tries, and a resend', async () => {
        const owner = await newOwner();
        const developer = await newMember(owner, 'developer');
        const created = await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints`, developer.access, {
          url: `${receiver.origin}/dash-hooks`,
          events: ['collect.payment.completed'],
        });
        assert.equal(created.statusCode, 201, created.body);
        const endpoint = created.json();
        assert.match(endpoint.secret, /^whsec_/);
        assert.equal(endpoint.environment, 'test');

        const key = (await call('POST', `/merchants/${owner.merchantId}/keys`, developer.access, {})).json();
        await collectClient(t.app, key.secret).createOk(direct());
        const deliveryJob = job();
        await pump(deliveryJob);
        const received = receiver.requests.filter((r) => r.url === '/dash-hooks');
        assert.equal(received.length, 1);
        const event = JSON.parse(received[0]!.body);
        assert.equal(event.type, 'collect.payment.completed');
        assert.equal(event.merchant_id, owner.merchantId);

        const viewer = await newMember(owner, 'viewer');
        const deliveries = await call('GET', `/merchants/${owner.merchantId}/webhook-endpoints/${endpoint.id}/deliveries`, viewer.access);
        assert.equal(deliveries.statusCode, 200, deliveries.body);
        assert.equal(deliveries.json().data.length, 1);
        const [delivery] = deliveries.json().data;
        assert.equal(delivery.event_id, event.id);
        assert.equal(delivery.status, 'succeeded');
        assert.equal(delivery.attempts_log[0].status_code, 200);

        // The same delivery from the event's side (the payment page shows where each event went).
        const ofEvent = await call('GET', `/merchants/${owner.merchantId}/events/${event.id}/deliveries`, viewer.access);
        assert.equal(ofEvent.statusCode, 200, ofEvent.body);
        assert.deepEqual(
          ofEvent.json().data.map((d: { id: string; attempts_log: unknown[] }) => [d.id, d.attempts_log.length]),
          [[delivery.id, 1]],
        );
        assert.deepEqual((await call('GET', `/merchants/${owner.merchantId}/events/${event.id}/deliveries`, viewer.access, undefined, 'live')).json().data, [], 'not in live');
        const stranger = await newOwner();
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/events/${event.id}/deliveries`, stranger.access)).statusCode, 404);
        assert.deepEqual((await call('GET', `/merchants/${stranger.merchantId}/events/${event.id}/deliveries`, stranger.access)).json().data, [], 'another merchant’s event');

        const listed = await call('GET', `/merchants/${owner.merchantId}/webhook-endpoints`, viewer.access);
        assert.equal(listed.statusCode, 200);
        assert.deepEqual(
          listed.json().data.map((e: { id: string; secret?: string }) => [e.id, e.secret]),
          [[endpoint.id, undefined]],
        );

        const resent = await call('POST', `/merchants/${owner.merchantId}/events/${event.id}/resend`, developer.access, { endpoint_id: endpoint.id });
        assert.equal(resent.statusCode, 202, resent.body);
        assert.equal(resent.json().data.length, 1);
        await pump(deliveryJob);
        assert.equal(receiver.requests.filter((r) => r.url === '/dash-hooks').length, 2, 'sent again');
        assert.equal((await call('POST', `/merchants/${owner.merchantId}/events/${event.id}/resend`, viewer.access, {})).statusCode, 403);
        const actions = (await auditActions(owner)).map((a) => a.action);
        assert.ok(actions.includes('event.resent'));
        assert.ok(actions.includes('webhook_endpoint.created'));
      });

      it('changes, disables, re-enables and rotates, each in the audit log; a viewer cannot', async () => {
        const owner = await newOwner();
        const created = (await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints`, owner.access, { url: 'https://shop.example/dash' })).json();
        const viewer = await newMember(owner, 'viewer');
        const base = `/merchants/${owner.merchantId}/webhook-endpoints`;
        assert.equal((await call('POST', base, viewer.access, { url: 'https://shop.example/v' })).statusCode, 403);
        assert.equal((await call('PATCH', `${base}/${created.id}`, viewer.access, { enabled: false })).statusCode, 403);
        assert.equal((await call('POST', `${base}/${created.id}/rotate-secret`, viewer.access, {})).statusCode, 403);

        const disabled = await call('PATCH', `${base}/${created.id}`, owner.access, { enabled: false, events: ['payout.*'] });
        assert.equal(disabled.statusCode, 200, disabled.body);
        assert.equal(disabled.json().enabled, false);
        assert.deepEqual(disabled.json().events, ['payout.*']);
        assert.equal(disabled.json().secret, undefined);
        assert.equal((await call('PATCH', `${base}/${created.id}`, owner.access, { enabled: true })).json().enabled, true);
        const rotated = await call('POST', `${base}/${created.id}/rotate-secret`, owner.access, { overlap_seconds: 0 });
        assert.equal(rotated.statusCode, 200, rotated.body);
        assert.match(rotated.json().secret, /^whsec_/);
        assert.notEqual(rotated.json().secret, created.secret);
        const badEvents = await call('PATCH', `${base}/${created.id}`, owner.access, { events: ['collect.payment.paid'] });
        assert.equal(badEvents.statusCode, 400);

        const actions = (await auditActions(owner)).filter((a) => a.target.startsWith(created.id)).map((a) => a.action);
        assert.deepEqual(actions, ['webhook_endpoint.secret_rotated', 'webhook_endpoint.updated', 'webhook_endpoint.updated', 'webhook_endpoint.created']);
      });

      it('answers 404 for another merchant’s endpoints and events, and for the other environment', async () => {
        const owner = await newOwner();
        const other = await newOwner();
        const created = (await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints`, owner.access, { url: 'https://shop.example/mine' })).json();
        const theirs = `/merchants/${other.merchantId}/webhook-endpoints/${created.id}`;
        assert.equal((await call('PATCH', theirs, other.access, { enabled: false })).statusCode, 404);
        assert.equal((await call('POST', `${theirs}/rotate-secret`, other.access, {})).statusCode, 404);
        assert.equal((await call('GET', `${theirs}/deliveries`, other.access)).statusCode, 404);
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/webhook-endpoints`, other.access)).statusCode, 404);
        assert.equal((await call('PATCH', `/merchants/${owner.merchantId}/webhook-endpoints/${created.id}`, owner.access, { enabled: false }, 'live')).statusCode, 404);
        assert.equal((await call('POST', `/merchants/${other.merchantId}/events/${newId()}/resend`, other.access, {})).statusCode, 404);
        const mine = await call('GET', `/merchants/${owner.merchantId}/webhook-endpoints`, owner.access);
        assert.equal(mine.json().data[0].enabled, true, 'unchanged');
      });
    });

    it('answers odd ids and bodies with a 4xx and changes nothing', async () => {
      const owner = await newOwner();
      const base = `/merchants/${owner.merchantId}`;
      const odd = ['not-an-id', newId().toUpperCase(), '%E2%82%AC', 'x'.repeat(64)];
      const requests: Array<[Method, string, object | undefined]> = [
        ['POST', `${base}/keys`, undefined],
        ['POST', `${base}/keys`, { scopes: 'collect:read' }],
        ['POST', `${base}/keys`, { scopes: [], extra: true }],
        ['POST', `${base}/webhook-endpoints`, { url: 'not a url' }],
        ['POST', `${base}/webhook-endpoints`, { url: 'ftp://shop.example/x' }],
        ...odd.flatMap((id): Array<[Method, string, object | undefined]> => [
          ['DELETE', `${base}/keys/${id}`, undefined],
          ['PATCH', `${base}/webhook-endpoints/${id}`, { enabled: false }],
          ['POST', `${base}/webhook-endpoints/${id}/rotate-secret`, {}],
          ['GET', `${base}/webhook-endpoints/${id}/deliveries`, undefined],
          ['POST', `${base}/events/${id}/resend`, {}],
          ['GET', `${base}/audit-log?starting_after=${id}`, undefined],
          ['GET', `${base}/webhook-endpoints?starting_after=${id}`, undefined],
        ]),
      ];
      for (const [method, url, payload] of requests) {
        const res = await call(method, url, owner.access, payload);
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${method} ${url}: ${res.statusCode} ${res.body}`);
        assert.ok(res.json().error?.code, `${method} ${url} answers an error code`);
      }
      assert.equal((await call('GET', `${base}/keys`, owner.access)).json().data.length, 0);
      assert.equal((await call('GET', `${base}/webhook-endpoints`, owner.access)).json().data.length, 0);
    });

    describe('audit log', () => {
      it('lists newest first with a cursor, for owners and admins only', async () => {
        const owner = await newOwner();
        for (let i = 0; i < 3; i++) assert.equal((await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {})).statusCode, 201);
        const first = await call('GET', `/merchants/${owner.merchantId}/audit-log?limit=2`, owner.access);
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(first.json().data.length, 2);
        assert.equal(first.json().has_more, true);
        const second = await call('GET', `/merchants/${owner.merchantId}/audit-log?limit=100&starting_after=${first.json().next_cursor}`, owner.access);
        assert.equal(second.json().has_more, false);
        assert.equal(second.json().next_cursor, null);
        const ids = [...first.json().data, ...second.json().data].map((e: { id: string }) => e.id);
        assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first, no repeats');
        assert.equal(new Set(ids).size, ids.length);
        const actions = [...first.json().data, ...second.json().data].map((e: { action: string }) => e.action);
        assert.deepEqual(actions.slice(0, 3), ['api_key.created', 'api_key.created', 'api_key.created']);
        assert.equal(actions.at(-1), 'user.signed_up');

        const admin = await newMember(owner, 'admin');
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/audit-log`, admin.access)).statusCode, 200);
        for (const role of ['developer', 'viewer'] as const) {
          const member = await newMember(owner, role);
          assert.equal((await call('GET', `/merchants/${owner.merchantId}/audit-log`, member.access)).statusCode, 403);
        }
        const bad = await call('GET', `/merchants/${owner.merchantId}/audit-log?starting_after=nonsense`, owner.access);
        assert.equal(bad.statusCode, 400);
        assert.equal(bad.json().error.code, 'invalid_cursor');
        const other = await newOwner();
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/audit-log`, other.access)).statusCode, 404);
      });
    });
  });
}
