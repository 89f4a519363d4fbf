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

export function installValidationCompilers(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
