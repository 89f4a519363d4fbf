import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';

/**
 * The earlier catalog: `unsupported` lists operators known in the country that cannot collect there
 * (omitted when there are none, as the field is optional); aliases only when an operator has some.
 */
export function legacyCatalogBody(catalog: OperatorCatalog) {
  return {
    api_version: catalog.version,
    countries: catalog.countries().map((country) => {
      const unsupported = country.operators.filter((o) => !o.collect.supported).map((o) => o.slug);
      return {
        code: country.code,
        currency_default: country.defaultCurrency,
        operators: country.operators
          .filter((o) => o.collect.supported)
          .map((o) => ({
            slug: o.slug,
            label: o.label,
            gateway_code: o.gatewayCode,
            ...(o.aliases.length > 0 ? { aliases: [...o.aliases] } : {}),
            requires_otp: o.requiresOtp,
          })),
        ...(unsupported.length > 0 ? { unsupported } : {}),
      };
    }),
  };
}
