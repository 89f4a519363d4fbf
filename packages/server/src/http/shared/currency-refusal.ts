import type { FastifyRequest } from 'fastify';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import { KNOWN_CURRENCIES, unsupportedCurrency } from '../../core/catalog/currency-check.js';

/**
 * A preValidation hook for bodies whose schema lists the known currencies: a currency outside them
 * gets 400 `unsupported_currency` naming what the body's country accepts, instead of the schema's
 * "must be equal to constant". A known currency the country does not take is the core's to refuse.
 */
export function refuseUnknownCurrency(catalog: OperatorCatalog) {
  return async (request: FastifyRequest): Promise<void> => {
    const body = request.body as { currency?: unknown; country?: unknown } | null | undefined;
    const currency = body?.currency;
    if (typeof currency !== 'string' || (KNOWN_CURRENCIES as readonly string[]).includes(currency)) return;
    const country = typeof body?.country === 'string' ? catalog.country(body.country) : undefined;
    throw unsupportedCurrency(country?.code, country?.currencies ?? KNOWN_CURRENCIES, currency);
  };
}
