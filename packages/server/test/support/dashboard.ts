/**
 * Helpers of the dashboard suites: the password every test user has, unique addresses, and the
 * links the dev mailbox (`<data dir>/mailbox/`) holds, read as a person would follow them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from './test-app.js';

export const PASSWORD = 'correct horse battery';

let counter = 0;
/** An address no other test uses (`domain` to try casing). */
export const uniqueEmail = (label: string, domain = 'example.com') => `${label}-${Date.now()}-${++counter}@${domain}`;

/** The token of the last `page` link (verify-email, reset-password, accept-invitation…) mailed to `email` (sent lower-cased). */
export function mailedToken(dataDir: string, email: string, page: string): string {
  const folder = join(dataDir, 'mailbox');
  const mails = readdirSync(folder)
    .sort()
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .filter((mail) => mail.includes(`To: ${email.toLowerCase()}`) && mail.includes(`/dashboard/${page}?token=`));
  const token = mails.at(-1)?.match(new RegExp(`/dashboard/${page}\\?token=([A-Za-z0-9_-]+)`))?.[1];
  assert.ok(token, `a ${page} link was mailed to ${email}`);
  return token;
}

export type DashboardMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A dashboard call as a signed-in person (`access`) in an environment, or signed out. */
export function dashboardCall(t: () => TestApp) {
  return (method: DashboardMethod, url: string, access?: string, payload?: object, environment?: 'test' | 'live') =>
    t().app.inject({
      method,
      url: `/api/v1/dashboard${url}`,
      headers: { ...(access ? { authorization: `Bearer ${access}` } : {}), ...(environment ? { 'x-service-environment': environment } : {}) },
      ...(payload ? { payload } : {}),
    });
}

/** Signs in with the test password and answers the access token. */
export async function signIn(call: ReturnType<typeof dashboardCall>, email: string): Promise<string> {
  const res = await call('POST', '/auth/sign-in', undefined, { email, password: PASSWORD });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().access_token as string;
}

/** Someone who signed up (a merchant of their own, KYC pending), verified the address and signed in. */
export async function newOwner(call: ReturnType<typeof dashboardCall>, dataDir: string) {
  const email = uniqueEmail('owner');
  await call('POST', '/auth/sign-up', undefined, { email, password: PASSWORD, name: 'Owner', merchant_name: 'Shop' });
  await call('POST', '/auth/verify-email', undefined, { token: mailedToken(dataDir, email, 'verify-email') });
  const access = await signIn(call, email);
  const me = await call('GET', '/me', access);
  return { email, access, merchantId: me.json().memberships[0].merchant_id as string, userId: me.json().user.id as string };
}
