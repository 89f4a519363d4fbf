/**
 * pawaPay's statements API (docs.pawapay.io "Statements", v2): ask for a wallet's statement of a
 * period (POST /v2/statements), follow its status (GET /v2/statements/{statementId}) until it is
 * COMPLETED, then download the CSV from its `downloadUrl` (not compressed: we ask for plain CSV).
 * The daily reconciliation reads one UTC day per wallet (country and currency).
 */
import { randomUUID } from 'node:crypto';
import type { StatementFetch } from '../../core/operators/operator-connector.js';
import type { PawapaySettings } from './pawapay-settings.js';

/** How often, and how many times, a statement being generated is asked about. */
const POLL_INTERVAL_MS = 2_000;
const POLL_ATTEMPTS = 90;

interface StatementState {
  status?: string;
  downloadUrl?: string;
}

export function pawapayStatements(settings: PawapaySettings, fetchImpl: typeof fetch = fetch, pollIntervalMs = POLL_INTERVAL_MS): StatementFetch {
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetchImpl(new URL(path, `${settings.baseUrl.replace(/\/+$/, '')}/`), {
      ...init,
      headers: { authorization: `Bearer ${settings.apiToken.reveal()}`, 'content-type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    if (!response.ok) throw new Error(`pawaPay answered ${response.status} to ${init.method ?? 'GET'} ${path}`);
    return response;
  };
  return {
    key: `pawapay:${settings.baseUrl}:${settings.country}:${settings.currency}`,
    async fetch(day) {
      const statementId = randomUUID();
      const asked = (await (
        await call('v2/statements', {
          method: 'POST',
          body: JSON.stringify({
            statementId,
            wallet: { country: settings.country, currency: settings.currency },
            startDate: `${day}T00:00:00Z`,
            endDate: `${day}T23:59:59Z`,
            compressed: false,
          }),
        })
      ).json()) as { status?: string; failureReason?: { failureMessage?: string } };
      if (asked.status !== 'ACCEPTED') throw new Error(`pawaPay refused the statement of ${day}: ${asked.failureReason?.failureMessage ?? asked.status}`);
      for (let attempt = 0; attempt < POLL_ATTEMPTS; attempt++) {
        // pawaPay wraps the statement in `data` (status FOUND); read both shapes.
        const found = (await (await call(`v2/statements/${statementId}`)).json()) as StatementState & { data?: StatementState };
        const statement: StatementState = found.data ?? found;
        if (statement.status === 'COMPLETED' && statement.downloadUrl) return (await fetchImpl(statement.downloadUrl, { signal: AbortSignal.timeout(settings.timeoutMs) })).text();
        if (statement.status === 'FAILED') throw new Error(`pawaPay could not make the statement of ${day}`);
        await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
      }
      throw new Error(`pawaPay's statement of ${day} was not ready in time`);
    },
  };
}
