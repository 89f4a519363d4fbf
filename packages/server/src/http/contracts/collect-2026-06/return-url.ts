import { AkweError } from '../../../core/errors/index.js';
import type { Environment } from '../../../core/shared/environment.js';

/**
 * return_url (hosted payments): the customer's browser follows it from the final checkout page;
 * the server never fetches it, so no address check is needed, only a URL a browser can safely
 * open: absolute, https (http only for test payments on a development server), no credentials.
 */
export function checkReturnUrl(raw: string | undefined, environment: Environment, dev: boolean): void {
  if (raw === undefined) return;
  const field = 'return_url';
  const refuse = (message: string) => AkweError.ofField('validation_error', field, message);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('return_url must be an absolute https:// URL');
  }
  const httpAllowed = environment === 'test' && dev;
  if (url.protocol !== 'https:' && !(httpAllowed && url.protocol === 'http:')) {
    throw refuse(httpAllowed ? 'return_url must be an http(s):// URL' : 'return_url must be an https:// URL (http:// only for test payments on a development server)');
  }
  if (url.username !== '' || url.password !== '') throw refuse('return_url must not carry credentials (user:password@)');
}
