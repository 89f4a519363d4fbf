import type { Clock } from '../../core/ports.js';
import { TokenCache } from '../mtn-momo/mtn-token-cache.js';
import { exchangeJson, type OperatorRequest, type OperatorResponse } from '../operator-http.js';
import { tokenRequest } from './orange-requests.js';
import { errorMessage, OrangeProtocolError, parseToken } from './orange-responses.js';
import type { OrangeMoneySettings } from './orange-settings.js';

/**
 * Sends built requests to Orange with a cached OAuth token (one refresh however many calls need it),
 * within the call timeout; a token Orange refuses (401: it did nothing) is dropped and the call made
 * once more with a fresh one.
 */
export class OrangeMoneyClient {
  private readonly tokens: TokenCache;

  constructor(
    private readonly settings: OrangeMoneySettings,
    clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.tokens = new TokenCache(() => this.fetchToken(), clock);
  }

  async send(request: OperatorRequest): Promise<OperatorResponse> {
    const token = await this.tokens.get();
    const first = await this.exchange({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } });
    if (first.status !== 401) return first;
    this.tokens.invalidate(token);
    return this.exchange({ ...request, headers: { ...request.headers, authorization: `Bearer ${await this.tokens.get()}` } });
  }

  /** A token, for `akwe operators check`. */
  token(): Promise<string> {
    return this.tokens.get();
  }

  private async fetchToken(): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const response = await this.exchange(tokenRequest(this.settings));
    if (response.status !== 200) throw new OrangeProtocolError(`the token request was answered ${response.status} ${errorMessage(response.body) ?? ''}`.trim());
    return parseToken(response.body);
  }

  private exchange(request: OperatorRequest): Promise<OperatorResponse> {
    return exchangeJson({ operator: 'Orange Money', baseUrl: this.settings.baseUrl, timeoutMs: this.settings.timeoutMs, fetchImpl: this.fetchImpl }, request);
  }
}
