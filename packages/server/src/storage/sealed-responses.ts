import type { StoredResponse } from '../core/idempotency/idempotency-store.js';
import type { SecretBox } from './secret-box.js';

/** Marks a stored response body that is sealed; a JSON body never starts with it. */
export const SEALED_PREFIX = 'sealed:';

/**
 * Stored responses that show a secret (a webhook endpoint's signing secret at creation) are kept
 * sealed with the server's SecretBox, like the secret itself, so the idempotency table never holds
 * one in clear. Other responses are stored as sent.
 */
export class ResponseSealing {
  constructor(private readonly box?: SecretBox) {}

  toColumn(response: StoredResponse | null | undefined): string | null {
    if (!response) return null;
    if (!response.holdsSecret) return response.body;
    if (!this.box) throw new Error('a response holding a secret needs a SecretBox to be stored');
    return SEALED_PREFIX + this.box.seal(response.body);
  }

  fromColumn(stored: string | null): string | null {
    if (stored === null || !stored.startsWith(SEALED_PREFIX)) return stored;
    if (!this.box) throw new Error('a sealed stored response needs a SecretBox to be read');
    return this.box.open(stored.slice(SEALED_PREFIX.length));
  }
}
