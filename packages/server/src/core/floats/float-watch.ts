import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import type { Mailer } from '../dashboard/mailer.js';
import { inBackground } from '../operators/call-origin.js';
import type { OperatorConnectors } from '../operators/operator-connector.js';
import { isoNow, type Clock } from '../shared/clock.js';
import type { IdSource } from '../shared/ids.js';
import type { LowFloats } from './low-floats.js';
import { formatFloat, lowFloatMail } from './low-float-mail.js';
import type { FloatStore } from './route-float.js';
import { watchedRoutes, type WatchedRoute } from './watched-routes.js';

/** How often each route's float is read by default (FLOAT_READ_INTERVAL_SECONDS). */
export const DEFAULT_FLOAT_READ_INTERVAL_MS = 5 * 60_000;

/** How long each reading is kept (the route's state keeps the last one whatever its age). */
export const FLOAT_READINGS_KEPT_MS = 90 * 24 * 3_600_000;

export interface FloatWatchDeps {
  store: FloatStore;
  catalog: OperatorCatalog;
  connectors: OperatorConnectors;
  lowFloats: LowFloats;
  /** The platform administrators' addresses, told when a float first falls under its threshold. */
  adminEmails: () => Promise<string[]>;
  mailer: Mailer;
  clock: Clock;
  newId: IdSource;
  readIntervalMs?: number;
  /** Where the back office is (PUBLIC_URL), for the link in the alert. */
  publicUrl: string;
  /** Told of an alert email that could not be sent (the worker logs it); the alert stays recorded. */
  onMailError?: (error: unknown) => void;
}

/**
 * Reads each live route's provider float when it is due (docs/operations.md "Floats"), keeps the
 * reading, and tells the platform administrators once when a float falls under its route's
 * threshold (again only after it has risen back above). Several workers may run it: each route's
 * read is claimed in the database first, and the alert goes with the reading that began the spell.
 */
export class FloatWatch {
  private readonly readIntervalMs: number;

  constructor(private readonly deps: FloatWatchDeps) {
    this.readIntervalMs = deps.readIntervalMs ?? DEFAULT_FLOAT_READ_INTERVAL_MS;
  }

  /** Reads every route that is due; how many were read (successfully or not). */
  async readDue(): Promise<number> {
    const routes = watchedRoutes(this.deps.catalog, this.deps.connectors);
    let read = 0;
    for (const route of routes) {
      const now = this.deps.clock.now();
      const claimed = await this.deps.store.claimRead(route.label, now.toISOString(), new Date(now.getTime() + this.readIntervalMs).toISOString());
      if (!claimed) continue;
      await this.readOne(route);
      read += 1;
    }
    return read;
  }

  private async readOne(route: WatchedRoute): Promise<void> {
    let balance;
    try {
      balance = await inBackground(() => route.balance.readBalance());
    } catch (error) {
      // The message says what the provider answered; connectors never put a secret in it.
      await this.deps.store.recordFailure(route.label, (error as Error).message.slice(0, 500), isoNow(this.deps.clock));
      return;
    }
    const readAt = isoNow(this.deps.clock);
    const { newlyLow } = await this.deps.store.recordReading({
      id: this.deps.newId(),
      routeLabel: route.label,
      balanceMinor: balance.amountMinor,
      currency: balance.currency,
      readAt,
      thresholdMinor: route.thresholdMinor,
    });
    await this.deps.store.pruneReadings(route.label, new Date(Date.parse(readAt) - FLOAT_READINGS_KEPT_MS).toISOString());
    this.deps.lowFloats.note(route.label, route.thresholdMinor !== null && balance.amountMinor < route.thresholdMinor);
    if (newlyLow && route.thresholdMinor !== null) {
      await this.alert({
        routeLabel: route.label,
        balance: formatFloat(balance.amountMinor, balance.currency),
        threshold: formatFloat(route.thresholdMinor, balance.currency),
        readAt,
      });
    }
  }

  private async alert(words: { routeLabel: string; balance: string; threshold: string; readAt: string }): Promise<void> {
    const floatsPage = `${this.deps.publicUrl.replace(/\/$/, '')}/admin/floats`;
    let emails: string[];
    try {
      emails = await this.deps.adminEmails();
    } catch (error) {
      this.deps.onMailError?.(error);
      return;
    }
    // One address that fails does not keep the others from being told.
    for (const email of emails) await this.deps.mailer.send(lowFloatMail(email, { ...words, floatsPage })).catch((error: unknown) => this.deps.onMailError?.(error));
  }
}
