import { newId } from '../../src/core/shared/ids.js';
import { systemClock } from '../../src/core/shared/clock.js';
import type { Clock } from '../../src/core/ports.js';
import type { AkweDatabase } from '../../src/storage/database.js';
import { LedgerRepository } from '../../src/storage/repositories/ledger-repository.js';

/** Posts a live XOF balance, as collections would have made it (a test with no live collection before it). */
export async function seedLiveBalance(database: AkweDatabase, merchantId: string, amountMinor: number, clock: Clock = systemClock): Promise<void> {
  await new LedgerRepository(database.db, newId, clock, 0).post(database.db, [
    {
      merchantId,
      environment: 'live',
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
