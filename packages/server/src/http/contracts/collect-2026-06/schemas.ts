import { Type } from 'typebox';
import { inMajorUnits } from '../../shared/money-descriptions.js';

/** How an operator is doing in the key's environment (its connector's circuit breaker). */
export const OperatorStatus = Type.Union([Type.Literal('available'), Type.Literal('degraded'), Type.Literal('unavailable')], {
  description:
    'available: taking traffic; degraded: recent failures, still taking traffic; unavailable: refused at once with 503 operator_unavailable (no live connector, or the operator is not answering).',
});

const CatalogOperator = Type.Object(
  {
    slug: Type.String({ description: 'Canonical operator slug, used in requests.' }),
    label: Type.String(),
    gateway_code: Type.String(),
    aliases: Type.Array(Type.String(), { description: 'Other slugs accepted in requests; responses always carry `slug`.' }),
    requires_otp: Type.Boolean({ description: 'The customer confirms with a one-time code (POST …/confirm).' }),
    min_amount: Type.Integer({ description: inMajorUnits('Smallest collect amount.') }),
    max_amount: Type.Integer({ description: inMajorUnits('Largest collect amount.') }),
    status: OperatorStatus,
    supports: Type.Object(
      {
        direct: Type.Boolean({ description: 'Direct collection (push, or OTP for operators that require it).' }),
        hosted: Type.Boolean({ description: 'Payable on the hosted checkout page.' }),
        refunds: Type.Boolean({ description: 'Refunds through the operator.' }),
      },
      { description: 'What the operator takes in the key’s environment (test: the sandbox, everything).' },
    ),
  },
  { title: 'CatalogOperator' },
);

export const CurrentOperatorCatalog = Type.Object(
  {
    object: Type.Literal('collect.operator_catalog'),
    api_version: Type.String({ examples: ['2026-06'] }),
    catalog_version: Type.String({ description: 'Version of the catalog data.' }),
    countries: Type.Array(
      Type.Object({
        code: Type.String({ examples: ['BJ', 'TG', 'CI'] }),
        name: Type.String(),
        currencies: Type.Array(Type.String(), { description: 'Currencies accepted in the country.' }),
        default_currency: Type.String(),
        operators: Type.Array(CatalogOperator),
      }),
    ),
  },
  {
    title: 'OperatorCatalog',
    description: 'Operator catalog, current contract (2026-06).',
    examples: [
      {
        object: 'collect.operator_catalog',
        api_version: '2026-06',
        catalog_version: '2026-06.1',
        countries: [
          {
            code: 'BJ',
            name: 'Bénin',
            currencies: ['XOF'],
            default_currency: 'XOF',
            operators: [
              {
                slug: 'mtn_bj',
                label: 'MTN MoMo',
                gateway_code: 'MTN_BJ',
                aliases: [],
                requires_otp: false,
                min_amount: 100,
                max_amount: 2000000,
                status: 'available',
                supports: { direct: true, hosted: true, refunds: true },
              },
            ],
          },
        ],
      },
    ],
  },
);
