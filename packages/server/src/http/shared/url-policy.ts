/**
 * Where the API lets a merchant send events (webhook endpoint URLs, a payment's callback_url),
 * checked when the URL is registered, so a URL that every delivery would refuse is a 400 now
 * rather than a week of failed tries. The same address classification as at delivery
 * (webhooks/ssrf-guard.ts); the delivery-time check stays, since DNS answers can change.
 *
 * - Always: a URL the WHATWG parser accepts, http or https, no credentials (`user:pw@`).
 * - A live URL, and a test URL on a server without the development setting: https only, and the
 *   host must be public: an IP literal is judged as it is, a name is resolved and every address it
 *   gives must be public. A name that does not resolve is refused too (nothing could be
 *   delivered to it), naming the resolver's answer. A live URL's port must be 443 (the default)
 *   or 8443 (`liveDestinationPorts`).
 * - A test URL on a development server: http allowed, any host (a local receiver), not resolved.
 *
 * Every refusal is 400 `validation_error` with `field`, the code schema failures of these fields
 * already use.
 */
import { AkweError } from '../../core/errors/index.js';
import type { Environment } from '../../core/shared/environment.js';
import { checkTarget, liveDestinationPorts, portRefusal, type Resolver } from '../../webhooks/ssrf-guard.js';

/** Resolves (never throws for a bad URL: refuses with 400 naming `field`). */
export type DestinationUrlCheck = (raw: string, environment: Environment, field: string) => Promise<void>;

export function destinationUrlCheck(options: { dev: boolean; resolver?: Resolver }): DestinationUrlCheck {
  return async (raw, environment, field) => {
    const refuse = (message: string) => AkweError.ofField('validation_error', field, message);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      // The schemas' `uri` format lets through what the URL parser refuses (`http://a:99999/`).
      throw refuse(`${field} must be an absolute http(s) URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`${field} must be an https:// URL`);
    if (url.username !== '' || url.password !== '') throw refuse(`${field} must not carry credentials (user:password@)`);

    if (environment === 'test' && options.dev) return;
    if (url.protocol !== 'https:') {
      throw refuse(environment === 'live' ? `${field} must be an https:// URL in live` : `${field} must be an https:// URL (http:// only for test on a development server)`);
    }
    const refusedPort = environment === 'live' ? portRefusal(url, liveDestinationPorts) : undefined;
    if (refusedPort !== undefined) throw refuse(`${field}: ${refusedPort} for a live URL`);
    const target = await checkTarget(url, { allowPrivate: false, resolver: options.resolver });
    if (!target.ok) throw refuse(`${field} must reach a public address: ${target.reason}`);
  };
}
