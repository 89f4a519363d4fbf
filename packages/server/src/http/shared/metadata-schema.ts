import { Type } from 'typebox';
import { metadataLimits } from '../../core/shared/metadata.js';

/** The `metadata` member of every object that carries it (payments now; payouts and batches later). */
// Written as `additionalProperties` (not TypeBox's Record, a `^.*$` pattern) so every copy of the
// schema reads the same in the OpenAPI document and generated clients see a string map.
export const MetadataInput = Type.Unsafe<Record<string, string>>({
  type: 'object',
  additionalProperties: { type: 'string', maxLength: metadataLimits.valueLength },
  maxProperties: metadataLimits.keys,
  propertyNames: { minLength: 1, maxLength: metadataLimits.keyLength },
  description: `Your own key-value pairs, returned as given and carried in events: at most ${metadataLimits.keys} keys of 1 to ${metadataLimits.keyLength} characters, string values of at most ${metadataLimits.valueLength}. Lists filter on one of them with \`metadata[key]=value\`.`,
});

export const MetadataObject = Type.Unsafe<Record<string, string>>({
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Your key-value pairs as given at creation; `{}` when none.',
});

/** A list's `metadata[key]=value` filter parameter (one key per request). */
export const metadataFilterPattern = '^metadata\\[[^\\]]{1,40}\\]$';

export const metadataFilterProperties = { [metadataFilterPattern]: Type.String({ maxLength: metadataLimits.valueLength }) };
