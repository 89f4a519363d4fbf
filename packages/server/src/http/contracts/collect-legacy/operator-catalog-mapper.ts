import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';
import { catalogCountries, operatorIdentity } from '../../shared/operator-catalog-body.js';

/**
 * The earlier catalog: `unsupported` lists operators known in the country that cannot collect there
 * (omitted when there are none, as the field is optional); aliases only when an operator has some.
 */
export function legacyCatalogBody(catalog: OperatorCatalog) {
  return {
    api_version: catalog.version,
    countries: catalogCountries(catalog, {
      flow: 'collect',
      operator: (operator) => ({
        ...operatorIdentity(operator),
        ...(operator.aliases.length > 0 ? { aliases: [...operator.aliases] } : {}),
        requires_otp: operator.requiresOtp,
      }),
      country: (country, operators, leftOut) => ({
        code: country.code,
        currency_default: country.defaultCurrency,
        operators,
        ...(leftOut.length > 0 ? { unsupported: leftOut.map((operator) => operator.slug) } : {}),
      }),
    }),
  };
}
