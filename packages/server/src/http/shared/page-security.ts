/**
 * The response headers of the pages a browser shows (the checkout page, the dashboard): same-origin
 * script and stylesheet only, nothing inline, nothing from elsewhere, never framed (clickjacking),
 * forms posting only to us, and no Referer (their addresses carry one-time tokens).
 */
import type { FastifyReply } from 'fastify';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // data: only for the empty icon that spares the browser a /favicon.ico request.
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers of every page response; `cache` is `no-store` unless the caller says otherwise (hashed assets). */
export function pageSecurityHeaders(reply: FastifyReply, cache = 'no-store'): void {
  reply.header('content-security-policy', PAGE_CSP);
  reply.header('x-frame-options', 'DENY');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('cache-control', cache);
  if (cache === 'no-store') reply.header('pragma', 'no-cache');
}
