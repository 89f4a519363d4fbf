import type { Environment } from '../core/shared/environment.js';
import { liveDestinationPorts, type Resolver } from './ssrf-guard.js';
import { WebhookSender } from './webhook-sender.js';

/**
 * Live receivers must resolve to public addresses, always; test receivers may be
 * private or loopback only on a development server (so a merchant can test against localhost).
 */
export function webhookSenders(options: { dev: boolean; resolver?: Resolver }): ((environment: Environment) => WebhookSender) & { close(): Promise<void> } {
  // Checked again at each send, for endpoints stored before the port rule (and in case of a bug).
  const live = new WebhookSender({ allowPrivate: false, resolver: options.resolver, allowedPorts: liveDestinationPorts });
  const test = new WebhookSender({ allowPrivate: options.dev, resolver: options.resolver });
  return Object.assign((environment: Environment) => (environment === 'live' ? live : test), {
    /** Closes the kept-alive connections of both. */
    close: async () => {
      await Promise.all([live.close(), test.close()]);
    },
  });
}
