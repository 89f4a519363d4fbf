/**
 * The dashboard's roles enforced route by route on every database: invitations and their
 * acceptance, role changes and removals (team.manage), a viewer's writes refused, another
 * merchant's ids refused as unknown, the last owner kept, and the audit rows written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Role } from '../../src/core/dashboard/permissions.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { dashboardCall, mailedToken as mailedTokenIn, newOwner as newOwnerIn, PASSWORD, signIn as signInAs, uniqueEmail } from '../support/dashboard.js';

for (const target of testDatabases()) {
  describe(`dashboard roles on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-dashboard-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const mailedToken = (email: string, page: string) => mailedTokenIn(dataDir, email, page);
    const signIn = (email: string) => signInAs(call, email);
    /** An owner with a merchant of their own. */
    const newOwner = () => newOwnerIn(call, dataDir);
    /** Someone invited into the merchant with a role, who accepted (creating their account) and signed in. */
    const newMember = async (owner: { access: string; merchantId: string }, role: Role) => {
      const email = uniqueEmail(role);
      const invited = await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role });
      assert.equal(invited.statusCode, 202, invited.body);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(email, 'accept-invitation'), name: role, password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.deepEqual(accepted.json(), { merchant_id: owner.merchantId, role });
      const access = await signIn(email);
      return { email, access, userId: (await call('GET', '/me', access)).json().user.id as string };
    };

    it('invites, and the accepted invitation makes a member with the role, listed for every member', async () => {
      const owner = await newOwner();
      const finance = await newMember(owner, 'finance');
      const me = await call('GET', '/me', finance.access);
      assert.deepEqual(
        me.json().memberships.map((m: { merchant_id: string; role: string }) => [m.merchant_id, m.role]),
        [[owner.merchantId, 'finance']],
      );
      const members = await call('GET', `/merchants/${owner.merchantId}/members`, finance.access);
      assert.equal(members.statusCode, 200);
      assert.deepEqual(
        members
          .json()
          .data.map((m: { email: string; role: string }) => [m.email, m.role])
          .sort(),
        [
          [owner.email, 'owner'],
          [finance.email, 'finance'],
        ].sort(),
      );
      const invitedAgain = await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email: finance.email, role: 'viewer' });
      assert.equal(invitedAgain.statusCode, 409);
      assert.equal(invitedAgain.json().error.code, 'already_member');
      const audit = await t.services.database.db.selectFrom('audit_log').select('action').where('merchant_id', '=', owner.merchantId).execute();
      assert.deepEqual(audit.map((row) => row.action).sort(), ['invitation.accepted', 'invitation.created', 'user.signed_up']);
    });

    it('refuses team.manage routes to roles without it, and allows them to owner and admin', async () => {
      const owner = await newOwner();
      const admin = await newMember(owner, 'admin');
      const target = await newMember(owner, 'viewer');
      for (const role of ['developer', 'finance', 'viewer'] as const) {
        const member = await newMember(owner, role);
        const attempts = [
          await call('POST', `/merchants/${owner.merchantId}/invitations`, member.access, { email: uniqueEmail('x'), role: 'viewer' }),
          await call('PATCH', `/merchants/${owner.merchantId}/members/${target.userId}`, member.access, { role: 'admin' }),
          await call('DELETE', `/merchants/${owner.merchantId}/members/${target.userId}`, member.access),
        ];
        for (const attempt of attempts) {
          assert.equal(attempt.statusCode, 403, `${role}: ${attempt.body}`);
          assert.equal(attempt.json().error.code, 'insufficient_role');
        }
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/members`, member.access)).statusCode, 200, `${role} reads`);
      }
      const changed = await call('PATCH', `/merchants/${owner.merchantId}/members/${target.userId}`, admin.access, { role: 'developer' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().role, 'developer');
      const unowner = await call('PATCH', `/merchants/${owner.merchantId}/members/${owner.userId}`, admin.access, { role: 'viewer' });
      assert.equal(unowner.statusCode, 403, 'an admin cannot demote an owner');
      const makeOwner = await call('POST', `/merchants/${owner.merchantId}/invitations`, admin.access, { email: uniqueEmail('o'), role: 'owner' });
      assert.equal(makeOwner.statusCode, 403, 'nor invite one');
      assert.equal((await call('DELETE', `/merchants/${owner.merchantId}/members/${target.userId}`, owner.access)).statusCode, 204);
      assert.equal((await call('GET', `/merchants/${owner.merchantId}/members`, target.access)).statusCode, 404, 'a removed member sees the merchant no more');
      const roleChanges = await t.services.database.db
        .selectFrom('audit_log')
        .select('action')
        .where('merchant_id', '=', owner.merchantId)
        .where('action', 'in', ['member.role_changed', 'member.removed'])
        .execute();
      assert.equal(roleChanges.length, 2);
    });

    it('refuses another merchant’s ids as unknown, whatever the caller’s role elsewhere', async () => {
      const mine = await newOwner();
      const theirs = await newOwner();
      const theirMember = await newMember(theirs, 'viewer');
      const attempts = [
        await call('GET', `/merchants/${theirs.merchantId}/members`, mine.access),
        await call('POST', `/merchants/${theirs.merchantId}/invitations`, mine.access, { email: uniqueEmail('x'), role: 'admin' }),
        await call('PATCH', `/merchants/${theirs.merchantId}/members/${theirMember.userId}`, mine.access, { role: 'admin' }),
        await call('DELETE', `/merchants/${theirs.merchantId}/members/${theirMember.userId}`, mine.access),
        // Their member's id under my merchant: not my member.
        await call('PATCH', `/merchants/${mine.merchantId}/members/${theirMember.userId}`, mine.access, { role: 'admin' }),
      ];
      for (const attempt of attempts) {
        assert.equal(attempt.statusCode, 404, attempt.body);
        assert.equal(attempt.json().error.code, 'not_found');
      }
      const still = await call('GET', `/merchants/${theirs.merchantId}/members`, theirs.access);
      assert.deepEqual(
        still
          .json()
          .data.map((m: { role: string }) => m.role)
          .sort(),
        ['owner', 'viewer'],
        'nothing changed',
      );
    });

    it('keeps the last owner: no demotion or removal leaves a merchant without one', async () => {
      const owner = await newOwner();
      for (const attempt of [
        await call('PATCH', `/merchants/${owner.merchantId}/members/${owner.userId}`, owner.access, { role: 'admin' }),
        await call('DELETE', `/merchants/${owner.merchantId}/members/${owner.userId}`, owner.access),
      ]) {
        assert.equal(attempt.statusCode, 409, attempt.body);
        assert.equal(attempt.json().error.code, 'last_owner');
      }
      const second = await newMember(owner, 'owner');
      assert.equal((await call('PATCH', `/merchants/${owner.merchantId}/members/${owner.userId}`, second.access, { role: 'admin' })).statusCode, 200);
    });

    it('lets an existing user accept an invitation to a second merchant without a new password', async () => {
      const first = await newOwner();
      const second = await newOwner();
      await call('POST', `/merchants/${second.merchantId}/invitations`, second.access, { email: first.email, role: 'developer' });
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(first.email, 'accept-invitation') });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const roles = (await call('GET', '/me', first.access)).json().memberships.map((m: { role: string }) => m.role);
      assert.deepEqual(roles.sort(), ['developer', 'owner']);
    });
  });
}
