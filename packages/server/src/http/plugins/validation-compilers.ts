import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Bodies are validated strictly: JSON already has types, so "3000" is not an amount.
 * Query strings, path parameters and headers are text on the wire, so those are coerced
 * ("sync=true" becomes a boolean). Every error is collected so `details` can list them all.
 */
function makeAjv(coerceTypes: boolean): Ajv {
  const options: Options = { coerceTypes, allErrors: true, removeAdditional: false, useDefaults: true, strict: false };
  const ajv = new Ajv(options);
  addFormats.default(ajv);
  return ajv;
}

/** Query-string spellings of a boolean that Ajv's coercion does not know ("true"/"false" it does). */
const BOOLEAN_DIGITS: Record<string, string> = { '1': 'true', '0': 'false' };

/** Names of the schema's top-level boolean properties. */
function booleanProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'boolean')
    .map(([name]) => name);
}

export function installValidationCompilers(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return strict.compile(schema);
    const validate = coercing.compile(schema);
    const booleans = httpPart === 'querystring' ? booleanProperties(schema) : [];
    if (booleans.length === 0) return validate;
    // `sync=1` and `sync=0` mean what `sync=true` and `sync=false` do.
    // Fastify reads the errors from the function it was given, so they are copied onto it.
    const withDigits = Object.assign(
      (data: unknown) => {
        const query = data as Record<string, unknown> | null;
        for (const name of booleans) {
          const value = query?.[name];
          if (typeof value === 'string' && value in BOOLEAN_DIGITS) query![name] = BOOLEAN_DIGITS[value];
        }
        const valid = validate(data);
        withDigits.errors = validate.errors;
        return valid;
      },
      { errors: null as typeof validate.errors },
    );
    return withDigits;
  });
}
