import { Type } from 'typebox';

/** SPEC.md "Operator catalog (earlier contract shape)", field for field. */
export const LegacyOperatorCatalog = Type.Object(
  {
    api_version: Type.String({ examples: ['2026-06.1'] }),
    countries: Type.Array(
      Type.Object({
        code: Type.String(),
        currency_default: Type.String(),
        operators: Type.Array(
          Type.Object({
            slug: Type.String(),
            label: Type.String(),
            gateway_code: Type.String(),
            aliases: Type.Optional(Type.Array(Type.String())),
            requires_otp: Type.Boolean(),
          }),
        ),
        unsupported: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  },
  { description: 'Operator catalog, earlier contract shape.' },
);

export const LegacyError = Type.Object(
  { error: Type.String(), code: Type.String(), detail: Type.String() },
  { description: 'Earlier-contract error body.' },
);
