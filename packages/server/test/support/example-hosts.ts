/**
 * A resolver for tests: this machine resolves no name but the npm registry's, and tests register
 * URLs such as https://shop.example/hooks. Names under the reserved `.example` and `.test`
 * domains (RFC 2606) resolve to a public address, `localhost` to loopback, and `hosts` adds or
 * overrides exact names (a name resolving to a private address, say). Anything else fails as
 * an unknown name does (ENOTFOUND).
 */
import type { ResolvedAddress, Resolver } from '../../src/webhooks/ssrf-guard.js';

/** A public address (once example.com's) that the example names stand for. */
export const PUBLIC_EXAMPLE_ADDRESS = '93.184.216.34';

export function exampleHostsResolver(hosts: Record<string, string[]> = {}): Resolver {
  return async (hostname) => {
    const name = hostname.toLowerCase();
    const addresses = hosts[name] ?? (name === 'localhost' ? ['127.0.0.1'] : name.endsWith('.example') || name.endsWith('.test') ? [PUBLIC_EXAMPLE_ADDRESS] : undefined);
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}
