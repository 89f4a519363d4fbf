/**
 * FedaPay's balances (`GET /v1/balances`: `{ "v1/balances": [{ "amount": 952, "mode": "mtn",
 * "currency_id": 1, … }] }`), read as plain data. An account holds one balance per payment mode;
 * the route's float is the balance of its own mode (amounts are whole francs). FedaPay names the
 * currency by id only: the route's configured currency is taken as the balance's.
 */
import type { ProviderBalance } from '../../core/operators/operator-connector.js';
import { minorFromMajorText } from '../../core/shared/money.js';
import { FedaPayProtocolError, unwrap } from './fedapay-responses.js';

export function modeBalanceOf(body: unknown, mode: string, currency: string): ProviderBalance {
  const list = unwrap(body, 'balances');
  if (!Array.isArray(list)) throw new FedaPayProtocolError('"v1/balances" is not a list');
  const balance = list.find((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null && (entry as Record<string, unknown>)['mode'] === mode);
  if (!balance) throw new FedaPayProtocolError(`the account has no balance for the mode ${mode}`);
  const amountMinor = minorFromMajorText(balance['amount']);
  if (amountMinor === undefined) throw new FedaPayProtocolError(`the ${mode} balance's amount is unreadable`);
  return { amountMinor, currency };
}
