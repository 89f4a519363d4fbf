/**
 * The dashboard's sessions under attack (docs/dashboard.md "Sessions"), on every database: a TOTP
 * code and a sign-in challenge work once, a password reset voids the other reset links, parallel
 * wrong passwords get no more checks than the lock allows, a reset request does the same work for
 * any address, and signing out ends that session's access token at once, on the dashboard and on
 * the merchant API.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DashboardService, type DashboardServiceDeps } from '../../src/core/dashboard/dashboard-service.js';
import type { DashboardStore } from '../../src/core/dashboard/dashboard-user.js';
import type { Mail } from '../../src/core/dashboard/mailer.js';
import { totpCode } from '../../src/core/dashboard/totp.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD, uniqueEmail } from '../support/dashboard.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const STEP_MS = 30_000;
const origin = { ip: '203.0.113.9', userAgent: 'test' };

for (const target of testDatabases()) {
  describe(`dashboard sessions on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;
    // A clock the test moves, so TOTP steps are chosen rather than waited for.
    const clock = new FakeClock(new Date('2026-11-27T10:00:05.000Z'));

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-sessions-'));
      t = await buildTestApp(target, { clock, env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const post = (url: string, payload?: object, headers: Record<string, string> = {}, remoteAddress?: string) =>
      t.app.inject({ method: 'POST', url: `/api/v1/dashboard${url}`, headers, ...(payload ? { payload } : {}), ...(remoteAddress ? { remoteAddress } : {}) });
    const me = (access: string) => call('GET', '/me', access);
    const refreshCookieOf = (response: { headers: Record<string, unknown> }) => {
      const raw = response.headers['set-cookie'];
      const cookie = (Array.isArray(raw) ? (raw as string[]) : [String(raw)]).find((c) => c.startsWith('akwe_refresh='))!;
      return decodeURIComponent(cookie.split(';')[0]!.slice('akwe_refresh='.length));
    };
    const signInSession = async (email: string) => {
      const res = await post('/auth/sign-in', { email, password: PASSWORD });
      assert.equal(res.statusCode, 200, res.body);
      return { access: res.json().access_token as string, csrf: res.json().csrf_token as string, refresh: refreshCookieOf(res) };
    };

    /** An owner with TOTP on, confirmed with the code of the current step; answers the secret. */
    async function ownerWithTotp() {
      const owner = await newOwner(call, dataDir);
      const enrol = await call('POST', '/me/totp', owner.access);
      assert.equal(enrol.statusCode, 200, enrol.body);
      const secret = enrol.json().secret as string;
      const confirmed = await call('POST', '/me/totp/confirm', owner.access, { code: totpCode(secret, clock.now()) });
      assert.equal(confirmed.statusCode, 204, confirmed.body);
      return { ...owner, secret };
    }
    const challengeFor = async (email: string) => {
      const res = await post('/auth/sign-in', { email, password: PASSWORD });
      assert.equal(res.json().totp_required, true, res.body);
      return res.json().challenge_token as string;
    };

    it('accepts a TOTP code once: the same challenge and code again, another challenge with it, or a spent challenge get no session', async () => {
      const owner = await ownerWithTotp();
      clock.advance(STEP_MS);
      const code = totpCode(owner.secret, clock.now());
      const challenge = await challengeFor(owner.email);
      const first = await post('/auth/totp', { challenge_token: challenge, code });
      assert.equal(first.statusCode, 200, first.body);
      const replay = await post('/auth/totp', { challenge_token: challenge, code });
      assert.equal(replay.statusCode, 401, 'the same challenge and code give no second session');
      assert.equal(replay.json().error.code, 'invalid_credentials');
      const otherChallenge = await challengeFor(owner.email);
      assert.equal((await post('/auth/totp', { challenge_token: otherChallenge, code })).statusCode, 401, 'a used code is refused with a new challenge too');
      clock.advance(STEP_MS);
      const nextCode = totpCode(owner.secret, clock.now());
      assert.equal((await post('/auth/totp', { challenge_token: challenge, code: nextCode })).statusCode, 401, 'a used challenge is spent, even with a fresh code');
      assert.equal((await post('/auth/totp', { challenge_token: await challengeFor(owner.email), code: nextCode })).statusCode, 200, 'a new challenge and a new code work');
      const sessions = await t.services.database.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', owner.userId).execute();
      assert.equal(sessions.length, 3, 'the sign-up session and the two TOTP sign-ins, nothing more');
      // A code used to sign in cannot be used again, to turn TOTP off either.
      assert.equal((await call('POST', '/me/totp/disable', owner.access, { code: nextCode })).statusCode, 400);
    });

    it('gives one session to two parallel requests with the same challenge and code', async () => {
      const owner = await ownerWithTotp();
      clock.advance(STEP_MS);
      const challenge = await challengeFor(owner.email);
      const code = totpCode(owner.secret, clock.now());
      const answers = await Promise.all(Array.from({ length: 6 }, () => post('/auth/totp', { challenge_token: challenge, code })));
      const statuses = answers.map((a) => a.statusCode);
      assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${statuses.join(' ')}`);
      // The others: refused (401), or not even checked (429: the address's allowance is taken by those in flight).
      assert.ok(
        statuses.every((s) => s === 200 || s === 401 || s === 429),
        `statuses: ${statuses.join(' ')}`,
      );
      const sessions = await t.services.database.db.selectFrom('refresh_tokens').select('id').where('user_id', '=', owner.userId).execute();
      assert.equal(sessions.length, 2, 'the sign-up session and one TOTP sign-in');
    });

    it('voids every other reset link when a password is reset', async () => {
      const owner = await newOwner(call, dataDir);
      assert.equal((await post('/auth/password-reset', { email: owner.email })).statusCode, 202);
      await t.services.dashboard.mailsSent();
      const first = mailedToken(dataDir, owner.email, 'password-reset');
      clock.advance(1000);
      await new Promise((resolve) => setTimeout(resolve, 5)); // the mailbox names its files by the real time
      assert.equal((await post('/auth/password-reset', { email: owner.email })).statusCode, 202);
      await t.services.dashboard.mailsSent();
      const second = mailedToken(dataDir, owner.email, 'password-reset');
      assert.notEqual(first, second);
      assert.equal((await post('/auth/password-reset/complete', { token: second, password: 'a brand new password' })).statusCode, 204);
      const stale = await post('/auth/password-reset/complete', { token: first, password: 'the attacker password' });
      assert.equal(stale.statusCode, 400, 'the older link died with the reset');
      assert.equal(stale.json().error.code, 'invalid_email_token');
      assert.equal((await post('/auth/sign-in', { email: owner.email, password: 'a brand new password' })).statusCode, 200);
      const open = await t.services.database.db
        .selectFrom('email_tokens')
        .select('id')
        .where('user_id', '=', owner.userId)
        .where('purpose', '=', 'reset')
        .where('used_at', 'is', null)
        .execute();
      assert.deepEqual(open, []);
    });

    it('checks at most five passwords of 40 wrong ones sent in parallel for one address', async () => {
      const owner = await newOwner(call, dataDir);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => post('/auth/sign-in', { email: owner.email, password: `wrong password ${i}` }, {}, `198.51.100.${i + 1}`)),
      );
      const statuses = answers.map((a) => a.statusCode);
      assert.equal(statuses.filter((s) => s === 401).length, 5, `statuses: ${statuses.join(' ')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 35);
      assert.ok(answers.filter((a) => a.statusCode === 429).every((a) => Number(a.headers['retry-after']) >= 1));
      // Every password checked and wrong writes one sign_in.failed row: the checks that ran.
      const checked = await t.services.database.db.selectFrom('audit_log').select('id').where('action', '=', 'sign_in.failed').where('target', '=', owner.email).execute();
      assert.equal(checked.length, 5);
      const locked = await post('/auth/sign-in', { email: owner.email, password: PASSWORD }, {}, '198.51.100.200');
      assert.equal(locked.statusCode, 429, 'the address is locked, the right password included');
    });

    it('does the same steps for a reset request of a known and an unknown address, the email after the answer', async () => {
      const owner = await newOwner(call, dataDir);
      const deps = (t.services.dashboard as unknown as { deps: DashboardServiceDeps }).deps;
      const steps: string[] = [];
      const store = new Proxy(deps.store, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            steps.push(String(name));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as DashboardStore;
      const mails: Mail[] = [];
      const order: string[] = [];
      // A mail server that takes a while: the request must not wait for it.
      const mailer = {
        send: async (mail: Mail) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          mails.push(mail);
          order.push('mail sent');
        },
      };
      const service = new DashboardService({ ...deps, store, mailer });

      await service.requestPasswordReset(owner.email, origin);
      order.push('answered');
      const known = steps.splice(0);
      await service.requestPasswordReset(uniqueEmail('nobody'), origin);
      const unknown = steps.splice(0);
      assert.deepEqual(unknown, known, 'the same reads and writes either way');
      assert.deepEqual(known, ['findUserByEmail', 'insertEmailToken', 'insertAudit']);
      await service.mailsSent();
      assert.deepEqual(order, ['answered', 'mail sent'], 'the answer did not wait for the email');
      assert.deepEqual(
        mails.map((m) => m.to),
        [owner.email],
        'only the account gets an email',
      );
    });

    it('ends a signed-out session’s access token at once, on /me and on the merchant API; other sessions live on', async () => {
      const owner = await newOwner(call, dataDir);
      const key = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, {});
      assert.equal(key.statusCode, 201, key.body);
      const session = await signInSession(owner.email);
      const other = await signInSession(owner.email);
      const onApi = (access: string) =>
        t.app.inject({ method: 'GET', url: '/api/v1/collect/payments', headers: { authorization: `Bearer ${access}`, 'x-akwe-merchant': owner.merchantId } });
      assert.equal((await me(session.access)).statusCode, 200);
      assert.equal((await onApi(session.access)).statusCode, 200);
      const out = await post('/auth/sign-out', undefined, { cookie: `akwe_refresh=${session.refresh}`, 'x-csrf-token': session.csrf });
      assert.equal(out.statusCode, 204);
      const refused = await me(session.access);
      assert.equal(refused.statusCode, 401, 'the access token died with its session');
      assert.equal(refused.json().error.code, 'invalid_session');
      assert.equal((await onApi(session.access)).statusCode, 401, 'on the merchant API too');
      assert.equal((await me(other.access)).statusCode, 200, 'another session of the same user lives on');
      assert.equal((await onApi(other.access)).statusCode, 200);

      // A rotated session keeps its access tokens; sign out everywhere ends them all.
      const rotated = await post('/auth/refresh', undefined, { cookie: `akwe_refresh=${other.refresh}`, 'x-csrf-token': other.csrf });
      assert.equal(rotated.statusCode, 200, rotated.body);
      assert.equal((await me(other.access)).statusCode, 200);
      assert.equal((await me(rotated.json().access_token)).statusCode, 200);
      assert.equal((await post('/auth/sign-out-everywhere', undefined, { authorization: `Bearer ${owner.access}` })).statusCode, 204);
      for (const access of [owner.access, other.access, rotated.json().access_token as string]) {
        assert.equal((await me(access)).statusCode, 401);
        assert.equal((await onApi(access)).statusCode, 401);
      }
    });

    it('refuses an access token that names no session (one issued before sessions were named)', async () => {
      const owner = await newOwner(call, dataDir);
      const tokens = (t.services.dashboard as unknown as { deps: DashboardServiceDeps }).deps.tokens;
      const unnamed = await tokens.issue(owner.userId, 'access');
      assert.equal((await me(unnamed.token)).statusCode, 401);
    });
  });
}
