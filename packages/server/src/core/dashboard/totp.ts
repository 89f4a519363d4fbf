import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Akwe';
const PERIOD_SECONDS = 30;

/** RFC 6238 codes as authenticator apps expect them: SHA-1, 6 digits, 30 s. */
function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL an authenticator app reads (usually from a QR code). */
export function totpUrl(secretBase32: string, email: string): string {
  return totpFor(secretBase32, email).toString();
}

/**
 * The 30-second step (counted from the Unix epoch) whose code this is: this step or either
 * neighbour (clocks drift); undefined when it is none of them. The step is what makes a code
 * single-use: the caller records it and refuses it (or an older one) next time.
 */
export function totpStepOf(secretBase32: string, code: string, at: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpFor(secretBase32, 'check').validate({ token: code, timestamp: at.getTime(), window: 1 });
  return delta === null ? undefined : Math.floor(at.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of the moment (tests act as the authenticator app). */
export function totpCode(secretBase32: string, at: Date): string {
  return totpFor(secretBase32, 'code').generate({ timestamp: at.getTime() });
}
