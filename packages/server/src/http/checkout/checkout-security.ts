/**
 * The checkout page's defences (docs/checkout.md, docs/decisions.md "Hosted checkout page"):
 * response headers, the form token (CSRF), the cross-site check and the rate limits of its actions.
 */
import { createHmac } from 'node:crypto';
import { sameText } from '../../core/shared/constant-time.js';
import type { FastifyRequest } from 'fastify';
import type { RateLimitCounter } from '../plugins/rate-limit-store.js';

/** The checkout page's headers are those of every page we serve (http/shared/page-security.ts). */
export { PAGE_CSP as CHECKOUT_CSP, pageSecurityHeaders as securityHeaders } from '../shared/page-security.js';

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
