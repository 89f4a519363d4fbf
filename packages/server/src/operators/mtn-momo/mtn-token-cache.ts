import type { Clock } from '../../core/ports.js';

/** Refresh this long before the operator's expiry, so no call leaves with a token about to die. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

interface CachedToken {
  value: string;
  expiresAtMs: number;
}

/**
 * One product's OAuth token: fetched once, reused until shortly before it expires, and refreshed
 * by one fetch however many calls need it at once. A token the operator refused (401) is dropped,
 * so the next call fetches a fresh one.
 */
export class TokenCache {
  private cached: CachedToken | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<{ accessToken: string; expiresInSeconds: number }>,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<string> {
    const nowMs = this.clock.now().getTime();
    if (this.cached && this.cached.expiresAtMs - TOKEN_REFRESH_MARGIN_MS > nowMs) return this.cached.value;
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Forgets `token` if it is still the cached one (a newer token stays). */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
  }

  private async refresh(): Promise<string> {
    const startedMs = this.clock.now().getTime();
    const { accessToken, expiresInSeconds } = await this.fetchToken();
    // Counted from when it was asked for: the operator's clock started no later than that.
    this.cached = { value: accessToken, expiresAtMs: startedMs + expiresInSeconds * 1000 };
    return accessToken;
  }
}
