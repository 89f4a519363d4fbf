/**
 * Invitations (docs/dashboard.md "Team and roles"): listed with their status, revocable, expiring
 * after 7 days, and void once their inviter is removed or loses the right to invite; accepting
 * checks all of it again, and a link works once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dashboardCall, mailedToken, newOwner, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Invitation = { id: string; email: string; role: string; status: string; invited_by: string; revoked_by: string | null };
type Who = { access: string; merchantId: string; userId: string };

for (const target of testDatabases()) {
  describe(`dashboard invitations on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;
    let clockOffsetMs = 0;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-invitations-'));
      t = await buildTestApp(target, {
        env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
        clock: { now: () => new Date(Date.now() + clockOffsetMs) },
      });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const invite = async (by: Who, role: string) => {
      const email = uniqueEmail(role);
      const res = await call('POST', `/merchants/${by.merchantId}/invitations`, by.access, { email, role });
      assert.equal(res.statusCode, 202, res.body);
      return email;
    };
    const accept = (email: string) =>
      call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: 'Invited', password: PASSWORD });
    const invitations = async (by: Who, status?: string) => {
      const res = await call('GET', `/merchants/${by.merchantId}/invitations${status ? `?status=${status}` : ''}`, by.access);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as Invitation[];
    };
    const invitationOf = async (by: Who, email: string) => (await invitations(by)).find((each) => each.email === email.toLowerCase())!;
    const members = async (by: Who) => ((await call('GET', `/merchants/${by.merchantId}/members`, by.access)).json().data as Array<{ email: string }>).map((m) => m.email);
    async function member(owner: Who, role: string): Promise<Who> {
      const email = await invite(owner, role);
      assert.equal((await accept(email)).statusCode, 200);
      const access = await signIn(call, email);
      return { access, merchantId: owner.merchantId, userId: (await call('GET', '/me', access)).json().user.id as string };
    }

    it('lists the invitations with their status to members who manage the team, and revokes a pending one for good', async () => {
      const owner = await newOwner(call, dataDir);
      const admin = await member(owner, 'admin');
      const viewer = await member(owner, 'viewer');
      const email = await invite(owner, 'finance');
      const ownerInvite = await invite(owner, 'owner');
      const listed = await invitationOf(owner, email);
      assert.deepEqual([listed.role, listed.status, listed.invited_by], ['finance', 'pending', owner.userId]);
      assert.deepEqual(
        (await invitations(owner, 'pending')).map((each) => each.email),
        [ownerInvite, email].map((each) => each.toLowerCase()),
        'newest first, accepted ones left out',
      );
      assert.equal((await call('GET', `/merchants/${owner.merchantId}/invitations`, viewer.access)).json().error.code, 'insufficient_role');
      const stranger = await newOwner(call, dataDir);
      assert.equal((await call('GET', `/merchants/${owner.merchantId}/invitations`, stranger.access)).statusCode, 404);
      assert.equal(
        (await call('DELETE', `/merchants/${stranger.merchantId}/invitations/${listed.id}`, stranger.access)).statusCode,
        404,
        'another merchant’s invitation is unknown',
      );

      const byAdmin = await call('DELETE', `/merchants/${owner.merchantId}/invitations/${(await invitationOf(owner, ownerInvite)).id}`, admin.access);
      assert.equal(byAdmin.statusCode, 403, 'an invitation as owner is revoked by owners only');
      const revoked = await call('DELETE', `/merchants/${owner.merchantId}/invitations/${listed.id}`, admin.access);
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.equal(revoked.json().status, 'revoked');
      assert.equal(revoked.json().revoked_by, admin.userId);
      const again = await call('DELETE', `/merchants/${owner.merchantId}/invitations/${listed.id}`, owner.access);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().error.code, 'invitation_not_pending');

      const late = await accept(email);
      assert.equal(late.statusCode, 410, late.body);
      assert.equal(late.json().error.code, 'invitation_revoked');
      assert.ok(!(await members(owner)).includes(email.toLowerCase()), 'no membership made');
      assert.equal((await invitationOf(owner, email)).status, 'revoked');
      const log = (await call('GET', `/merchants/${owner.merchantId}/audit-log?limit=100`, owner.access)).json().data as Array<{ action: string; user_id: string }>;
      assert.ok(log.some((entry) => entry.action === 'invitation.revoked' && entry.user_id === admin.userId));
    });

    it('voids the invitations of an inviter who is removed: the new address never becomes an admin', async () => {
      const owner = await newOwner(call, dataDir);
      const admin = await member(owner, 'admin');
      const email = await invite(admin, 'admin');
      assert.equal((await call('DELETE', `/merchants/${owner.merchantId}/members/${admin.userId}`, owner.access)).statusCode, 204);
      assert.equal((await invitationOf(owner, email)).status, 'lapsed');
      const accepted = await accept(email);
      assert.equal(accepted.statusCode, 410, accepted.body);
      assert.equal(accepted.json().error.code, 'invitation_inviter_not_allowed');
      assert.ok(!(await members(owner)).includes(email.toLowerCase()));
      const signedIn = await call('POST', '/auth/sign-in', undefined, { email, password: PASSWORD });
      assert.equal(signedIn.statusCode, 401, 'no account was made either');
    });

    it('voids the invitations of an inviter who loses the right to invite, or to invite that role', async () => {
      const owner = await newOwner(call, dataDir);
      const admin = await member(owner, 'admin');
      const coOwner = await member(owner, 'owner');
      const byAdmin = await invite(admin, 'finance');
      const byCoOwner = await invite(coOwner, 'owner');
      const stillFine = await invite(coOwner, 'developer');
      assert.equal((await call('PATCH', `/merchants/${owner.merchantId}/members/${admin.userId}`, owner.access, { role: 'viewer' })).statusCode, 200);
      assert.equal((await call('PATCH', `/merchants/${owner.merchantId}/members/${coOwner.userId}`, owner.access, { role: 'admin' })).statusCode, 200);
      assert.deepEqual(
        [await invitationOf(owner, byAdmin), await invitationOf(owner, byCoOwner), await invitationOf(owner, stillFine)].map((each) => each.status),
        ['lapsed', 'lapsed', 'pending'],
      );
      for (const email of [byAdmin, byCoOwner]) {
        const refused = await accept(email);
        assert.equal(refused.statusCode, 410, refused.body);
        assert.equal(refused.json().error.code, 'invitation_inviter_not_allowed');
      }
      assert.equal((await accept(stillFine)).statusCode, 200, 'an admin may still invite a developer');
      const roles = (await call('GET', `/merchants/${owner.merchantId}/members`, owner.access)).json().data as Array<{ email: string; role: string }>;
      assert.deepEqual(
        roles.filter((m) => [byAdmin, byCoOwner, stillFine].map((e) => e.toLowerCase()).includes(m.email)).map((m) => m.role),
        ['developer'],
      );
    });

    it('expires an invitation after 7 days, and a link works once', async () => {
      const owner = await newOwner(call, dataDir);
      const once = await invite(owner, 'viewer');
      const first = await accept(once);
      assert.equal(first.statusCode, 200, first.body);
      const twice = await accept(once);
      assert.equal(twice.statusCode, 400);
      assert.equal(twice.json().error.code, 'invalid_email_token');
      assert.equal((await invitationOf(owner, once)).status, 'accepted');
      const revokeAccepted = await call('DELETE', `/merchants/${owner.merchantId}/invitations/${(await invitationOf(owner, once)).id}`, owner.access);
      assert.equal(revokeAccepted.json().error.code, 'invitation_not_pending');

      const email = await invite(owner, 'finance');
      clockOffsetMs += 7 * 24 * 3_600_000 + 1_000;
      try {
        // A week on, the owner's session has long ended too.
        owner.access = await signIn(call, owner.email);
        assert.equal((await invitationOf(owner, email)).status, 'expired');
        const expired = await accept(email);
        assert.equal(expired.statusCode, 410, expired.body);
        assert.equal(expired.json().error.code, 'invitation_expired');
        assert.ok(!(await members(owner)).includes(email.toLowerCase()));
      } finally {
        clockOffsetMs = 0;
      }
    });
  });
}
