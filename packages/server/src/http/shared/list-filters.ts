import type { preValidationHookHandler } from 'fastify';
import type { TObject } from 'typebox';
import { AkweError } from '../../core/errors/index.js';

/** `metadata[key]=value` from a list's query string: one key at most. */
export function metadataFilter(query: Record<string, unknown>): { key: string; value: string } | undefined {
  const filters = Object.keys(query).filter((name) => name.startsWith('metadata['));
  if (filters.length > 1) throw new AkweError('validation_error', 'Filter on one metadata key at a time.', { field: filters[1] });
  const [name] = filters;
  return name === undefined ? undefined : { key: name.slice('metadata['.length, -1), value: String(query[name]) };
}

/**
 * A date-time filter as an ISO instant. The schema's `date-time` format admits a leap second
 * (`23:59:60`) that JavaScript dates cannot hold: it is refused with 400, not turned into a 500.
 */
export function instantFilter(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) throw new AkweError('validation_error', `${field} is not an instant this API can represent (a leap second?).`, { field });
  return instant.toISOString();
}

/**
 * A preValidation hook that reads a list's enum-valued filters (`status`, `mode`, `type`) in any
 * letter case: collect statuses are lowercase and payout statuses UPPERCASE by contract, so
 * `?status=FAILED` on payments and `?status=completed` on payouts are the same mistake waiting
 * to happen. A value matching an allowed one in another case becomes that value, so it filters
 * exactly as the canonical one and answers keep each contract's casing; a value matching none is
 * left as sent for the schema to refuse (400 listing the allowed values).
 */
export function enumFiltersInAnyCase(querySchema: TObject): preValidationHookHandler {
  const canonical = new Map<string, Map<string, string>>();
  for (const [name, property] of Object.entries(querySchema.properties)) {
    const values = (property as { enum?: unknown[] }).enum;
    if (values?.every((value): value is string => typeof value === 'string')) canonical.set(name, new Map(values.map((value) => [value.toLowerCase(), value])));
  }
  return (request, _reply, done) => {
    const query = request.query as Record<string, unknown>;
    for (const [name, values] of canonical) {
      const value = query[name];
      if (typeof value === 'string') query[name] = values.get(value.toLowerCase()) ?? value;
    }
    done();
  };
}

/**
 * The `phone` filter of the payment and payout lists: an E.164 number (`+` then 8 to 15 digits;
 * spaces, dots and dashes are ignored), as the objects show their numbers. A national number is
 * refused, since without its country it cannot be matched exactly.
 */
export function phoneFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const compact = value.replace(/[\s.-]/g, '');
  if (!/^\+[1-9]\d{7,14}$/.test(compact)) {
    throw AkweError.ofField('validation_error', 'phone', `phone must be an international (E.164) number such as +2290197000000; got ${JSON.stringify(value.slice(0, 32))}.`);
  }
  return compact;
}
