import { createHmac, hkdfSync } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sameText } from '../../core/shared/constant-time.js';

export const DASHBOARD_PREFIX = '/api/v1/dashboard';
export const REFRESH_COOKIE = 'akwe_refresh';
export const CSRF_COOKIE = 'akwe_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** The refresh cookie goes only to the auth routes that use it. */
export const REFRESH_COOKIE_PATH = `${DASHBOARD_PREFIX}/auth`;

/** The value of one cookie of the request's Cookie header (the first of that name). */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const raw = pair.slice(at + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface CookieFlags {
  /** Secure outside development (AKWE_DEV): browsers then send the cookies over HTTPS only. */
  secure: boolean;
}

function serialize(name: string, value: string, attributes: { path: string; maxAgeSeconds: number; httpOnly: boolean; secure: boolean }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${attributes.path}`, `Max-Age=${attributes.maxAgeSeconds}`, 'SameSite=Strict'];
  if (attributes.httpOnly) parts.push('HttpOnly');
  if (attributes.secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * CSRF protection for the routes a cookie authenticates (refresh, sign-out): the token is an HMAC
 * of the refresh token under a key of the server's, sent in a readable cookie and in the session
 * body; the request must repeat it in X-CSRF-Token. Another site can make a browser send the
 * cookies but can neither read them nor compute the HMAC, and a cookie planted by a sibling domain
 * does not match the HttpOnly refresh token.
 */
export class CsrfTokens {
  private key: Buffer | undefined;

  constructor(private readonly masterSecret: () => string) {}

  forRefreshToken(refreshToken: string): string {
    return createHmac('sha256', this.signingKey()).update(refreshToken).digest('base64url');
  }

  /** True when the request's X-CSRF-Token is the one of its refresh cookie. */
  matches(request: FastifyRequest, refreshToken: string): boolean {
    const presented = request.headers[CSRF_HEADER];
    if (typeof presented !== 'string' || presented.length === 0) return false;
    return sameText(presented, this.forRefreshToken(refreshToken));
  }

  private signingKey(): Buffer {
    this.key ??= Buffer.from(hkdfSync('sha256', this.masterSecret(), 'akwe', 'dashboard-csrf/v1', 32));
    return this.key;
  }
}

export function setSessionCookies(reply: FastifyReply, session: { refreshToken: string; refreshExpiresAt: string }, csrfToken: string, flags: CookieFlags, now: Date): void {
  const maxAgeSeconds = Math.max(0, Math.floor((Date.parse(session.refreshExpiresAt) - now.getTime()) / 1000));
  reply.header('set-cookie', [
    serialize(REFRESH_COOKIE, session.refreshToken, { path: REFRESH_COOKIE_PATH, maxAgeSeconds, httpOnly: true, secure: flags.secure }),
    // Readable by the dashboard's script, which repeats it in X-CSRF-Token.
    serialize(CSRF_COOKIE, csrfToken, { path: '/', maxAgeSeconds, httpOnly: false, secure: flags.secure }),
  ]);
}

export function clearSessionCookies(reply: FastifyReply, flags: CookieFlags): void {
  reply.header('set-cookie', [
    serialize(REFRESH_COOKIE, '', { path: REFRESH_COOKIE_PATH, maxAgeSeconds: 0, httpOnly: true, secure: flags.secure }),
    serialize(CSRF_COOKIE, '', { path: '/', maxAgeSeconds: 0, httpOnly: false, secure: flags.secure }),
  ]);
}
