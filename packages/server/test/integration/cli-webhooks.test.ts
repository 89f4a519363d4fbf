/** `akwe webhooks …` as a real child process on every database; what it writes, the API serves. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { createServices, type Services } from '../../src/services.js';
import { runAkwe, runAkweJson } from '../support/child-process.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const SECRET = 'cli-webhooks-test-secret-0123456789abcdef';

interface EndpointJson {
  id: string;
  url: string;
  events: string[];
  environment: string;
  api_version: string;
  secret?: string;
}

for (const target of testDatabases()) {
  describe(`akwe webhooks on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let services: Services;
    let dataDir: string;
    let merchantId: string;
    const env = () => ({ env: { DATABASE_URL: db.url, AKWE_DATA_DIR: dataDir, AKWE_SECRET: SECRET }, cwd: dataDir });

    before(async () => {
      db = await target.open();
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-cli-webhooks-'));
      services = createServices({ database: db.database, catalog: loadDefaultCatalog(), serverSecret: () => SECRET });
      merchantId = (await services.merchants.createMerchant({ name: 'Hooks', keyEnvironments: [] })).merchant.id;
    });
    after(async () => {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('creates, lists, rotates and deletes an endpoint, sealing the secret with AKWE_SECRET', async () => {
      const created = await runAkweJson<EndpointJson>(
        [
          'webhooks',
          'create',
          '--merchant',
          merchantId,
          '--env',
          'live',
          '--url',
          'https://shop.example/hooks',
          '--events',
          'collect.payment.*,collect.refund.completed',
          '--json',
        ],
        env(),
      );
      assert.equal(created.environment, 'live');
      assert.deepEqual(created.events, ['collect.payment.*', 'collect.refund.completed']);
      assert.match(created.secret!, /^whsec_/);
      // This process opens the secret the CLI sealed: the same AKWE_SECRET, the same key.
      const stored = await services.webhooks.getEndpoint({ merchantId, environment: 'live' }, created.id);
      assert.equal(stored.secret, created.secret);

      const listed = await runAkweJson<EndpointJson[]>(['webhooks', 'list', '--merchant', merchantId, '--json'], env());
      assert.deepEqual(
        listed.map((e) => e.id),
        [created.id],
      );
      assert.equal(listed[0]!.secret, undefined);

      const rotated = await runAkweJson<EndpointJson>(['webhooks', 'rotate-secret', created.id, '--overlap', '60', '--json'], env());
      assert.notEqual(rotated.secret, created.secret);
      const afterRotation = await services.webhooks.getEndpoint({ merchantId, environment: 'live' }, created.id);
      assert.equal(afterRotation.previousSecret, created.secret);

      const deleted = await runAkwe(['webhooks', 'delete', created.id], env());
      assert.equal(deleted.code, 0, deleted.stderr);
      assert.deepEqual(await services.webhooks.listAllEndpoints({ merchantId }), []);
    });

    it('refuses a plain-HTTP live URL and an unknown merchant with a clear message', async () => {
      const http = await runAkwe(['webhooks', 'create', '--merchant', merchantId, '--env', 'live', '--url', 'http://shop.example/hooks'], env());
      assert.equal(http.code, 1);
      assert.match(http.stderr, /https/);
      const unknown = await runAkwe(['webhooks', 'create', '--merchant', '01a20000-0000-7000-8000-000000000000', '--env', 'test', '--url', 'https://x.example'], env());
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no merchant/);
      assert.doesNotMatch(unknown.stderr, /at .*\.ts:/);
    });

    it('answers delete and rotate-secret of an unknown endpoint with exit 1', async () => {
      for (const command of ['delete', 'rotate-secret']) {
        const res = await runAkwe(['webhooks', command, '01a20000-0000-7000-8000-000000000000'], env());
        assert.equal(res.code, 1, command);
        assert.match(res.stderr, /No webhook endpoint/);
      }
    });

    it('reseal-secrets re-encrypts stored secrets for a new AKWE_SECRET, the old one read from AKWE_PREVIOUS_SECRET', async () => {
      const endpoint = await services.webhooks.createEndpoint({ merchantId, environment: 'test' }, { url: 'https://shop.example/reseal' });
      const newSecret = 'cli-webhooks-test-new-secret-0123456789abcdef';
      const withNewSecret = { ...env().env, AKWE_SECRET: newSecret };

      const missing = await runAkwe(['webhooks', 'reseal-secrets'], { ...env(), env: withNewSecret });
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /AKWE_PREVIOUS_SECRET/);

      const result = await runAkweJson<{ resealed: number; already_current: number }>(['webhooks', 'reseal-secrets', '--json'], {
        ...env(),
        env: { ...withNewSecret, AKWE_PREVIOUS_SECRET: SECRET },
      });
      assert.equal(result.resealed, 1);
      assert.equal(result.already_current, 0);
      const underNewSecret = createServices({ database: db.database, catalog: loadDefaultCatalog(), serverSecret: () => newSecret });
      assert.equal((await underNewSecret.webhooks.getEndpoint({ merchantId, environment: 'test' }, endpoint.id)).secret, endpoint.secret);
    });
  });
}
