import { exchangeJson, type OperatorResponse } from '../operator-http.js';
import type { WaveRequest } from './wave-requests.js';
import type { WaveSettings } from './wave-settings.js';

export type WaveResponse = OperatorResponse;

/** Sends built requests to Wave with the wallet's API key as bearer token, within the call timeout. */
export class WaveClient {
  constructor(
    private readonly settings: WaveSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  send(request: WaveRequest): Promise<WaveResponse> {
    return exchangeJson(
      { operator: 'Wave', baseUrl: this.settings.baseUrl, timeoutMs: this.settings.timeoutMs, fetchImpl: this.fetchImpl },
      { ...request, headers: { ...request.headers, authorization: `Bearer ${this.settings.apiKey.reveal()}` } },
    );
  }
}
