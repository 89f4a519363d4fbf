import { exchangeJson, type OperatorResponse } from '../operator-http.js';
import type { PawapayRequest } from './pawapay-requests.js';
import type { PawapaySettings } from './pawapay-settings.js';

export type PawapayResponse = OperatorResponse;

/** Sends built requests to pawaPay with the account's API token as bearer token, within the call timeout. */
export class PawapayClient {
  constructor(
    private readonly settings: PawapaySettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  send(request: PawapayRequest): Promise<PawapayResponse> {
    return exchangeJson(
      { operator: 'pawaPay', baseUrl: this.settings.baseUrl, timeoutMs: this.settings.timeoutMs, fetchImpl: this.fetchImpl },
      { ...request, headers: { ...request.headers, authorization: `Bearer ${this.settings.apiToken.reveal()}` } },
    );
  }
}
