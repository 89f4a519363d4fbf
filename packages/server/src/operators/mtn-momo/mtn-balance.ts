/**
 * MTN's account balance (`GET /{product}/v1_0/account/balance`: `{ "availableBalance": "1500",
 * "currency": "XOF" }`, major units as text), read as plain data: the float of a route's payouts.
 */
import type { ProviderBalance } from '../../core/operators/operator-connector.js';
import { minorFromMajorText } from '../../core/shared/money.js';
import { MtnProtocolError } from './mtn-responses.js';

export function parseAccountBalance(body: unknown): ProviderBalance {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const amountMinor = minorFromMajorText(record['availableBalance']);
  const currency = record['currency'];
  if (amountMinor === undefined || typeof currency !== 'string' || currency === '') {
    throw new MtnProtocolError('the account balance answer has no readable availableBalance and currency');
  }
  return { amountMinor, currency };
}
