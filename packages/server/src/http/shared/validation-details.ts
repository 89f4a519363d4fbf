import type { FastifySchemaValidationError } from 'fastify';
import type { ErrorDetail } from '../../core/errors/index.js';

/**
 * A body that may also be absent is a union with null (`Type.Union([Type.Object(…), Type.Null()])`):
 * Ajv then adds, beside the real problem, "must be null" (the other branch) and "must match a
 * schema in anyOf" (the union itself). Those say nothing to the caller and hide the field at fault,
 * so they are dropped whenever another error remains.
 */
function withoutUnionNoise(errors: FastifySchemaValidationError[]): FastifySchemaValidationError[] {
  const noise = (error: FastifySchemaValidationError) =>
    error.keyword === 'anyOf' || error.keyword === 'oneOf' || (error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null');
  const meaningful = errors.filter((error) => !noise(error));
  return meaningful.length > 0 ? meaningful : errors;
}

/** Ajv's errors as `{ field, message }`: `customer.phone`, `amount`, or the missing property's name. */
export function validationDetails(errors: FastifySchemaValidationError[], context: string | undefined): ErrorDetail[] {
  return withoutUnionNoise(errors).map((error) => {
    const path = error.instancePath.split('/').filter(Boolean);
    const params = error.params as Record<string, unknown>;
    if (typeof params.missingProperty === 'string') path.push(params.missingProperty);
    if (typeof params.additionalProperty === 'string') path.push(params.additionalProperty);
    const field = path.join('.') || context || 'body';
    let message = `${field} ${error.message ?? 'is not valid'}`;
    if (error.keyword === 'required') message = `${field} is required`;
    else if (error.keyword === 'additionalProperties') message = `${field} is not a known field`;
    else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) message = `${field} must be one of ${params.allowedValues.join(', ')}`;
    return { field, message };
  });
}
