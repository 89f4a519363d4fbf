import type { ErrorCode } from '../../core/errors/index.js';

/** Where the server serves its error reference, outside /api/v1 beside the API reference (/docs). */
export const ERROR_REFERENCE_PATH = '/docs/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The absolute URL of this server's error reference page (PUBLIC_URL + /docs/errors). */
    errorReferenceUrl: string;
  }
}

/** The error reference page of the server reachable at `publicUrl`. */
export function errorReferenceUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${ERROR_REFERENCE_PATH}`;
}

/** A code's entry in the error reference: the page's anchor is the code itself. */
export function errorDocUrl(referenceUrl: string, code: ErrorCode): string {
  return `${referenceUrl}#${code}`;
}
