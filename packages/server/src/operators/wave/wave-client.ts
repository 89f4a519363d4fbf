import type { WaveRequest } from './wave-requests.js';
import type { WaveSettings } from './wave-settings.js';

export interface WaveResponse {
  status: number;
  /** The JSON body, or undefined when there was none (a refund's 200) or it was not JSON. */
  body: unknown;
}

/** Wave did not answer (network, timeout): whether it received the request is unknown. */
export class WaveUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`Wave unreachable: ${message}`, options);
    this.name = 'WaveUnreachable';
  }
}

/** Sends built requests to Wave with the wallet's API key as bearer token, within the call timeout. */
export class WaveClient {
  constructor(
    private readonly settings: WaveSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async send(request: WaveRequest): Promise<WaveResponse> {
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(`${this.settings.baseUrl.replace(/\/+$/, '')}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, authorization: `Bearer ${this.settings.apiKey.reveal()}` },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      throw new WaveUnreachable(`${request.method} ${request.path.split('?')[0]}: ${(error as Error).message}`, { cause: error });
    }
    let body: unknown;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  }
}
