import { AkweError } from '../errors/index.js';

/** The currencies any request may name; the catalog says which of them each country takes. */
export const KNOWN_CURRENCIES = ['XOF', 'XAF'] as const;

/**
 * "BJ accepts XOF; got EUR.": what the country takes (or, country unknown, what any takes),
 * never the schema validator's words.
 */
export function unsupportedCurrencyMessage(countryCode: string | undefined, accepted: readonly string[], got: string): string {
  return countryCode === undefined ? `currency is one of ${accepted.join(', ')}; got ${got}.` : `${countryCode} accepts ${accepted.join(', ')}; got ${got}.`;
}

export function unsupportedCurrency(countryCode: string | undefined, accepted: readonly string[], got: string): AkweError {
  return AkweError.ofField('unsupported_currency', 'currency', unsupportedCurrencyMessage(countryCode, accepted, got));
}
