/**
 * pawaPay's wallet balances (`GET /v2/wallet-balances?country=BEN`: `{ "balances": [{ "country",
 * "balance": "21798.03", "currency", "provider" }] }`), read as plain data. Wallets are issued per
 * country; a wallet kept for one provider names it in `provider` and is that provider's float.
 */
import type { ProviderBalance } from '../../core/operators/operator-connector.js';
import { minorFromMajorText } from '../../core/shared/money.js';
import { PawapayProtocolError } from './pawapay-responses.js';

/** The wallet that pays this provider's payouts: its own when it has one, else the country's shared one. */
export function walletBalanceFor(body: unknown, country: string, provider: string): ProviderBalance {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const wallets = Array.isArray(record['balances']) ? record['balances'].filter((w): w is Record<string, unknown> => typeof w === 'object' && w !== null) : undefined;
  if (!wallets) throw new PawapayProtocolError('the wallet balances answer has no balances list');
  const inCountry = wallets.filter((w) => w['country'] === country);
  const providerOf = (w: Record<string, unknown>) => (typeof w['provider'] === 'string' ? w['provider'] : typeof w['mno'] === 'string' ? w['mno'] : '');
  const wallet = inCountry.find((w) => providerOf(w) === provider) ?? inCountry.find((w) => providerOf(w) === '');
  if (!wallet) throw new PawapayProtocolError(`no wallet in ${country} pays ${provider}`);
  const amountMinor = minorFromMajorText(wallet['balance']);
  const currency = wallet['currency'];
  if (amountMinor === undefined || typeof currency !== 'string' || currency === '') throw new PawapayProtocolError(`the ${country} wallet's balance is unreadable`);
  return { amountMinor, currency };
}
