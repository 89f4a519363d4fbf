import { Type } from 'typebox';
import { errorCatalog } from '../../core/errors/index.js';

const codes = Object.keys(errorCatalog);

/** The error body of our shape, for the OpenAPI document and response serialisation. */
export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable snake_case code from the error catalog.', examples: codes }),
      message: Type.String(),
      field: Type.Optional(Type.String({ description: 'The first field at fault, for validation errors.' })),
      details: Type.Optional(
        Type.Array(
          Type.Object({
            field: Type.String(),
            message: Type.String(),
            row: Type.Optional(Type.Integer({ description: 'Bulk payments: the line at fault (CSV: the spreadsheet row, header = 1; JSON: the position in items, from 1).' })),
            code: Type.Optional(Type.String({ description: "Bulk payments: the line problem's own code (invalid_phone, duplicate_reference, ...)." })),
          }),
        ),
      ),
      doc_url: Type.String({
        format: 'uri',
        description: "The code's entry in this server's error reference (`<PUBLIC_URL>/docs/errors#<code>`): what the code means and what to do.",
        examples: ['https://pay.example.com/docs/errors#amount_too_low'],
      }),
      request_id: Type.String(),
    }),
  },
  { title: 'Error', description: 'The error body of the current contract (and of payouts and bulk payments).' },
);

export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}
