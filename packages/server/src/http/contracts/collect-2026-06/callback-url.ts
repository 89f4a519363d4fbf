import type { Environment } from '../../../core/shared/environment.js';
import type { DestinationUrlCheck } from '../../shared/url-policy.js';

/**
 * The contract makes callback_url an HTTPS URL. It receives the payment's events, so it is held to the
 * webhook endpoints' rules (http/shared/url-policy.ts): a development server lets test payments
 * use plain HTTP and local receivers.
 */
export async function checkCallbackUrl(url: string | undefined, environment: Environment, check: DestinationUrlCheck): Promise<void> {
  if (url === undefined) return;
  await check(url, environment, 'callback_url');
}
