/**
 * The dashboard's sign-in foundation (docs/dashboard.md) on every database: sign-up and email
 * verification through the development mailbox, sign-in answers that tell nothing about accounts,
 * the lock after repeated failures, TOTP, refresh-token rotation and reuse detection, sign-out
 * everywhere, password reset, X-Service-Environment, cookie flags and CSRF.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/core/dashboard/totp.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { mailedToken as mailedTokenIn, PASSWORD, uniqueEmail as uniqueAddress } from '../support/dashboard.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Mixed case on purpose: addresses are compared lower-cased. */
const uniqueEmail = (label: string) => uniqueAddress(label, 'Example.com');

for (const target of testDatabases()) {
  describe(`dashboard sign-in on ${target.name}`, { skip: target.skip }, () => {
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

    const post = (url: string, payload?: object, headers: Record<string, string> = {}, remoteAddress?: string) =>
      t.app.inject({ method: 'POST', url: `/api/v1/dashboard${url}`, headers, ...(payload ? { payload } : {}), ...(remoteAddress ? { remoteAddress } : {}) });
    const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/api/v1/dashboard${url}`, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
    /** The newest link token mailed to the address, read from the mailbox folder as a person would open it. */
    const mailedToken = (email: string, page: string) => mailedTokenIn(dataDir, email, page);
    const cookiesOf = (response: { headers: Record<string, unknown> }) => {
      const raw = response.headers['set-cookie'];
      const list = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
      return Object.fromEntries(list.map((cookie) => [cookie.split('=')[0]!, cookie]));
    };
    const cookieValueOf = (cookie: string) => decodeURIComponent(cookie.split(';')[0]!.split('=').slice(1).join('='));
    const refreshWith = (refreshToken: string, csrfToken: string | undefined) =>
      post('/auth/refresh', undefined, { cookie: `akwe_refresh=${refreshToken}`, ...(csrfToken === undefined ? {} : { 'x-csrf-token': csrfToken }) });

    /** Signs up, verifies by the mailed link, and signs in: the session's parts. */
    const newUser = async (label = 'user') => {
      const email = uniqueEmail(label);
      const signUp = await post('/auth/sign-up', { email, password: PASSWORD, name: 'Ada', merchant_name: 'Ada Shop' });
      assert.equal(signUp.statusCode, 202, signUp.body);
      const verified = await post('/auth/verify-email', { token: mailedToken(email, 'verify-email') });
      assert.equal(verified.statusCode, 204, verified.body);
      const signIn = await post('/auth/sign-in', { email, password: PASSWORD });
      assert.equal(signIn.statusCode, 200, signIn.body);
      const cookies = cookiesOf(signIn);
      return {
        email,
        access: signIn.json().access_token as string,
        csrf: signIn.json().csrf_token as string,
        refresh: cookieValueOf(cookies.akwe_refresh!),
        body: signIn.json() as Wire,
      };
    };

    it('signs up, verifies the address by the mailed link, signs in and sees its merchant as owner', async () => {
      const email = uniqueEmail('signup');
      assert.equal((await post('/auth/sign-up', { email, password: PASSWORD, name: 'Ada', merchant_name: 'Ada Shop' })).statusCode, 202);
      const early = await post('/auth/sign-in', { email, password: PASSWORD });
      assert.equal(early.statusCode, 403);
      assert.equal(early.json().error.code, 'email_not_verified');
      const token = mailedToken(email, 'verify-email');
      assert.equal((await post('/auth/verify-email', { token })).statusCode, 204);
      const again = await post('/auth/verify-email', { token });
      assert.equal(again.statusCode, 400, 'a link works once');
      assert.equal(again.json().error.code, 'invalid_email_token');
      const signIn = await post('/auth/sign-in', { email: email.toUpperCase(), password: PASSWORD });
      assert.equal(signIn.statusCode, 200, signIn.body);
      assert.equal(signIn.json().object, 'dashboard_session');
      assert.equal(signIn.json().user.email, email.toLowerCase());
      const me = await get('/me', signIn.json().access_token);
      assert.equal(me.statusCode, 200, me.body);
      assert.equal(me.json().environment, 'test');
      assert.equal(me.json().memberships.length, 1);
      assert.equal(me.json().memberships[0].role, 'owner');
      assert.equal(me.json().memberships[0].merchant_name, 'Ada Shop');
      assert.ok(me.json().memberships[0].permissions.includes('team.manage'));
      const merchant = await t.services.merchants.getMerchant(me.json().memberships[0].merchant_id);
      assert.equal(merchant.name, 'Ada Shop');
    });

    it('signing up again with a taken address answers the same and mails the owner instead', async () => {
      const { email } = await newUser('taken');
      const again = await post('/auth/sign-up', { email, password: 'another password 1', name: 'Eve', merchant_name: 'Eve Shop' });
      assert.equal(again.statusCode, 202);
      const folder = join(dataDir, 'mailbox');
      const notices = readdirSync(folder).filter((name) => readFileSync(join(folder, name), 'utf8').includes(`To: ${email.toLowerCase()}\nSubject: Your Akwe account`));
      assert.equal(notices.length, 1);
    });

    it('answers a wrong password and an unknown address the same way, and audits the failure', async () => {
      const { email } = await newUser('wrong');
      const wrong = await post('/auth/sign-in', { email, password: 'not the password' });
      const unknown = await post('/auth/sign-in', { email: uniqueEmail('nobody'), password: 'not the password' });
      assert.equal(wrong.statusCode, 401);
      assert.equal(unknown.statusCode, 401);
      assert.equal(wrong.json().error.code, 'invalid_credentials');
      assert.equal(wrong.json().error.message, unknown.json().error.message);
      const failures = await t.services.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'sign_in.failed').where('target', '=', email.toLowerCase()).execute();
      assert.equal(failures.length, 1);
    });

    it('locks an address after five failures, known or not, with 429 and Retry-After, the right password included', async () => {
      const { email } = await newUser('locked');
      for (const address of [email, uniqueEmail('ghost')]) {
        for (let i = 0; i < 5; i++) assert.equal((await post('/auth/sign-in', { email: address, password: 'wrong password' }, {}, `10.9.0.${i + 1}`)).statusCode, 401);
        const locked = await post('/auth/sign-in', { email: address, password: PASSWORD }, {}, '10.9.1.1');
        assert.equal(locked.statusCode, 429, locked.body);
        assert.equal(locked.json().error.code, 'rate_limited');
        assert.ok(Number(locked.headers['retry-after']) >= 1);
      }
    });

    it('enrols TOTP, then signs in in two steps; a wrong code is refused', async () => {
      const user = await newUser('totp');
      const enrol = await post('/me/totp', undefined, { authorization: `Bearer ${user.access}` });
      assert.equal(enrol.statusCode, 200, enrol.body);
      assert.match(enrol.json().otpauth_url, /^otpauth:\/\/totp\//);
      const secret = enrol.json().secret as string;
      const stored = await t.services.database.db.selectFrom('users').select('totp_secret').where('email', '=', user.email.toLowerCase()).executeTakeFirstOrThrow();
      assert.ok(stored.totp_secret && !stored.totp_secret.includes(secret), 'the secret is stored sealed');
      const bad = await post('/me/totp/confirm', { code: '000000' === totpCode(secret, new Date()) ? '111111' : '000000' }, { authorization: `Bearer ${user.access}` });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.code, 'invalid_totp_code');
      assert.equal((await post('/me/totp/confirm', { code: totpCode(secret, new Date()) }, { authorization: `Bearer ${user.access}` })).statusCode, 204);

      const first = await post('/auth/sign-in', { email: user.email, password: PASSWORD });
      assert.equal(first.statusCode, 200);
      assert.equal(first.json().totp_required, true);
      assert.equal(first.json().access_token, undefined);
      assert.equal(cookiesOf(first).akwe_refresh, undefined, 'no session before the code');
      const wrong = await post('/auth/totp', { challenge_token: first.json().challenge_token, code: '12345x' });
      assert.equal(wrong.statusCode, 401);
      // The next step's code (accepted, clocks drift): the current one was used to turn TOTP on, and a code works once.
      const second = await post('/auth/totp', { challenge_token: first.json().challenge_token, code: totpCode(secret, new Date(Date.now() + 30_000)) });
      assert.equal(second.statusCode, 200, second.body);
      assert.equal((await get('/me', second.json().access_token)).json().user.totp_enabled, true);
      // The challenge is not an access token.
      assert.equal((await get('/me', first.json().challenge_token)).statusCode, 401);
    });

    it('rotates the refresh token on each use; reusing a rotated one revokes its whole family', async () => {
      const user = await newUser('rotate');
      const first = await refreshWith(user.refresh, user.csrf);
      assert.equal(first.statusCode, 200, first.body);
      const next = cookieValueOf(cookiesOf(first).akwe_refresh!);
      assert.notEqual(next, user.refresh);
      const reuse = await refreshWith(user.refresh, user.csrf);
      assert.equal(reuse.statusCode, 401);
      assert.equal(reuse.json().error.code, 'invalid_session');
      const afterTheft = await refreshWith(next, first.json().csrf_token);
      assert.equal(afterTheft.statusCode, 401, 'the successor dies with its family');
      const rows = await t.services.database.db
        .selectFrom('refresh_tokens')
        .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
        .select('refresh_tokens.revoked_at')
        .where('users.email', '=', user.email.toLowerCase())
        .execute();
      assert.equal(rows.length, 2);
      assert.ok(rows.every((row) => row.revoked_at !== null));
      const stored = await t.services.database.db.selectFrom('refresh_tokens').select('token_hash').execute();
      assert.ok(
        stored.every((row) => row.token_hash !== next && /^[0-9a-f]{64}$/.test(row.token_hash)),
        'only hashes are stored',
      );
    });

    it('refuses refresh and sign-out without the CSRF token, or with another session’s', async () => {
      const user = await newUser('csrf');
      const other = await newUser('csrf-other');
      for (const csrf of [undefined, '', other.csrf]) {
        const refused = await refreshWith(user.refresh, csrf);
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().error.code, 'csrf_token_invalid');
      }
      const signOut = await post('/auth/sign-out', undefined, { cookie: `akwe_refresh=${user.refresh}` });
      assert.equal(signOut.statusCode, 403);
      assert.equal((await refreshWith(user.refresh, user.csrf)).statusCode, 200, 'the refused requests changed nothing');
    });

    it('sets the refresh cookie HttpOnly, SameSite=Strict, on the auth path; Secure outside development', async () => {
      const user = await newUser('cookies');
      const devCookie = cookiesOf(await refreshWith(user.refresh, user.csrf)).akwe_refresh!;
      assert.match(devCookie, /HttpOnly/);
      assert.match(devCookie, /SameSite=Strict/);
      assert.match(devCookie, /Path=\/api\/v1\/dashboard\/auth/);
      assert.doesNotMatch(devCookie, /Secure/, 'AKWE_DEV: plain http://localhost works');

      const production = await buildTestApp(target, {
        env: { AKWE_DEV: 'false', AKWE_SECRET: 'x'.repeat(40), AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
      });
      try {
        const email = uniqueEmail('secure');
        await production.app.inject({ method: 'POST', url: '/api/v1/dashboard/auth/sign-up', payload: { email, password: PASSWORD, name: 'Ada', merchant_name: 'Shop' } });
        await production.app.inject({ method: 'POST', url: '/api/v1/dashboard/auth/verify-email', payload: { token: mailedToken(email, 'verify-email') } });
        const signIn = await production.app.inject({ method: 'POST', url: '/api/v1/dashboard/auth/sign-in', payload: { email, password: PASSWORD } });
        assert.equal(signIn.statusCode, 200, signIn.body);
        const cookies = cookiesOf(signIn);
        assert.match(cookies.akwe_refresh!, /; Secure/);
        assert.match(cookies.akwe_refresh!, /HttpOnly/);
        assert.match(cookies.akwe_csrf!, /; Secure/);
        assert.doesNotMatch(cookies.akwe_csrf!, /HttpOnly/, 'the dashboard script reads the CSRF cookie');
      } finally {
        await production.close();
      }
    });

    it('signs out everywhere: every refresh token and every access token issued so far stop working', async () => {
      const user = await newUser('everywhere');
      const second = await post('/auth/sign-in', { email: user.email, password: PASSWORD });
      const secondRefresh = cookieValueOf(cookiesOf(second).akwe_refresh!);
      assert.equal((await post('/auth/sign-out-everywhere', undefined, { authorization: `Bearer ${user.access}` })).statusCode, 204);
      assert.equal((await get('/me', user.access)).statusCode, 401);
      assert.equal((await get('/me', second.json().access_token)).statusCode, 401);
      assert.equal((await refreshWith(user.refresh, user.csrf)).statusCode, 401);
      assert.equal((await refreshWith(secondRefresh, second.json().csrf_token)).statusCode, 401);
      const fresh = await post('/auth/sign-in', { email: user.email, password: PASSWORD });
      assert.equal((await get('/me', fresh.json().access_token)).statusCode, 200, 'signing in again works');
    });

    it('signs out one session: its refresh token stops working and the cookies are cleared', async () => {
      const user = await newUser('signout');
      const out = await post('/auth/sign-out', undefined, { cookie: `akwe_refresh=${user.refresh}`, 'x-csrf-token': user.csrf });
      assert.equal(out.statusCode, 204);
      assert.match(cookiesOf(out).akwe_refresh!, /Max-Age=0/);
      assert.equal((await refreshWith(user.refresh, user.csrf)).statusCode, 401);
    });

    it('resets the password by the mailed link, revoking every session; the request is 202 for any address', async () => {
      const user = await newUser('reset');
      assert.equal((await post('/auth/password-reset', { email: uniqueEmail('nobody') })).statusCode, 202);
      assert.equal((await post('/auth/password-reset', { email: user.email })).statusCode, 202);
      await t.services.dashboard.mailsSent();
      const token = mailedToken(user.email, 'password-reset');
      const short = await post('/auth/password-reset/complete', { token, password: 'short' });
      assert.equal(short.statusCode, 400);
      assert.equal(short.json().error.code, 'validation_error');
      assert.equal((await post('/auth/password-reset/complete', { token, password: 'a brand new password' })).statusCode, 204);
      assert.equal((await get('/me', user.access)).statusCode, 401);
      assert.equal((await refreshWith(user.refresh, user.csrf)).statusCode, 401);
      assert.equal((await post('/auth/sign-in', { email: user.email, password: PASSWORD })).statusCode, 401);
      assert.equal((await post('/auth/sign-in', { email: user.email, password: 'a brand new password' })).statusCode, 200);
      assert.equal((await post('/auth/password-reset/complete', { token, password: 'yet another password' })).statusCode, 400, 'the link works once');
      const audit = await t.services.database.db.selectFrom('audit_log').select('action').where('target', '=', user.email.toLowerCase()).execute();
      assert.ok(audit.some((row) => row.action === 'password_reset.completed'));
    });

    it('takes the environment from X-Service-Environment: test when absent, live, anything else 400', async () => {
      const user = await newUser('environment');
      assert.equal((await get('/me', user.access)).json().environment, 'test');
      assert.equal((await get('/me', user.access, { 'x-service-environment': 'live' })).json().environment, 'live');
      for (const value of ['LIVE', 'production', '']) {
        const refused = await get('/me', user.access, { 'x-service-environment': value });
        assert.equal(refused.statusCode, 400, value);
        assert.equal(refused.json().error.code, 'invalid_environment');
      }
    });

    it('refuses /me without a session, with an API key, or with a tampered token', async () => {
      const user = await newUser('nosession');
      const merchant = await t.newMerchant();
      for (const headers of [{}, { authorization: `Bearer ${merchant.testKey}` }, { authorization: `Bearer ${user.access.slice(0, -2)}xx` }]) {
        const refused = await t.app.inject({ method: 'GET', url: '/api/v1/dashboard/me', headers });
        assert.equal(refused.statusCode, 401);
        assert.equal(refused.json().error.code, 'invalid_session');
      }
    });

    it('limits the unauthenticated auth routes per client address', async () => {
      const limited = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '3' } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++)
          statuses.push((await limited.app.inject({ method: 'POST', url: '/api/v1/dashboard/auth/password-reset', payload: { email: 'a@b.example' } })).statusCode);
        assert.deepEqual(statuses, [202, 202, 202, 429]);
      } finally {
        await limited.close();
      }
    });
  });
}
