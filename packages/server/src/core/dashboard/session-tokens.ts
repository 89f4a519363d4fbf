import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../shared/clock.js';

export const ACCESS_TOKEN_SECONDS = 10 * 60;
/** The step between a correct password and the TOTP code. */
export const CHALLENGE_TOKEN_SECONDS = 5 * 60;
const AUDIENCE = { access: 'akwe-dashboard', totp: 'akwe-dashboard-totp' } as const;
const ISSUER = 'akwe';

export type SessionTokenKind = keyof typeof AUDIENCE;

export interface VerifiedToken {
  userId: string;
  /** When it was issued, in milliseconds (compared with the user's sessions_revoked_at). */
  issuedAtMs: number;
  /** An access token's session: its refresh-token family, which must still be live for the token to count. */
  sessionId: string | undefined;
}

/**
 * The dashboard's access tokens (and the short token between password and TOTP code): HS256 JWTs
 * under a key derived from AKWE_SECRET, carrying the user, the issue time and (access tokens) the
 * session they belong to: signing that session out ends them at once. Memberships and roles are
 * read on every request, so a changed role counts at once.
 */
export class SessionTokens {
  private key: Uint8Array | undefined;

  constructor(
    private readonly masterSecret: () => string,
    private readonly clock: Clock,
  ) {}

  /** `sessionId`: the refresh-token family an access token belongs to. */
  async issue(userId: string, kind: SessionTokenKind, sessionId?: string): Promise<{ token: string; expiresInSeconds: number }> {
    const nowMs = this.clock.now().getTime();
    const seconds = kind === 'access' ? ACCESS_TOKEN_SECONDS : CHALLENGE_TOKEN_SECONDS;
    const token = await new SignJWT({ iat_ms: nowMs, ...(sessionId === undefined ? {} : { sid: sessionId }) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE[kind])
      .setSubject(userId)
      .setIssuedAt(Math.floor(nowMs / 1000))
      .setExpirationTime(Math.floor(nowMs / 1000) + seconds)
      .sign(this.signingKey());
    return { token, expiresInSeconds: seconds };
  }

  /** The token's user, or undefined for any token that is not ours, of this kind, and unexpired. */
  async verify(token: string, kind: SessionTokenKind): Promise<VerifiedToken | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.signingKey(), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE[kind],
        currentDate: this.clock.now(),
        clockTolerance: 0,
      });
      if (typeof payload.sub !== 'string' || typeof payload.iat_ms !== 'number') return undefined;
      return { userId: payload.sub, issuedAtMs: payload.iat_ms, sessionId: typeof payload['sid'] === 'string' ? payload['sid'] : undefined };
    } catch {
      return undefined;
    }
  }

  private signingKey(): Uint8Array {
    this.key ??= new Uint8Array(hkdfSync('sha256', this.masterSecret(), 'akwe', 'dashboard-session/v1', 32));
    return this.key;
  }
}
