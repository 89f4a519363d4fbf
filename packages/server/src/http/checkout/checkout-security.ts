/**
 * The checkout page's defences (docs/checkout.md, docs/decisions.md "Hosted checkout page"):
 * response headers, the form token (CSRF), the cross-site check and the rate limits of its actions.
 */
import { createHmac } from 'node:crypto';
import { sameText } from '../../core/shared/constant-time.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitCounter } from '../plugins/rate-limit-store.js';

/**
 * Same-origin script and stylesheet only: no inline script, no inline style, no third party.
 * `frame-ancestors 'none'`: the page is never framed (a framed payment page invites clickjacking;
 * merchants redirect or open a new tab instead). `form-action 'self'`: forms post only to us.
 */
export const CHECKOUT_CSP = [
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

/** Headers of every checkout response; `cache` is `no-store` unless the caller says otherwise (assets). */
export function securityHeaders(reply: FastifyReply, cache = 'no-store'): void {
  reply.header('content-security-policy', CHECKOUT_CSP);
  reply.header('x-frame-options', 'DENY');
  reply.header('x-content-type-options', 'nosniff');
  // The URL carries the checkout token: it must not travel to the merchant's site in Referer.
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('cache-control', cache);
  if (cache === 'no-store') reply.header('pragma', 'no-cache');
}

/**
 * The form token: HMAC-SHA256 of the checkout token under the server's secret, base64url. Stateless
 * (no cookie, so browsers that refuse cookies can still pay) and bound to one checkout: a form of
 * one checkout cannot be replayed against another, and nobody can make one without a page we served.
 */
export function formToken(secret: string, checkoutToken: string): string {
  return createHmac('sha256', secret).update(`akwe-checkout-form\0${checkoutToken}`).digest('base64url');
}

export function formTokenMatches(secret: string, checkoutToken: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  return sameText(presented, formToken(secret, checkoutToken));
}

/**
 * Browsers say where a request comes from (Sec-Fetch-Site, Origin). A form post from another site
 * is refused even with a valid form token; browsers that send neither header rely on the token.
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  const host = request.headers.host;
  return origin !== publicOrigin && !(host !== undefined && (origin === `http://${host}` || origin === `https://${host}`));
}

export interface CheckoutLimits {
  /** Actions (form posts) per checkout token per minute. */
  perToken: number;
  /** Actions per client address per minute, across checkouts. */
  perAddress: number;
}

export const CHECKOUT_WINDOW_MS = 60_000;

/**
 * Counts one action for the token and for the address; the seconds to wait when either is over its
 * budget. Counters that fail (Redis down) let the action through, as the API's limits do: a Redis
 * outage must not stop customers paying.
 */
export async function overLimit(counter: RateLimitCounter, limits: CheckoutLimits, token: string, address: string, onError: (error: unknown) => void): Promise<number | undefined> {
  let byToken, byAddress;
  try {
    [byToken, byAddress] = await Promise.all([counter.hit(`checkout:token:${token}`, CHECKOUT_WINDOW_MS), counter.hit(`checkout:ip:${address}`, CHECKOUT_WINDOW_MS)]);
  } catch (error) {
    onError(error);
    return undefined;
  }
  const over = [byToken.count > limits.perToken ? byToken.resetInMs : 0, byAddress.count > limits.perAddress ? byAddress.resetInMs : 0];
  const wait = Math.max(...over);
  return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : undefined;
}
