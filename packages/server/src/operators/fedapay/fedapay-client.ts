import { exchangeJson, type OperatorResponse } from '../operator-http.js';
import type { FedaPayRequest } from './fedapay-requests.js';
import type { FedaPaySettings } from './fedapay-settings.js';

export type FedaPayResponse = OperatorResponse;

/** Sends built requests to FedaPay with the account's secret key as bearer token, within the call timeout. */
export class FedaPayClient {
  constructor(
    private readonly settings: FedaPaySettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  send(request: FedaPayRequest): Promise<FedaPayResponse> {
    return exchangeJson(
      { operator: 'FedaPay', baseUrl: this.settings.baseUrl, timeoutMs: this.settings.timeoutMs, fetchImpl: this.fetchImpl },
      { ...request, headers: { ...request.headers, accept: 'application/json', authorization: `Bearer ${this.settings.apiKey.reveal()}` } },
    );
  }
}
