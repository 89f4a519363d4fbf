/**
 * Key notices over a real PostgreSQL (LISTEN/NOTIFY): what one process announces, another forgets;
 * when the listening connection is cut, everything is forgotten (notices may be lost meanwhile) and
 * notices arrive again once it is back.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import type { KeyInvalidation } from '../../src/core/merchants/api-key-cache.js';
import { keyInvalidationsOver, listenForKeyInvalidations } from '../../src/storage/postgres/key-invalidations.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

/** What a listener was told, and a way to wait for the next thing it is told. */
function recordingCache() {
  const told: (KeyInvalidation | 'all')[] = [];
  let waiter: (() => void) | undefined;
  const record = (what: KeyInvalidation | 'all') => {
    told.push(what);
    waiter?.();
  };
  return {
    told,
    forgetCached: (invalidation: KeyInvalidation) => record(invalidation),
    forgetAllCached: () => record('all'),
    /** Resolves once `told` satisfies `done` (a safety deadline keeps a broken listener from hanging the suite). */
    until(done: () => boolean, giveUpAfterMs = 15_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`never told: ${JSON.stringify(told)}`)), giveUpAfterMs);
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiter = undefined;
          resolve();
        };
        waiter = check;
        check();
      });
    },
  };
}

const postgres = testDatabases().find((target) => target.name === 'postgres')!;

describe('API-key notices on postgres', { skip: postgres.skip }, () => {
  let db: OpenTestDatabase;
  let listener: { close(): Promise<void> } | undefined;
  const cache = recordingCache();

  before(async () => {
    db = await postgres.open();
    listener = await listenForKeyInvalidations(db.database.notifications!, cache);
  });
  after(async () => {
    await listener?.close();
    await db?.close();
  });

  const publish = (invalidation: KeyInvalidation) => keyInvalidationsOver(db.database.notifications!).publish(invalidation);

  it('hands a revoked key and a changed merchant to the cache, and ignores the workers’ topics', async () => {
    await db.database.notifications!.publish('events');
    await publish({ kind: 'key', id: 'key-1' });
    await publish({ kind: 'merchant', id: 'merchant-1' });
    await cache.until(() => cache.told.length >= 3);
    // The first 'all' is the connection starting to listen.
    assert.deepEqual(cache.told, ['all', { kind: 'key', id: 'key-1' }, { kind: 'merchant', id: 'merchant-1' }]);
  });

  it('forgets everything when the listening connection is cut, and hears notices again once it is back', async () => {
    const before = cache.told.length;
    const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where query = ${`listen akwe_work_${schemaOf(db)}`}`.execute(db.database.db);
    assert.equal(rows.length, 1, 'the listening connection was not found');
    await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(db.database.db);
    // Dropped (forget all), then listening again (forget all once more).
    await cache.until(() => cache.told.slice(before).filter((t) => t === 'all').length >= 2);
    await publish({ kind: 'key', id: 'key-2' });
    await cache.until(() => cache.told.some((t) => t !== 'all' && t.id === 'key-2'));
  });
});

function schemaOf(db: OpenTestDatabase): string {
  const match = db.database.description.match(/#(\w+)$/);
  assert.ok(match, `no schema in ${db.database.description}`);
  return match[1]!;
}
