/**
 * An API key's "last used" time on every database: set by a call with the key, written at most
 * once a minute per key and process (from the key cache's hit path too), never on the request's
 * path, and shown in the dashboard's list of keys.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ApiKeyRepository } from '../../src/storage/repositories/api-key-repository.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

/** Every `last_used_at` write this process makes, whatever the database. */
const writes: Array<{ keyId: string; at: string }> = [];
const realRecordKeyUse = ApiKeyRepository.prototype.recordKeyUse;
ApiKeyRepository.prototype.recordKeyUse = function (this: ApiKeyRepository, keyId: string, at: string) {
  writes.push({ keyId, at });
  return realRecordKeyUse.call(this, keyId, at);
};

/** The write runs after the answer: wait until the key shows `at`, or fail. */
async function lastUsedBecomes(t: TestApp, keyId: string, at: string | null): Promise<void> {
  let seen: string | null | undefined;
  for (let i = 0; i < 100; i++) {
    seen = (await t.services.merchants.listKeys()).find((k) => k.id === keyId)?.lastUsedAt;
    if (seen === at) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal(seen, at, `last_used_at of ${keyId}`);
}

/** Lets any write started by the last request reach the database. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

for (const target of testDatabases()) {
  describe(`API key last used on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const clock = new FakeClock(new Date('2026-11-26T10:00:00.000Z'));

    before(async () => {
      // A long key cache: after the first call, every call with the key is a cache hit.
      t = await buildTestApp(target, { clock, env: { API_KEY_CACHE_MS: '60000' } });
    });
    after(() => t.close());
    beforeEach(() => {
      writes.length = 0;
    });

    const keyIdOf = async (merchantId: string) => (await t.services.merchants.listKeys({ merchantId })).find((k) => k.environment === 'test')!.id;
    const account = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${key}` } });

    it('a call with the key sets it; more calls within the minute write nothing; the next minute writes once, from the cache', async () => {
      const { merchantId, testKey } = await t.newMerchant();
      const keyId = await keyIdOf(merchantId);
      await lastUsedBecomes(t, keyId, null);

      const first = clock.now().toISOString();
      assert.equal((await account(testKey)).statusCode, 200);
      await lastUsedBecomes(t, keyId, first);
      assert.equal(writes.filter((w) => w.keyId === keyId).length, 1);

      clock.advance(30_000);
      for (let i = 0; i < 5; i++) assert.equal((await account(testKey)).statusCode, 200);
      await settle();
      assert.equal(writes.filter((w) => w.keyId === keyId).length, 1, 'no write within the minute');
      await lastUsedBecomes(t, keyId, first);

      clock.advance(31_000);
      const later = clock.now().toISOString();
      assert.equal((await account(testKey)).statusCode, 200);
      await lastUsedBecomes(t, keyId, later);
      assert.deepEqual(
        writes.filter((w) => w.keyId === keyId).map((w) => w.at),
        [first, later],
      );
    });

    it('never moves the time back (another process wrote a later one)', async () => {
      const { merchantId, testKey } = await t.newMerchant();
      const keyId = await keyIdOf(merchantId);
      const future = new Date(clock.now().getTime() + 3_600_000).toISOString();
      await new ApiKeyRepository(t.db.database.db).recordKeyUse(keyId, future);
      assert.equal((await account(testKey)).statusCode, 200);
      await settle();
      assert.equal(writes.filter((w) => w.keyId === keyId).length, 2, 'the write was tried');
      await lastUsedBecomes(t, keyId, future);
    });

    it('a refused key records nothing', async () => {
      const { merchantId, testKey } = await t.newMerchant();
      const keyId = await keyIdOf(merchantId);
      await t.services.merchants.revokeKey(keyId);
      assert.equal((await account(testKey)).statusCode, 401);
      await settle();
      assert.equal(writes.filter((w) => w.keyId === keyId).length, 0);
    });
  });
}
