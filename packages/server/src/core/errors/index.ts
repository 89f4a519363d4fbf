export { AkweError, type ErrorDetail } from './akwe-error.js';
export { errorCatalog, type ErrorCode } from './error-catalog.js';
