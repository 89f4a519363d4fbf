import type { Clock } from '../../core/ports.js';
import { exchangeJson, type OperatorResponse } from '../operator-http.js';
import { MtnProtocolError, parseToken } from './mtn-responses.js';
import { tokenRequest, type MtnRequest } from './mtn-requests.js';
import type { MtnMomoSettings, MtnProduct } from './mtn-settings.js';
import { TokenCache } from './mtn-token-cache.js';

export type MtnResponse = OperatorResponse;

/**
 * Sends built requests to one MTN MoMo deployment: the product's subscription key and bearer token
 * on each, a timeout well inside the request lease, and one retry with a fresh token when MTN
 * refuses the cached one (a 401 means it did nothing, so the retry cannot charge twice).
 */
export class MtnMomoClient {
  private readonly tokens = new Map<MtnProduct, TokenCache>();

  constructor(
    private readonly settings: MtnMomoSettings,
    private readonly clock: Clock,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    for (const product of Object.keys(settings.products) as MtnProduct[]) {
      this.tokens.set(product, new TokenCache(() => this.fetchToken(product), clock));
    }
  }

  async send(request: MtnRequest): Promise<MtnResponse> {
    const tokens = this.tokens.get(request.product);
    if (!tokens) throw new MtnProtocolError(`no ${request.product} credentials are configured`);
    const token = await tokens.get();
    const first = await this.exchange(request, `Bearer ${token}`);
    if (first.status !== 401) return first;
    tokens.invalidate(token);
    return this.exchange(request, `Bearer ${await tokens.get()}`);
  }

  private async fetchToken(product: MtnProduct): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const credentials = this.settings.products[product]!;
    const request = tokenRequest(product, credentials);
    const response = await this.exchange(request, request.headers['authorization']!);
    if (response.status !== 200) throw new MtnProtocolError(`the ${product} token request was answered ${response.status}`);
    return parseToken(response.body);
  }

  private exchange(request: MtnRequest, authorization: string): Promise<MtnResponse> {
    const credentials = this.settings.products[request.product]!;
    return exchangeJson(
      { operator: 'MTN MoMo', baseUrl: this.settings.baseUrl, timeoutMs: this.settings.timeoutMs, fetchImpl: this.fetchImpl },
      { ...request, headers: { ...request.headers, authorization, 'ocp-apim-subscription-key': credentials.subscriptionKey.reveal() } },
    );
  }
}
