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
