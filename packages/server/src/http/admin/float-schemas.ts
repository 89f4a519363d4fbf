import { Type } from 'typebox';
import type { RouteFloatView } from '../../core/floats/float-board.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Minor = Nullable(Type.Integer({ description: 'Centimes of `currency`.' }));

export const FloatQuery = Type.Object(
  { low: Type.Boolean({ default: false, description: 'true: only the routes whose last reading was under their threshold (the back office’s banner).' }) },
  { additionalProperties: false },
);

export const FloatList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(
      Type.Object({
        object: Type.Literal('route_float'),
        route: Type.String({ description: 'The route’s label, `<operator slug>/<route name>`, e.g. `mtn_bj/mtn-momo`.' }),
        operator: Type.String(),
        country: Type.String(),
        connector: Type.String({ description: 'The connector family, e.g. `pawapay`.' }),
        pays_out: Type.Boolean({ description: 'Whether new payouts may take this route.' }),
        balance_minor: Minor,
        currency: Nullable(Type.String()),
        read_at: Nullable(Type.String({ format: 'date-time', description: 'When the balance was read; null: never read yet.' })),
        threshold_minor: Nullable(Type.Integer({ description: 'The route’s `low_float_minor` in the operators file; null: none (never low).' })),
        state: Type.Union([Type.Literal('ok'), Type.Literal('low'), Type.Literal('no_threshold'), Type.Literal('read_failed'), Type.Literal('unread')], {
          description: '`low`: under its threshold at the last reading (new payouts take another route that offers them); `read_failed`: the last read failed (`last_error`).',
        }),
        low_since: Nullable(Type.String({ format: 'date-time' })),
        last_error: Nullable(Type.String()),
        last_error_at: Nullable(Type.String({ format: 'date-time' })),
        expected_minor: Nullable(
          Type.Integer({
            description:
              'What Akwe’s ledger expects at the provider for this route: live collections completed through it, less its payouts, refunds and wallet settlements (centimes); null: nothing recorded.',
          }),
        ),
        expected_currency: Nullable(Type.String()),
      }),
    ),
  },
  {
    title: 'AdminRouteFloatList',
    examples: [
      {
        object: 'list',
        data: [
          {
            object: 'route_float',
            route: 'mtn_bj/mtn-momo',
            operator: 'mtn_bj',
            country: 'BJ',
            connector: 'mtn-momo',
            pays_out: true,
            balance_minor: 4_500_000,
            currency: 'XOF',
            read_at: '2026-11-27T22:05:00.000Z',
            threshold_minor: 50_000_000,
            state: 'low',
            low_since: '2026-11-27T22:05:00.000Z',
            last_error: null,
            last_error_at: null,
            expected_minor: 61_250_000,
            expected_currency: 'XOF',
          },
        ],
      },
    ],
  },
);

export const floatToWire = (f: RouteFloatView) => ({
  object: 'route_float' as const,
  route: f.route,
  operator: f.operator,
  country: f.country,
  connector: f.connector,
  pays_out: f.paysOut,
  balance_minor: f.balanceMinor,
  currency: f.currency,
  read_at: f.readAt,
  threshold_minor: f.thresholdMinor,
  state: f.state,
  low_since: f.lowSince,
  last_error: f.lastError,
  last_error_at: f.lastErrorAt,
  expected_minor: f.expectedMinor,
  expected_currency: f.expectedCurrency,
});
