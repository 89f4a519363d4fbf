import type { Clock } from '../../core/ports.js';
import { MtnProtocolError, parseToken } from './mtn-responses.js';
import { tokenRequest, type MtnRequest } from './mtn-requests.js';
import type { MtnMomoSettings, MtnProduct } from './mtn-settings.js';
import { TokenCache } from './mtn-token-cache.js';

export interface MtnResponse {
  status: number;
  /** The JSON body, or undefined when there was none (202) or it was not JSON. */
  body: unknown;
}

/** MTN did not answer (network, timeout): whether it received the request is unknown. */
export class MtnUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`MTN MoMo unreachable: ${message}`, options);
    this.name = 'MtnUnreachable';
  }
}

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

  private async exchange(request: MtnRequest, authorization: string): Promise<MtnResponse> {
    const credentials = this.settings.products[request.product]!;
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.settings.baseUrl.replace(/\/+$/, '')}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, authorization, 'ocp-apim-subscription-key': credentials.subscriptionKey.reveal() },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'manual',
      });
    } catch (error) {
      throw new MtnUnreachable(`${request.method} ${request.path}: ${(error as Error).message}`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new MtnUnreachable(`${request.method} ${request.path}: the answer was cut (${(error as Error).message})`, { cause: error });
    }
    return { status: response.status, body: parseJson(text) };
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
