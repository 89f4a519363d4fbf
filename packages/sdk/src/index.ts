export { Akwe, DEFAULT_BASE_URL, type AkweOptions } from './client.js';
export {
  AkweError,
  APIError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SignatureVerificationError,
  type AkweErrorFields,
} from './errors.js';
export { ListPromise, Page } from './pagination.js';
export type { BackoffOptions, RequestOptions } from './transport.js';
export { constructEvent, generateTestHeader, webhooks, type TestHeaderOptions } from './webhooks.js';
export type * from './api-types.js';
export { Akwe as default } from './client.js';
