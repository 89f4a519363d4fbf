import { newId } from '../../src/core/shared/ids.js';
import { systemClock } from '../../src/core/shared/clock.js';
import type { Environment } from '../../src/core/shared/environment.js';
import type { Clock } from '../../src/core/ports.js';
import type { AkweDatabase } from '../../src/storage/database.js';
import { LedgerRepository } from '../../src/storage/repositories/ledger-repository.js';

export interface SeedOptions {
  /** `live` unless given. */
  environment?: Environment;
  clock?: Clock;
  /** The sandbox float a test balance starts with, when this posting is the first it gets (test only). */
  sandboxFloatMinor?: number;
}

/**
 * Money the merchant did not collect through the API: one collection's worth posted straight to the
 * ledger (XOF), as a collection would have. The one way the suites seed a balance.
 */
export async function seedBalance(database: AkweDatabase, merchantId: string, amountMinor: number, options: SeedOptions = {}): Promise<void> {
  await new LedgerRepository(database.db, newId, options.clock ?? systemClock, options.sandboxFloatMinor ?? 0).post(database.db, [
    {
      merchantId,
      environment: options.environment ?? 'live',
      currency: 'XOF',
      type: 'collection',
      source: { type: 'payment', id: newId(), reference: 'SEED' },
      description: 'seeded for the test',
      lines: [
        { kind: 'operator_clearing', amountMinor: -amountMinor },
        { kind: 'available', amountMinor },
      ],
    },
  ]);
}

/** A live XOF balance (a test with no live collection before it). */
export function seedLiveBalance(database: AkweDatabase, merchantId: string, amountMinor: number, clock: Clock = systemClock): Promise<void> {
  return seedBalance(database, merchantId, amountMinor, { clock });
}
