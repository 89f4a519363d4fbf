import { AkweError } from '../../core/errors/index.js';
import type { Environment } from '../../core/shared/environment.js';

/** SPEC.md: callback_url is an HTTPS URL. A development server lets test payments use plain HTTP (local receivers). */
export function checkCallbackUrl(url: string | undefined, environment: Environment, dev: boolean): void {
  if (url === undefined) return;
  const protocol = new URL(url).protocol;
  if (protocol === 'https:') return;
  if (protocol === 'http:' && dev && environment === 'test') return;
  throw new AkweError('validation_error', 'callback_url must be an https:// URL', { field: 'callback_url' });
}
