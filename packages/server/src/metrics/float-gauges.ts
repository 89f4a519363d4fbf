/**
 * The provider floats as gauges (docs/operations.md "Floats"), read from the database when
 * Prometheus scrapes, so any process answers with the workers' last readings: each route's last
 * balance (centimes), whether it is under its threshold, and when it was read.
 */
import { Gauge, type Registry } from 'prom-client';
import type { RouteFloat } from '../core/floats/route-float.js';
import type { AkweDatabase } from '../storage/database.js';
import { FloatRepository } from '../storage/repositories/float-repository.js';

export function registerFloatGauges(registry: Registry, database: AkweDatabase): void {
  const store = new FloatRepository(database.db);
  // The three gauges' collects run side by side on a scrape: one read serves them.
  let reading: Promise<RouteFloat[] | undefined> | undefined;
  const floats = () => {
    reading ??= store
      .list()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined)));
    return reading;
  };

  new Gauge({
    name: 'akwe_route_float_minor',
    help: 'The last balance read from the provider account behind each live route (centimes of its currency).',
    labelNames: ['route', 'currency'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const f of (await floats()) ?? []) if (f.balanceMinor !== null && f.currency !== null) this.set({ route: f.routeLabel, currency: f.currency }, f.balanceMinor);
    },
  });

  new Gauge({
    name: 'akwe_route_float_low',
    help: '1 when the route’s last float reading was under its low_float_minor threshold (new payouts then go to another route), else 0.',
    labelNames: ['route'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const f of (await floats()) ?? []) if (f.readAt !== null) this.set({ route: f.routeLabel }, f.low ? 1 : 0);
    },
  });

  new Gauge({
    name: 'akwe_route_float_read_timestamp_seconds',
    help: 'When each route’s float was last read successfully (Unix seconds): alert when it grows old.',
    labelNames: ['route'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const f of (await floats()) ?? []) if (f.readAt !== null) this.set({ route: f.routeLabel }, Date.parse(f.readAt) / 1000);
    },
  });
}
