import { Type } from 'typebox';
import { inCentimes } from '../../shared/money-descriptions.js';
import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';
import { operatorAvailability } from '../../../core/operators/operator-availability.js';
import type { OperatorConnectors } from '../../../core/operators/operator-connector.js';
import type { Environment } from '../../../core/shared/environment.js';
import { OperatorStatus } from '../collect-2026-06/schemas.js';
import { catalogCountries, countryFields, operatorIdentity } from '../../shared/operator-catalog-body.js';

/** Payout catalog (shape not fixed by the contract; ours): payout operators, limits in centimes as payouts speak. */
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
            min_amount_minor: Type.Integer({ description: inCentimes('Smallest payout.') }),
            max_amount_minor: Type.Integer({ description: inCentimes('Largest payout.') }),
            status: OperatorStatus,
          }),
        ),
      }),
    ),
  },
  {
    title: 'PayoutOperatorCatalog',
    description: 'Payout operator catalog.',
    examples: [
      {
        object: 'payout.operator_catalog',
        catalog_version: '2026-06.1',
        countries: [
          {
            code: 'TG',
            name: 'Togo',
            currencies: ['XOF'],
            default_currency: 'XOF',
            operators: [
              {
                slug: 'tmoney_tg',
                label: 'T-Money',
                gateway_code: 'TMONEY_TG',
                aliases: ['togocom_tg'],
                min_amount_minor: 10000,
                max_amount_minor: 200000000,
                status: 'available',
              },
            ],
          },
        ],
      },
    ],
  },
);

/** With each operator's status in the key's environment (unavailable: payouts refused with 503). */
export function payoutCatalogBody(catalog: OperatorCatalog, connectors: OperatorConnectors, environment: Environment) {
  return {
    object: 'payout.operator_catalog' as const,
    catalog_version: catalog.version,
    countries: catalogCountries(catalog, {
      flow: 'payout',
      operator: (operator) => ({
        ...operatorIdentity(operator),
        aliases: [...operator.aliases],
        min_amount_minor: operator.payout.minAmountMinor,
        max_amount_minor: operator.payout.maxAmountMinor,
        status: operatorAvailability(connectors, environment, operator).supports.payouts ? connectors.health(environment, operator.gatewayCode) : ('unavailable' as const),
      }),
      country: countryFields,
    }),
  };
}
