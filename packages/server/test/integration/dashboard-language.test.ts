/**
 * The language of the dashboard's emails (docs/dashboard.md "Language") on every database: chosen at
 * sign-up, changed with PUT /me/language and shown by GET /me; every email to a user is written in
 * it; a user who never chose one gets English; an invitation to a new address follows its inviter,
 * to an account its holder.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { mailedToken, PASSWORD, uniqueEmail } from '../support/dashboard.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`dashboard email language on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-dashboard-language-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = (method: 'GET' | 'POST' | 'PUT', url: string, access?: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1/dashboard${url}`, headers: access ? { authorization: `Bearer ${access}` } : {}, ...(payload ? { payload } : {}) });

    /** The newest email to the address, as the dev mailbox holds it. */
    const lastMailTo = (email: string) => {
      const folder = join(dataDir, 'mailbox');
      const mail = readdirSync(folder)
        .sort()
        .map((name) => readFileSync(join(folder, name), 'utf8'))
        .filter((text) => text.includes(`To: ${email.toLowerCase()}`))
        .at(-1);
      assert.ok(mail, `an email to ${email}`);
      return mail;
    };

    const newUser = async (language?: 'fr' | 'en') => {
      const email = uniqueEmail('language');
      const signUp = await call('POST', '/auth/sign-up', undefined, { email, password: PASSWORD, name: 'Awa', merchant_name: 'Awa Shop', ...(language ? { language } : {}) });
      assert.equal(signUp.statusCode, 202, signUp.body);
      await call('POST', '/auth/verify-email', undefined, { token: mailedToken(dataDir, email, 'verify-email') });
      const signIn = await call('POST', '/auth/sign-in', undefined, { email, password: PASSWORD });
      assert.equal(signIn.statusCode, 200, signIn.body);
      const access = signIn.json().access_token as string;
      const me = await call('GET', '/me', access);
      return { email, access, merchantId: me.json().memberships[0].merchant_id as string, language: me.json().user.language as string | null };
    };

    it('writes the verification email in the language chosen at sign-up, and GET /me shows it', async () => {
      const email = uniqueEmail('french');
      await call('POST', '/auth/sign-up', undefined, { email, password: PASSWORD, name: 'Awa', merchant_name: 'Awa Shop', language: 'fr' });
      assert.match(lastMailTo(email), /Subject: Vérifiez votre adresse e-mail pour Akwe/);
      assert.match(lastMailTo(email), /Bienvenue sur Akwe, Awa\./);
      const french = await newUser('fr');
      assert.equal(french.language, 'fr');
    });

    it('keeps English for a user who never chose, and refuses a language it does not have', async () => {
      const user = await newUser();
      assert.equal(user.language, null);
      assert.match(lastMailTo(user.email), /Subject: Verify your email address for Akwe/);
      const refused = await call('PUT', '/me/language', user.access, { language: 'de' });
      assert.equal(refused.statusCode, 400, refused.body);
      const signUp = await call('POST', '/auth/sign-up', undefined, { email: uniqueEmail('x'), password: PASSWORD, name: 'X', merchant_name: 'X', language: 'wo' });
      assert.equal(signUp.statusCode, 400, signUp.body);
    });

    it('writes a password reset in the language set with PUT /me/language', async () => {
      const user = await newUser('en');
      const set = await call('PUT', '/me/language', user.access, { language: 'fr' });
      assert.equal(set.statusCode, 204, set.body);
      assert.equal((await call('GET', '/me', user.access)).json().user.language, 'fr');
      await call('POST', '/auth/password-reset', undefined, { email: user.email });
      await t.services.dashboard.mailsSent();
      assert.match(lastMailTo(user.email), /Subject: Réinitialisez votre mot de passe Akwe/);
      await call('PUT', '/me/language', user.access, { language: 'en' });
      await call('POST', '/auth/password-reset', undefined, { email: user.email });
      await t.services.dashboard.mailsSent();
      assert.match(lastMailTo(user.email), /Subject: Reset your Akwe password/);
    });

    it('invites a new address in the inviter’s language and an account holder in theirs; an account made by the invitation keeps the page’s language', async () => {
      const inviter = await newUser('fr');
      const newcomer = uniqueEmail('newcomer');
      const invited = await call('POST', `/merchants/${inviter.merchantId}/invitations`, inviter.access, { email: newcomer, role: 'developer' });
      assert.equal(invited.statusCode, 202, invited.body);
      assert.match(lastMailTo(newcomer), /Subject: Awa vous invite à rejoindre Awa Shop sur Akwe/);
      assert.match(lastMailTo(newcomer), /avec le rôle développeur/);

      const holder = await newUser('en');
      await call('POST', `/merchants/${inviter.merchantId}/invitations`, inviter.access, { email: holder.email, role: 'viewer' });
      assert.match(lastMailTo(holder.email), /Subject: Awa invites you to Awa Shop on Akwe/);

      const accepted = await call('POST', '/auth/invitations/accept', undefined, {
        token: mailedToken(dataDir, newcomer, 'accept-invitation'),
        name: 'Koffi',
        password: PASSWORD,
        language: 'en',
      });
      assert.ok(accepted.statusCode < 300, accepted.body);
      const signIn = await call('POST', '/auth/sign-in', undefined, { email: newcomer, password: PASSWORD });
      assert.equal(signIn.json().user.language, 'en');
    });
  });
}
