import { AkweError } from '../errors/index.js';

/** The merchant's own key-value pairs on an object: strings only, stored and returned as given. */
export type Metadata = Record<string, string>;

/** Limits like Stripe's (docs/decisions.md "Metadata"). */
export const metadataLimits = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/**
 * Checks what the schema cannot say on its own (the key count and characters are in the schema
 * too; this is the core's own guard, so every caller, whatever its contract, gets the same rules).
 */
export function checkMetadata(metadata: Metadata | undefined): Metadata {
  if (metadata === undefined) return {};
  const entries = Object.entries(metadata);
  if (entries.length > metadataLimits.keys) throw new AkweError('validation_error', `metadata holds at most ${metadataLimits.keys} keys.`, { field: 'metadata' });
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > metadataLimits.keyLength) {
      throw new AkweError('validation_error', `metadata keys are 1 to ${metadataLimits.keyLength} characters.`, { field: `metadata.${key}` });
    }
    if (typeof value !== 'string' || value.length > metadataLimits.valueLength) {
      throw new AkweError('validation_error', `metadata values are strings of at most ${metadataLimits.valueLength} characters.`, { field: `metadata.${key}` });
    }
  }
  return { ...metadata };
}
