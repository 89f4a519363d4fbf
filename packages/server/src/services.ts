/**
 * The composition root: storage adapters wired into core services. The HTTP app, the workers and
 * the CLI all build their services here, so they share one way of doing every operation.
 */
import type { OperatorCatalog } from './core/catalog/operator-catalog.js';
import { MerchantService } from './core/merchants/merchant-service.js';
import type { Clock, EventStore, IdSource } from './core/ports.js';
import { systemClock } from './core/shared/clock.js';
import { newId } from './core/shared/ids.js';
import type { AkweDatabase } from './storage/database.js';
import { ApiKeyRepository } from './storage/repositories/api-key-repository.js';
import { EventRepository } from './storage/repositories/event-repository.js';
import { MerchantRepository } from './storage/repositories/merchant-repository.js';

export interface Services {
  database: AkweDatabase;
  catalog: OperatorCatalog;
  clock: Clock;
  merchants: MerchantService;
  events: EventStore;
}

export function createServices(options: { database: AkweDatabase; catalog: OperatorCatalog; clock?: Clock; newId?: IdSource }): Services {
  const clock = options.clock ?? systemClock;
  const ids = options.newId ?? newId;
  const { db } = options.database;
  return {
    database: options.database,
    catalog: options.catalog,
    clock,
    merchants: new MerchantService({ merchants: new MerchantRepository(db), apiKeys: new ApiKeyRepository(db), clock, newId: ids }),
    events: new EventRepository(db),
  };
}
