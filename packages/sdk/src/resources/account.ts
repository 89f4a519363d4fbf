import type { RequestOptions } from '../transport.js';
import { Resource } from './resource.js';

export class AccountResource extends Resource {
  /** GET /account: the calling key's merchant, environment and scopes. */
  retrieve(options?: RequestOptions) {
    return this.call('getAccount', { method: 'GET', path: '/account' }, options);
  }

  /** GET /account/callback-secret: what signs deliveries to payments' callback_url. */
  callbackSecret(options?: RequestOptions) {
    return this.call('getCallbackSecret', { method: 'GET', path: '/account/callback-secret' }, options);
  }
}
