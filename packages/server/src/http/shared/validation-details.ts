import type { FastifySchemaValidationError } from 'fastify';
import type { ErrorDetail } from '../../core/errors/index.js';

/** Ajv's errors as `{ field, message }`: `customer.phone`, `amount`, or the missing property's name. */
export function validationDetails(errors: FastifySchemaValidationError[], context: string | undefined): ErrorDetail[] {
  return errors.map((error) => {
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
