/**
 * The composition root: storage adapters wired into core services. The HTTP app, the workers and
 * the CLI all build their services here, so they share one way of doing every operation.
 */
import type { OperatorCatalog } from './core/catalog/operator-catalog.js';
import { EventFactory } from './core/events/event-factory.js';
import { MerchantService } from './core/merchants/merchant-service.js';
import type { IdempotencyStore } from './core/idempotency/idempotency-store.js';
import type { PaymentStore } from './core/payments/payment-store.js';
import { PaymentService } from './core/payments/payment-service.js';
import type { OperatorGatewayRegistry } from './core/payments/operator-gateway.js';
import { OperatorRegistry } from './operators/operator-registry.js';
import type { Clock, EventStore, IdSource } from './core/ports.js';
import { systemClock } from './core/shared/clock.js';
import { newId } from './core/shared/ids.js';
import type { AkweDatabase } from './storage/database.js';
import { ApiKeyRepository } from './storage/repositories/api-key-repository.js';
import { EventRepository } from './storage/repositories/event-repository.js';
import { IdempotencyRepository } from './storage/repositories/idempotency-repository.js';
import { MerchantRepository } from './storage/repositories/merchant-repository.js';
import { PaymentRepository } from './storage/repositories/payment-repository.js';

export interface Services {
  database: AkweDatabase;
  catalog: OperatorCatalog;
  clock: Clock;
  merchants: MerchantService;
  events: EventStore;
  paymentStore: PaymentStore;
  payments: PaymentService;
  idempotency: IdempotencyStore;
}

export function createServices(options: {
  database: AkweDatabase;
  catalog: OperatorCatalog;
  clock?: Clock;
  newId?: IdSource;
  /** Operator adapters per environment; the sandbox for test and the unconfigured live gateway by default. */
  operators?: OperatorGatewayRegistry;
}): Services {
  const clock = options.clock ?? systemClock;
  const ids = options.newId ?? newId;
  const { db, capabilities } = options.database;
  const paymentStore = new PaymentRepository(db, capabilities);
  return {
    database: options.database,
    catalog: options.catalog,
    clock,
    merchants: new MerchantService({ merchants: new MerchantRepository(db), apiKeys: new ApiKeyRepository(db), clock, newId: ids }),
    events: new EventRepository(db),
    idempotency: new IdempotencyRepository(db),
    paymentStore,
    payments: new PaymentService({
      store: paymentStore,
      catalog: options.catalog,
      operators: options.operators ?? new OperatorRegistry(),
      events: new EventFactory(clock, ids),
      clock,
      newId: ids,
    }),
  };
}
