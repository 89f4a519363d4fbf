/**
 * The signed-in user: the access token lives in memory only (never in storage); the refresh token
 * is an HttpOnly cookie the page cannot read. Reloading the page refreshes the session from the
 * cookie. The chosen merchant and environment are remembered in localStorage (not secrets).
 */
import { authApi, dashboardApi, renewSession, setCredentials, type Environment } from './api.js';
import type { Language } from './i18n.js';

export interface DashboardUser {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  totp_enabled: boolean;
  /** The language of the user's emails; null: never chosen. */
  language?: Language | null;
  platform_admin?: boolean;
}

export interface Membership {
  merchant_id: string;
  merchant_name: string;
  role: string;
  permissions: string[];
  /** The API scopes a key this user creates may hold: the role's. */
  key_scopes: string[];
}

export interface Me {
  user: DashboardUser;
  environment: Environment;
  memberships: Membership[];
}

export interface SessionAnswer {
  access_token: string;
  expires_in: number;
  csrf_token: string;
  user: DashboardUser;
}

export type SignInAnswer = SessionAnswer | { totp_required: true; challenge_token: string };

export const savedEnvironment = (): Environment => (localStorage.getItem('akwe.environment') === 'live' ? 'live' : 'test');
export const saveEnvironment = (environment: Environment) => localStorage.setItem('akwe.environment', environment);
export const savedMerchant = (): string | undefined => localStorage.getItem('akwe.merchant') ?? undefined;
export const saveMerchant = (merchantId: string) => localStorage.setItem('akwe.merchant', merchantId);

/** The session from the refresh cookie (a reload), or undefined when there is none. */
export const refreshSession = () => renewSession<SessionAnswer>();

/** A page that signed someone in (sign-in, invitation…) hands the session to the app. */
export const SIGNED_IN_EVENT = 'akwe:signed-in';
export function announceSignedIn(session: SessionAnswer, next: string): void {
  setCredentials({ accessToken: session.access_token });
  dispatchEvent(new CustomEvent<SignedIn>(SIGNED_IN_EVENT, { detail: { next } }));
}

/** Where the app goes once the signed-in user is loaded. */
export interface SignedIn {
  next: string;
}

export async function loadMe(): Promise<Me> {
  // GET /me says `platform_admin` beside the user; the pages read it on the user.
  const me = await dashboardApi<Me & { platform_admin?: boolean }>('/me');
  return { ...me, user: { ...me.user, platform_admin: me.platform_admin === true } };
}

export async function signOut(): Promise<void> {
  await authApi('/sign-out', {}, true).catch(() => undefined);
}
