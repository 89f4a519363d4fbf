/**
 * A real `akwe serve` process is SIGKILLed while creating payments concurrently, on every database.
 * After a restart: every acknowledged payment is there, and every request in doubt resolves, by a
 * retry with its own key and body, to exactly one payment (never a 409 after the lease).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { newId } from '../../src/core/shared/ids.js';
import { createServices } from '../../src/services.js';
import { direct } from '../support/collect-client.js';
import { freePort, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const REQUESTS = 80;
const LANES = 8;
const LEASE_SECONDS = 2;

interface Attempt {
  key: string;
  body: ReturnType<typeof direct>;
  /** The payment id of a 201 received before the kill. */
  acknowledged?: string;
}

for (const target of testDatabases()) {
  describe(`SIGKILL under concurrent creations on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let dataDir: string;
    let key: string;
    let merchantId: string;
    const servers: AkweProcess[] = [];

    before(async () => {
      db = await target.open();
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-sigkill-'));
      const services = createServices({ database: db.database, catalog: loadDefaultCatalog() });
      const { merchant } = await services.merchants.createMerchant({ name: 'Killed', kycStatus: 'validated', keyEnvironments: [] });
      merchantId = merchant.id;
      key = (await services.merchants.createKey({ merchantId, environment: 'test' })).secret;
    });
    after(async () => {
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await Promise.allSettled(servers.map((s) => s.exited));
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function serve(): Promise<string> {
      const port = await freePort();
      const env = {
        PORT: String(port),
        HOST: '127.0.0.1',
        AKWE_DEV: 'true',
        AKWE_DATA_DIR: dataDir,
        DATABASE_URL: db.url,
        LOG_LEVEL: 'error',
        IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
        RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
        RATE_LIMIT_READ_PER_MINUTE: '1000000',
      };
      const server = startAkwe(['serve'], { env, cwd: dataDir });
      servers.push(server);
      const url = `http://127.0.0.1:${port}`;
      await waitForUrl(`${url}/health`, { process: server });
      return url;
    }

    const create = (url: string, attempt: Attempt) =>
      fetch(`${url}/api/v1/collect/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': attempt.key, 'content-type': 'application/json' },
        body: JSON.stringify(attempt.body),
      });

    it('keeps every acknowledged payment, and resolves every request in doubt to exactly one payment', async (t) => {
      const first = await serve();
      const attempts: Attempt[] = Array.from({ length: REQUESTS }, () => ({ key: newId(), body: direct() }));
      let answered = 0;
      let killed = false;
      const lanes = Array.from({ length: LANES }, async (_, lane) => {
        for (let i = lane; i < attempts.length; i += LANES) {
          if (killed) return;
          const attempt = attempts[i]!;
          try {
            const response = await create(first, attempt);
            const body = (await response.json()) as { id?: string };
            if (response.status === 201) attempt.acknowledged = body.id;
            answered += 1;
            // Kill mid-stream: some answered, some in flight, some never sent.
            if (answered === REQUESTS / 2 && !killed) {
              killed = true;
              servers[0]!.child.kill('SIGKILL');
            }
          } catch {
            // The connection died with the process: this request is in doubt.
          }
        }
      });
      await Promise.all(lanes);
      const result = await servers[0]!.exited;
      assert.equal(result.signal, 'SIGKILL');
      const acknowledged = attempts.filter((a) => a.acknowledged);
      assert.ok(acknowledged.length >= REQUESTS / 2 - LANES, `only ${acknowledged.length} acknowledged`);
      assert.ok(acknowledged.length < REQUESTS, 'the kill came too late to leave any request in doubt');

      const stranded = await db.database.db
        .selectFrom('idempotency_records')
        .select('recovery_point')
        .where('merchant_id', '=', merchantId)
        .where('state', '=', 'in_progress')
        .execute();
      t.diagnostic(
        `${acknowledged.length} acknowledged; ${stranded.length} claims left in progress by the kill (${stranded.filter((r) => r.recovery_point === 'operator_call_started').length} past their intent)`,
      );

      const second = await serve();
      for (const attempt of attempts) {
        let response = await create(second, attempt);
        // A claim of the killed process is held for its lease (at most LEASE_SECONDS), never longer.
        for (let tries = 0; response.status === 409 && tries < 3; tries++) {
          assert.ok(Number(response.headers.get('retry-after')) <= LEASE_SECONDS);
          await response.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
          response = await create(second, attempt);
        }
        const body = (await response.json()) as { id: string; status: string; reference: string };
        assert.equal(response.status, 201, JSON.stringify(body));
        assert.equal(body.reference, attempt.body.reference);
        assert.equal(body.status, 'completed');
        if (attempt.acknowledged) assert.equal(body.id, attempt.acknowledged, 'an acknowledged payment answers as it was');
      }

      const rows = await db.database.db.selectFrom('payments').select(['reference', 'status', 'operator_call']).where('merchant_id', '=', merchantId).execute();
      assert.equal(rows.length, REQUESTS, 'one payment per request');
      assert.deepEqual(new Set(rows.map((r) => r.reference)), new Set(attempts.map((a) => a.body.reference)));
      assert.ok(rows.every((r) => r.status === 'completed' && r.operator_call === null));
      const inProgress = await db.database.db
        .selectFrom('idempotency_records')
        .select('idempotency_key')
        .where('merchant_id', '=', merchantId)
        .where('state', '=', 'in_progress')
        .execute();
      assert.equal(inProgress.length, 0, 'no key is left in progress');
    });
  });
}
