import { randomBytes } from 'node:crypto';

/**
 * The secret in a hosted payment's `checkout_url`: 32 random bytes in base64url (43 characters).
 * It is neither the payment id nor the merchant's reference, so a URL cannot be guessed from either,
 * and it is stored as is (unique index) because every read of the payment shows the URL again.
 */
export function newCheckoutToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The shape of a token (lets a garbled URL be refused without a database read). */
export function looksLikeCheckoutToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
