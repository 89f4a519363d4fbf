/**
 * After AKWE_SECRET changes, every stored secret is re-encrypted with the new one, all or nothing,
 * on every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import type { TenantScope } from '../../src/core/shared/environment.js';
import { createServices, type Services } from '../../src/services.js';
import { resealStoredSecrets, UnreadableSecretError } from '../../src/storage/reseal-secrets.js';
import { SecretBox } from '../../src/storage/secret-box.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const OLD = 'reseal-test-old-secret-0123456789abcdefghij';
const NEW = 'reseal-test-new-secret-0123456789abcdefghij';
const STRANGER = 'reseal-test-someone-elses-secret-0123456789';
const STORED_ANSWER = '{"id":"we_1","secret":"whsec_stored-answer"}';

for (const target of testDatabases()) {
  describe(`resealing stored secrets on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    const servicesWith = (secret: string): Services => createServices({ database: db.database, catalog: loadDefaultCatalog(), serverSecret: () => secret });
    const boxes = { previous: new SecretBox(() => OLD), current: new SecretBox(() => NEW) };
    let scope: TenantScope;
    /** The plaintexts as first stored: endpoint id -> [secret, previous secret]. */
    const originals = new Map<string, [string, string | null]>();
    let callbackSecret: string;

    before(async () => {
      db = await target.open();
      const old = servicesWith(OLD);
      const merchantId = (await old.merchants.createMerchant({ name: 'Reseal', keyEnvironments: [] })).merchant.id;
      scope = { merchantId, environment: 'test' };
      const plain = await old.webhooks.createEndpoint(scope, { url: 'https://shop.example/a' });
      const rotated = await old.webhooks.rotateSecret(scope, (await old.webhooks.createEndpoint(scope, { url: 'https://shop.example/b' })).id, 3600);
      originals.set(plain.id, [plain.secret, null]);
      originals.set(rotated.id, [rotated.secret, rotated.previousSecret]);
      callbackSecret = await old.webhooks.callbackSecret(scope);
      // A stored answer that shows a secret (an endpoint creation with an Idempotency-Key) is sealed too.
      const now = new Date().toISOString();
      await db.database.db
        .insertInto('idempotency_records')
        .values({
          merchant_id: merchantId,
          environment: 'test',
          method: 'POST',
          route: '/api/v1/webhook-endpoints',
          idempotency_key: 'sealed-answer',
          request_hash: 'h',
          state: 'completed',
          response_status: 201,
          response_body: `sealed:${boxes.previous.seal(STORED_ANSWER)}`,
          created_at: now,
          expires_at: now,
        })
        .execute();
    });
    after(() => db.close());

    it('re-encrypts every endpoint secret, previous secrets, callback secrets and stored answers showing a secret with the current server secret', async () => {
      assert.deepEqual(await resealStoredSecrets(db.database.db, boxes), { resealed: 5, alreadyCurrent: 0 });
      const answer = await db.database.db.selectFrom('idempotency_records').select('response_body').where('idempotency_key', '=', 'sealed-answer').executeTakeFirstOrThrow();
      assert.equal(boxes.current.open(answer.response_body!.slice('sealed:'.length)), STORED_ANSWER);
      const now = servicesWith(NEW);
      for (const [id, [secret, previous]] of originals) {
        const endpoint = await now.webhooks.getEndpoint(scope, id);
        assert.equal(endpoint.secret, secret);
        assert.equal(endpoint.previousSecret, previous);
      }
      assert.equal(await now.webhooks.callbackSecret(scope), callbackSecret);
      const [firstId] = originals.keys();
      await assert.rejects(servicesWith(OLD).webhooks.getEndpoint(scope, firstId!), 'the old server secret still opens what was resealed');
    });

    it('leaves what is already sealed with the current secret as it is, so a second run changes nothing', async () => {
      const before = await db.database.db.selectFrom('webhook_endpoints').select(['id', 'secret_encrypted']).orderBy('id').execute();
      assert.deepEqual(await resealStoredSecrets(db.database.db, boxes), { resealed: 0, alreadyCurrent: 5 });
      assert.deepEqual(await db.database.db.selectFrom('webhook_endpoints').select(['id', 'secret_encrypted']).orderBy('id').execute(), before);
    });

    it('changes nothing at all when one value opens with neither secret, and names it', async () => {
      const waiting = await servicesWith(OLD).webhooks.createEndpoint(scope, { url: 'https://shop.example/c' });
      // A later millisecond, so the foreign endpoint's id sorts after: the run converts `waiting` first.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const foreign = await servicesWith(STRANGER).webhooks.createEndpoint(scope, { url: 'https://shop.example/d' });
      await assert.rejects(
        resealStoredSecrets(db.database.db, boxes),
        (error: Error) => error instanceof UnreadableSecretError && error.message.includes(foreign.id) && /nothing was changed/.test(error.message),
      );
      // Converted before the failure in the same transaction, then rolled back: still under the old secret.
      assert.equal((await servicesWith(OLD).webhooks.getEndpoint(scope, waiting.id)).secret, waiting.secret);
      await assert.rejects(servicesWith(NEW).webhooks.getEndpoint(scope, waiting.id));
    });
  });
}
