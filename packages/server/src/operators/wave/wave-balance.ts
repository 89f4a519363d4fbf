/**
 * Wave's wallet balance (Balance API, `GET /v1/balance`: `{ "amount": "10000", "currency": "XOF" }`),
 * read as plain data. A Wave API key is bound to one business wallet, so this is the route's float.
 */
import type { ProviderBalance } from '../../core/operators/operator-connector.js';
import { minorFromMajorText } from '../../core/shared/money.js';
import { WaveProtocolError } from './wave-responses.js';

export function parseWalletBalance(body: unknown): ProviderBalance {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const amountMinor = minorFromMajorText(record['amount']);
  const currency = record['currency'];
  if (amountMinor === undefined || typeof currency !== 'string' || currency === '') throw new WaveProtocolError('the balance answer has no readable amount and currency');
  return { amountMinor, currency };
}
