import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Akwe';

/** RFC 6238 codes as authenticator apps expect them: SHA-1, 6 digits, 30 s. */
function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL an authenticator app reads (usually from a QR code). */
export function totpUrl(secretBase32: string, email: string): string {
  return totpFor(secretBase32, email).toString();
}

/** A code of this 30-second step or of either neighbour (clocks drift). */
export function totpCodeMatches(secretBase32: string, code: string, at: Date): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  return totpFor(secretBase32, 'check').validate({ token: code, timestamp: at.getTime(), window: 1 }) !== null;
}

/** The code of the moment (tests act as the authenticator app). */
export function totpCode(secretBase32: string, at: Date): string {
  return totpFor(secretBase32, 'code').generate({ timestamp: at.getTime() });
}
