import type { FastifyError } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import { validationDetails } from './validation-details.js';

/**
 * Any thrown thing -> an AkweError with a catalog code. Unknown errors become internal_error;
 * bad input is always a 4xx with a stable code, never a 500.
 */
export function toAkweError(error: unknown): AkweError {
  if (error instanceof AkweError) return error;
  const fastifyError = error as Partial<FastifyError> & { validation?: FastifyError['validation'] };
  if (fastifyError.validation) {
    const details = validationDetails(fastifyError.validation, fastifyError.validationContext);
    return new AkweError('validation_error', details[0]?.message, { field: details[0]?.field, details });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AkweError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AkweError('unsupported_media_type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AkweError('invalid_json', 'The request body is empty but Content-Type is application/json.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AkweError('invalid_json');
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) return new AkweError('invalid_json');
  const status = fastifyError.statusCode ?? 500;
  if (status === 429) return new AkweError('rate_limited');
  if (status === 404) return new AkweError('not_found');
  if (status === 405) return new AkweError('method_not_allowed');
  if (status >= 400 && status < 500) return new AkweError('validation_error', fastifyError.message);
  return new AkweError('internal_error');
}
