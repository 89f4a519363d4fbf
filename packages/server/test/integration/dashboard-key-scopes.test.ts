/**
 * Keys made in a dashboard session on every database (docs/dashboard.md "Developers"): a key holds
 * at most its creator's role (empty means the creator's scopes, never every scope; more is 403
 * insufficient_role naming them), a live key may be made before KYC but holds no money-out scope
 * until the validation, and keys that exceed their creator's current role are listed by the API
 * and by `akwe keys over-scoped`. Keys made by the CLI keep "empty = every scope".
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Role } from '../../src/core/dashboard/permissions.js';
import { scopes, type Scope } from '../../src/core/merchants/scopes.js';
import { newId } from '../../src/core/shared/ids.js';
import { backfillKeyCreators } from '../../src/storage/migrations/0029-api-key-creator.js';
import { runAkweJson } from '../support/child-process.js';
import { dashboardCall, mailedToken, newOwner as newOwnerIn, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Environment = 'test' | 'live';

const reads: Scope[] = ['collect:read', 'payout:read', 'bulk:read', 'transfers:read', 'settlements:read', 'webhooks:read', 'payment_links:read'];
const moneyOut: Scope[] = ['collect:refund', 'payout:write', 'bulk:write', 'transfers:write', 'settlements:write'];
/** The roles table of docs/dashboard.md ("The API from the dashboard"), written out here so the test does not read the code it checks. */
const roleScopes: Record<Role, Scope[]> = {
  owner: [...scopes],
  admin: [...scopes],
  developer: [...reads, 'collect:write', 'payment_links:write', 'webhooks:write'],
  finance: [...reads, 'collect:write', 'payment_links:write', ...moneyOut],
  viewer: reads,
};
const mayManageKeys: Record<Role, boolean> = { owner: true, admin: true, developer: true, finance: false, viewer: false };
const sorted = (list: readonly string[]) => [...list].sort();

for (const target of testDatabases()) {
  describe(`keys made in a dashboard session on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-keyscopes-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const newOwner = () => newOwnerIn(call, dataDir);
    const createKey = (merchantId: string, access: string, body: object, environment: Environment = 'test') =>
      call('POST', `/merchants/${merchantId}/keys`, access, body, environment);
    const listKeys = async (merchantId: string, access: string, environment: Environment = 'test') => {
      const res = await call('GET', `/merchants/${merchantId}/keys`, access, undefined, environment);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as Array<{ id: string; scopes: string[]; created_by: string | null; scopes_beyond_creator_role: string[] }>;
    };
    const withKey = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'idempotency-key': `k-${newId()}` } : {}) },
        ...(payload ? { payload } : {}),
      });
    async function member(owner: { access: string; merchantId: string }, role: Role) {
      if (role === 'owner') return { access: owner.access, userId: (await call('GET', '/me', owner.access)).json().user.id as string };
      const email = uniqueEmail(role);
      assert.equal((await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role })).statusCode, 202);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: role, password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const access = await signIn(call, email);
      return { access, userId: (await call('GET', '/me', access)).json().user.id as string };
    }

    describe('a key holds at most its creator’s role', () => {
      for (const role of ['owner', 'admin', 'developer', 'finance', 'viewer'] as const) {
        it(`${role}: empty, each scope and more than the role`, async () => {
          const owner = await newOwner();
          const who = await member(owner, role);
          const allowed = roleScopes[role];
          const outside = scopes.filter((scope) => !allowed.includes(scope));
          // What the keys page offers: exactly the role's scopes.
          const me = (await call('GET', '/me', who.access)).json() as { memberships: Array<{ merchant_id: string; key_scopes: Scope[] }> };
          assert.deepEqual(sorted(me.memberships.find((m) => m.merchant_id === owner.merchantId)!.key_scopes), sorted(allowed), `${role}: /me names the scopes its keys may hold`);
          const requests: Array<{ label: string; body: object; asked: Scope[] }> = [
            { label: 'absent', body: {}, asked: [] },
            { label: 'empty', body: { scopes: [] }, asked: [] },
            ...scopes.map((scope) => ({ label: scope, body: { scopes: [scope] }, asked: [scope] })),
            { label: 'the role and one more', body: { scopes: [...allowed, ...outside.slice(0, 1)] }, asked: [...allowed, ...outside.slice(0, 1)] },
            { label: 'every scope', body: { scopes: [...scopes] }, asked: [...scopes] },
          ];
          for (const request of requests) {
            const res = await createKey(owner.merchantId, who.access, request.body);
            const beyond = request.asked.filter((scope) => !allowed.includes(scope));
            if (!mayManageKeys[role]) {
              assert.equal(res.statusCode, 403, `${role} ${request.label}: ${res.body}`);
              assert.equal(res.json().error.code, 'insufficient_role');
            } else if (beyond.length > 0) {
              assert.equal(res.statusCode, 403, `${role} ${request.label}: ${res.body}`);
              assert.equal(res.json().error.code, 'insufficient_role', `${role} ${request.label}`);
              assert.equal(res.json().error.field, 'scopes');
              for (const scope of beyond) assert.ok(res.json().error.message.includes(scope), `${role} ${request.label}: the refusal names ${scope}`);
            } else {
              assert.equal(res.statusCode, 201, `${role} ${request.label}: ${res.body}`);
              const expected = request.asked.length === 0 ? allowed : request.asked;
              assert.deepEqual(sorted(res.json().scopes), sorted(expected), `${role} ${request.label}: the key holds exactly this`);
              assert.notDeepEqual(res.json().scopes, [], 'never the empty list (every scope)');
              assert.equal(res.json().created_by, who.userId);
            }
          }
          // Refusals wrote nothing: as many keys as 201 answers.
          const expectedKeys = mayManageKeys[role] ? requests.filter((r) => r.asked.every((scope) => allowed.includes(scope))).length : 0;
          assert.equal((await listKeys(owner.merchantId, owner.access)).length, expectedKeys);
        });
      }

      it('a developer’s live key with no scopes can neither pay out nor transfer', async () => {
        const owner = await newOwner();
        await t.services.merchants.updateMerchant(owner.merchantId, { kycStatus: 'validated' }, { actor: 'test' });
        const developer = await member(owner, 'developer');
        const created = await createKey(owner.merchantId, developer.access, {}, 'live');
        assert.equal(created.statusCode, 201, created.body);
        const key = created.json().secret as string;
        const payout = await withKey('POST', '/payout/mobile-money/', key, {
          amount: 20_000_000,
          phone: '0197000000',
          country: 'BJ',
          operator: 'mtn_bj',
          reference: `P-${newId()}`,
        });
        assert.equal(payout.statusCode, 403, payout.body);
        assert.equal(payout.json().error.code, 'insufficient_scope');
        const transfer = await withKey('POST', '/transfers', key, { amount: 1000, currency: 'XOF', destination_merchant: newId() });
        assert.equal(transfer.statusCode, 403, transfer.body);
        assert.equal(transfer.json().error.code, 'insufficient_scope');
        assert.equal((await withKey('GET', '/collect/payments', key)).statusCode, 200, 'it reads, as its creator may');
      });

      it('keys made by the CLI keep an empty list meaning every scope', async () => {
        const merchant = await t.newMerchant({ kyc: 'pending' });
        const issued = await t.services.merchants.createKey({ merchantId: merchant.merchantId, environment: 'live' });
        assert.deepEqual(issued.key.scopes, []);
        assert.equal(issued.key.createdByUserId, null);
      });
    });

    describe('a live key before KYC validation', () => {
      it('is made with collection scopes only; asking for money out is kyc_required; validation gives new keys more, never old ones', async () => {
        const owner = await newOwner();
        const before = await createKey(owner.merchantId, owner.access, {}, 'live');
        assert.equal(before.statusCode, 201, before.body);
        assert.match(before.json().secret, /^ak_live_/);
        const collectionOnly = scopes.filter((scope) => !moneyOut.includes(scope));
        assert.deepEqual(sorted(before.json().scopes), sorted(collectionOnly));

        for (const scope of moneyOut) {
          const refused = await createKey(owner.merchantId, owner.access, { scopes: ['collect:write', scope] }, 'live');
          assert.equal(refused.statusCode, 403, refused.body);
          assert.equal(refused.json().error.code, 'kyc_required');
          assert.ok(refused.json().error.message.includes(scope), `names ${scope}`);
        }
        const collect = await createKey(owner.merchantId, owner.access, { scopes: ['collect:read', 'collect:write'] }, 'live');
        assert.equal(collect.statusCode, 201, collect.body);
        assert.equal((await listKeys(owner.merchantId, owner.access, 'live')).length, 2, 'refusals wrote nothing');
        // A test key needs no KYC, money out included.
        const testKey = await createKey(owner.merchantId, owner.access, { scopes: ['payout:write'] });
        assert.equal(testKey.statusCode, 201, testKey.body);

        const key = before.json().secret as string;
        const payment = await withKey('POST', '/collect/payments', key, {
          reference: `K-${newId()}`,
          amount: 1000,
          currency: 'XOF',
          country: 'BJ',
          mode: 'direct',
          customer: { phone: '0197000000' },
          operator: 'mtn_bj',
        });
        assert.notEqual(payment.statusCode, 403, `collection is not refused by scope or KYC: ${payment.body}`);

        await t.services.merchants.updateMerchant(owner.merchantId, { kycStatus: 'validated' }, { actor: 'test' });
        const after = await createKey(owner.merchantId, owner.access, {}, 'live');
        assert.equal(after.statusCode, 201, after.body);
        assert.deepEqual(sorted(after.json().scopes), sorted(scopes), 'after validation: the owner’s every scope, listed');
        const old = (await listKeys(owner.merchantId, owner.access, 'live')).find((k) => k.id === before.json().id);
        assert.deepEqual(sorted(old!.scopes), sorted(collectionOnly), 'a key made before the validation gains nothing');
        const payout = await withKey('POST', '/payout/mobile-money/', key, { amount: 10_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `P-${newId()}` });
        assert.equal(payout.statusCode, 403);
        assert.equal(payout.json().error.code, 'insufficient_scope');
      });
    });

    describe('keys beyond their creator’s current role', () => {
      it('are marked in the list and listed by akwe keys over-scoped, and a backfilled creator counts', async () => {
        const owner = await newOwner();
        const admin = await member(owner, 'admin');
        const developer = await member(owner, 'developer');
        const adminKey = (await createKey(owner.merchantId, admin.access, {})).json();
        const developerKey = (await createKey(owner.merchantId, developer.access, { scopes: ['collect:read', 'collect:write'] })).json();
        const ownerKey = (await createKey(owner.merchantId, owner.access, { scopes: ['collect:read'] })).json();
        const revokedKey = (await createKey(owner.merchantId, admin.access, {})).json();
        const cliKey = await t.services.merchants.createKey({ merchantId: owner.merchantId, environment: 'test' });
        assert.equal((await call('DELETE', `/merchants/${owner.merchantId}/keys/${revokedKey.id}`, owner.access)).statusCode, 200);
        for (const row of await listKeys(owner.merchantId, owner.access)) assert.deepEqual(row.scopes_beyond_creator_role, [], 'nothing beyond yet');

        // The admin becomes a viewer; the developer leaves the merchant.
        assert.equal((await call('PATCH', `/merchants/${owner.merchantId}/members/${admin.userId}`, owner.access, { role: 'viewer' })).statusCode, 200);
        assert.equal((await call('DELETE', `/merchants/${owner.merchantId}/members/${developer.userId}`, owner.access)).statusCode, 204);

        const rows = new Map((await listKeys(owner.merchantId, owner.access)).map((row) => [row.id, row]));
        assert.deepEqual(sorted(rows.get(adminKey.id)!.scopes_beyond_creator_role), sorted(scopes.filter((s) => !reads.includes(s))));
        assert.deepEqual(sorted(rows.get(developerKey.id)!.scopes_beyond_creator_role), ['collect:read', 'collect:write'], 'a creator who left holds nothing');
        assert.deepEqual(rows.get(ownerKey.id)!.scopes_beyond_creator_role, []);
        assert.deepEqual(rows.get(revokedKey.id)!.scopes_beyond_creator_role, [], 'a revoked key holds nothing');
        assert.deepEqual(rows.get(cliKey.key.id)!.scopes_beyond_creator_role, [], 'a CLI key has no creator to exceed');
        assert.equal(rows.get(cliKey.key.id)!.created_by, null);

        // A key made in a session before creators were recorded: its creator comes from the audit log.
        await t.db.database.db.updateTable('api_keys').set({ created_by_user_id: null }).where('id', '=', adminKey.id).execute();
        await backfillKeyCreators(t.db.database.db);
        const backfilled = await t.db.database.db.selectFrom('api_keys').select('created_by_user_id').where('id', '=', adminKey.id).executeTakeFirstOrThrow();
        assert.equal(backfilled.created_by_user_id, admin.userId);
        const cliRow = await t.db.database.db.selectFrom('api_keys').select('created_by_user_id').where('id', '=', cliKey.key.id).executeTakeFirstOrThrow();
        assert.equal(cliRow.created_by_user_id, null, 'a key with no audit row stays a CLI key');

        const env = { DATABASE_URL: t.db.url, AKWE_DATA_DIR: dataDir };
        const listed = await runAkweJson<Array<{ id: string; creator_role: string | null; scopes_beyond_creator_role: string[] }>>(
          ['keys', 'over-scoped', '--merchant', owner.merchantId, '--json'],
          { env, cwd: dataDir },
        );
        assert.deepEqual(sorted(listed.map((k) => k.id)), sorted([adminKey.id, developerKey.id]));
        assert.equal(listed.find((k) => k.id === adminKey.id)!.creator_role, 'viewer');
        assert.equal(listed.find((k) => k.id === developerKey.id)!.creator_role, null);
        const everywhere = await runAkweJson<Array<{ id: string }>>(['keys', 'over-scoped', '--json'], { env, cwd: dataDir });
        assert.ok(
          listed.every((k) => everywhere.some((e) => e.id === k.id)),
          'without --merchant, every merchant’s',
        );
        assert.ok(!everywhere.some((e) => e.id === ownerKey.id));
      });
    });
  });
}
