import { Type } from 'typebox';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';

/** Payout catalog (shape not fixed by SPEC.md; ours): payout operators, limits in centimes as payouts speak. */
export const PayoutOperatorCatalog = Type.Object(
  {
    object: Type.Literal('payout.operator_catalog'),
    catalog_version: Type.String(),
    countries: Type.Array(
      Type.Object({
        code: Type.String(),
        name: Type.String(),
        currencies: Type.Array(Type.String()),
        default_currency: Type.String(),
        operators: Type.Array(
          Type.Object({
            slug: Type.String(),
            label: Type.String(),
            gateway_code: Type.String(),
            aliases: Type.Array(Type.String()),
            min_amount: Type.Integer({ description: 'Smallest payout, centimes.' }),
            max_amount: Type.Integer({ description: 'Largest payout, centimes.' }),
          }),
        ),
      }),
    ),
  },
  { title: 'PayoutOperatorCatalog', description: 'Payout operator catalog.' },
);

export function payoutCatalogBody(catalog: OperatorCatalog) {
  return {
    object: 'payout.operator_catalog' as const,
    catalog_version: catalog.version,
    countries: catalog.countries().map((country) => ({
      code: country.code,
      name: country.name,
      currencies: [...country.currencies],
      default_currency: country.defaultCurrency,
      operators: country.operators
        .filter((o) => o.payout.supported)
        .map((o) => ({
          slug: o.slug,
          label: o.label,
          gateway_code: o.gatewayCode,
          aliases: [...o.aliases],
          min_amount: o.payout.minAmountMinor,
          max_amount: o.payout.maxAmountMinor,
        })),
    })),
  };
}
