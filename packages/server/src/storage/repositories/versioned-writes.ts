import type { Kysely, UpdateResult } from 'kysely';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { Database } from '../schema.js';
import { EventOutbox } from './event-repository.js';

class VersionConflict extends Error {}

/**
 * The writes of a record its merchant edits (a settlement account, a payment link): its insert
 * with the request's claim and its events, and a change checked against the version it was read
 * at, with its events, each in one transaction (the outbox). The `events` signal wakes the
 * workers once the commit is done.
 */
export class VersionedWrites {
  private readonly outbox: EventOutbox;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    private readonly signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.outbox = new EventOutbox(db);
  }

  async insert(write: (trx: Kysely<Database>) => Promise<unknown>, events: StoredEvent[], claim?: ClaimWrite): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (claim) await this.claims.writeIn(trx, claim);
      await write(trx);
      await this.outbox.insert(trx, events);
    });
    if (events.length > 0) this.signals?.notify('events');
  }

  /** `update` must change one row (its `where` naming the version read); none changed: false, nothing written. */
  async save(update: (trx: Kysely<Database>) => Promise<UpdateResult>, events: StoredEvent[]): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        const result = await update(trx);
        if (Number(result.numUpdatedRows) !== 1) throw new VersionConflict();
        await this.outbox.insert(trx, events);
      });
    } catch (error) {
      if (error instanceof VersionConflict) return false;
      throw error;
    }
    if (events.length > 0) this.signals?.notify('events');
    return true;
  }
}
