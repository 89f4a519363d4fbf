/**
 * The API-key cache and revocation (docs/architecture.md "API-key cache"): a revoked key or a
 * suspended merchant is refused at once by the process that made the change, and within a second by
 * every other process: on PostgreSQL through a notice even when the cache lifetime is far longer,
 * on SQLite through the lifetime. In-process over inject, then with real `akwe serve` processes and
 * the real CLI.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { newId } from '../../src/core/shared/ids.js';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../src/http/plugins/idempotency.js';
import { createServices } from '../../src/services.js';
import { freePort, runAkweJson, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

/** Far longer than any test: whatever is refused in time was forgotten on purpose, not expired. */
const LONG_LIFETIME_MS = '30000';
/** The promise (1 s) and room for a loaded test machine's scheduling. */
const REFUSED_WITHIN_MS = 1_000 + 500;

/** Revokes a key's row behind the service's back: nobody forgets anything. */
async function revokeInSql(t: TestApp, keyId: string): Promise<void> {
  await t.services.database.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('id', '=', keyId).execute();
}

for (const target of testDatabases()) {
  describe(`API-key cache in one process on ${target.name}`, { skip: target.skip }, () => {
    let cached: TestApp;
    let uncached: TestApp;

    before(async () => {
      cached = await buildTestApp(target, { env: { API_KEY_CACHE_MS: LONG_LIFETIME_MS } });
      uncached = await buildTestApp(target, { env: { API_KEY_CACHE_MS: '0' } });
    });
    after(async () => {
      await cached?.close();
      await uncached?.close();
    });

    const account = (t: TestApp, key: string) => t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: `Bearer ${key}` } });

    async function cachedKey(t: TestApp) {
      const { merchantId } = await t.newMerchant();
      const issued = await t.services.merchants.createKey({ merchantId, environment: 'test' });
      assert.equal((await account(t, issued.secret)).statusCode, 200);
      return { merchantId, issued };
    }

    it('keeps a key it has seen: a change made behind its back is not read again while cached', async () => {
      const { issued } = await cachedKey(cached);
      await revokeInSql(cached, issued.key.id);
      assert.equal((await account(cached, issued.secret)).statusCode, 200);
    });

    it('with API_KEY_CACHE_MS=0 reads the key on every request', async () => {
      const { issued } = await cachedKey(uncached);
      await revokeInSql(uncached, issued.key.id);
      assert.equal((await account(uncached, issued.secret)).statusCode, 401);
    });

    it('refuses a key revoked in this process on the very next request', async () => {
      const { merchantId, issued } = await cachedKey(cached);
      const sibling = await cached.services.merchants.createKey({ merchantId, environment: 'test' });
      assert.equal((await account(cached, sibling.secret)).statusCode, 200);
      await cached.services.merchants.revokeKey(issued.key.id);
      assert.equal((await account(cached, issued.secret)).statusCode, 401);
      assert.equal((await account(cached, sibling.secret)).statusCode, 200, 'the merchant’s other key stays cached and valid');
    });

    it('shows a merchant’s suspension on the very next request, for every key of it', async () => {
      const { merchantId, issued } = await cachedKey(cached);
      const live = await cached.services.merchants.createKey({ merchantId, environment: 'live' });
      assert.equal((await account(cached, live.secret)).json().status, 'active');
      await cached.services.merchants.updateMerchant(merchantId, { status: 'suspended' });
      for (const key of [issued.secret, live.secret]) assert.equal((await account(cached, key)).json().status, 'suspended');
    });

    it('accepts a new key at once, after refusals of keys it did not know', async () => {
      const { merchantId } = await cachedKey(cached);
      assert.equal((await account(cached, `ak_test_${'C'.repeat(43)}`)).statusCode, 401);
      const fresh = await cached.services.merchants.createKey({ merchantId, environment: 'test' });
      assert.equal((await account(cached, fresh.secret)).statusCode, 200);
    });

    it('still replays, and still refuses a reused Idempotency-Key with another body, when the key comes from the cache', async () => {
      const { issued } = await cachedKey(cached);
      const idempotencyKey = newId();
      const create = (reference: string) =>
        cached.app.inject({
          method: 'POST',
          url: '/api/v1/collect/payments',
          headers: { authorization: `Bearer ${issued.secret}`, 'idempotency-key': idempotencyKey },
          payload: { reference, amount: 1000, country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } },
        });
      const first = await create('CACHED-1');
      assert.equal(first.statusCode, 201, first.body);
      const reused = await create('CACHED-2');
      assert.equal(reused.statusCode, 422, reused.body);
      assert.equal(reused.json().error.code, 'idempotency_key_reused');
      const replayed = await create('CACHED-1');
      assert.equal(replayed.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()], 'true');
      assert.equal(replayed.json().id, first.json().id);
    });
  });

  // SQLite: one server and the CLI (one host), the default lifetime is the bound. PostgreSQL: two
  // servers whose lifetime is 30 s, so only the notice can make them refuse within the second.
  const onPostgres = target.name === 'postgres';
  describe(`revocation across processes on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let dataDir: string;
    let merchantId: string;
    const servers: AkweProcess[] = [];
    const urls: string[] = [];
    const cliEnv = () => ({ env: { DATABASE_URL: db.url, AKWE_DATA_DIR: dataDir }, cwd: dataDir });

    before(async () => {
      db = await target.open();
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-key-cache-'));
      const services = createServices({ database: db.database, catalog: loadDefaultCatalog() });
      merchantId = (await services.merchants.createMerchant({ name: 'Cached', kycStatus: 'validated', keyEnvironments: [] })).merchant.id;
      for (let i = 0; i < (onPostgres ? 2 : 1); i++) {
        const port = await freePort();
        const env: Record<string, string> = {
          PORT: String(port),
          HOST: '127.0.0.1',
          AKWE_DEV: 'true',
          AKWE_DATA_DIR: dataDir,
          DATABASE_URL: db.url,
          LOG_LEVEL: 'error',
          AKWE_RUN_WORKERS: 'false',
          RATE_LIMIT_READ_PER_MINUTE: '1000000',
          ...(onPostgres ? { API_KEY_CACHE_MS: LONG_LIFETIME_MS } : {}),
        };
        const server = startAkwe(['serve'], { env, cwd: dataDir });
        servers.push(server);
        urls.push(`http://127.0.0.1:${port}`);
        await waitForUrl(`${urls[i]}/health`, { process: server });
      }
    });
    after(async () => {
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
      await Promise.allSettled(servers.map((s) => s.exited));
      await db?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const account = (url: string, key: string) => fetch(`${url}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });

    async function newKey(): Promise<{ id: string; key: string }> {
      return runAkweJson<{ id: string; key: string }>(['keys', 'create', '--merchant', merchantId, '--env', 'test', '--json'], cliEnv());
    }

    /** Polls until `refused` holds for the server's answer; fails past the deadline, counted from when the change was committed. */
    async function refusedInTime(url: string, key: string, committedAt: number, refused: (response: Response) => Promise<boolean>): Promise<void> {
      for (;;) {
        if (await refused(await account(url, key))) return;
        const waited = Date.now() - committedAt;
        assert.ok(waited < REFUSED_WITHIN_MS, `${url} still accepted the key ${waited} ms after the change`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    it('accepts a key the CLI just created, on every server at once', async () => {
      const { key } = await newKey();
      for (const url of urls) assert.equal((await account(url, key)).status, 200);
    });

    if (onPostgres) {
      it('serves a cached key for its whole lifetime when nothing announces a change (so the next tests prove the notice)', async () => {
        const { id, key } = await newKey();
        for (const url of urls) assert.equal((await account(url, key)).status, 200);
        await db.database.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('id', '=', id).execute();
        for (const url of urls) assert.equal((await account(url, key)).status, 200);
      });
    }

    it('refuses a key revoked through the CLI within a second, on every server', async () => {
      const { id, key } = await newKey();
      for (const url of urls) assert.equal((await account(url, key)).status, 200);
      await runAkweJson(['keys', 'revoke', id, '--json'], cliEnv());
      const committedAt = Date.now();
      for (const url of urls) await refusedInTime(url, key, committedAt, async (response) => response.status === 401);
    });

    it('shows a merchant suspended through the CLI within a second, on every server', async () => {
      const { key } = await newKey();
      for (const url of urls) assert.equal(((await (await account(url, key)).json()) as { status: string }).status, 'active');
      await runAkweJson(['merchants', 'set', '--merchant', merchantId, '--status', 'suspended', '--json'], cliEnv());
      const committedAt = Date.now();
      for (const url of urls) await refusedInTime(url, key, committedAt, async (response) => ((await response.json()) as { status: string }).status === 'suspended');
      await runAkweJson(['merchants', 'set', '--merchant', merchantId, '--status', 'active', '--json'], cliEnv());
    });
  });
}
