import { sql } from 'kysely';
/** Repositories and schema rules, the same tests on every database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateApiKeySecret, type ApiKey } from '../../src/core/merchants/api-key.js';
import type { Merchant } from '../../src/core/merchants/merchant.js';
import { newId } from '../../src/core/shared/ids.js';
import { migrations } from '../../src/storage/migrations/index.js';
import { migrateTo, migrateToLatest, pendingMigrations } from '../../src/storage/migrator.js';
import { ApiKeyRepository } from '../../src/storage/repositories/api-key-repository.js';
import { EventOutbox, EventRepository } from '../../src/storage/repositories/event-repository.js';
import { MerchantRepository } from '../../src/storage/repositories/merchant-repository.js';
import { aPayment } from '../support/fixtures.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

function aMerchant(overrides: Partial<Merchant> = {}): Merchant {
  const now = new Date().toISOString();
  return { id: newId(), name: 'Boutique Cotonou', status: 'active', kycStatus: 'pending', createdAt: now, updatedAt: now, ...overrides };
}

function aKey(merchantId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  const generated = generateApiKeySecret(overrides.environment ?? 'test');
  return {
    id: newId(),
    merchantId,
    environment: 'test',
    keyHash: generated.hash,
    keyPrefix: generated.prefix,
    keyLastFour: generated.lastFour,
    scopes: ['collect:read'],
    createdAt: new Date().toISOString(),
    revokedAt: null,
    lastUsedAt: null,
    createdByUserId: null,
    ...overrides,
  };
}

for (const target of testDatabases()) {
  describe(`storage on ${target.name}`, { skip: target.skip }, () => {
    let open: OpenTestDatabase;
    let merchants: MerchantRepository;
    let keys: ApiKeyRepository;
    let events: EventRepository;

    before(async () => {
      open = await target.open();
      merchants = new MerchantRepository(open.database.db, open.database.capabilities);
      keys = new ApiKeyRepository(open.database.db);
      events = new EventRepository(open.database.db);
    });
    after(() => open.close());

    describe('migrations', () => {
      /** A fresh database migrated up to `name` only, with one merchant, for data made before a later migration. */
      async function atMigration(name: string, body: (fresh: OpenTestDatabase, merchantId: string, now: string) => Promise<void>): Promise<void> {
        const fresh = await target.open({ migrate: false });
        try {
          await migrateTo(fresh.database, name);
          const now = new Date().toISOString();
          const merchantId = newId();
          await fresh.database.db
            .insertInto('merchants')
            .values({ id: merchantId, name: 'M', status: 'active', kyc_status: 'pending', created_at: now, updated_at: now })
            .execute();
          await body(fresh, merchantId, now);
        } finally {
          await fresh.close();
        }
      }

      it('lists every migration as pending on an empty database, and none once applied', async () => {
        const fresh = await target.open({ migrate: false });
        try {
          const all = Object.keys(migrations);
          assert.equal(all[0], '0001-foundation');
          assert.deepEqual(await pendingMigrations(fresh.database), all);
          const applied = await migrateToLatest(fresh.database);
          assert.deepEqual(
            applied.map((r) => [r.migrationName, r.status]),
            all.map((name) => [name, 'Success']),
          );
          assert.deepEqual(await pendingMigrations(fresh.database), []);
          assert.deepEqual(await migrateToLatest(fresh.database), []);
        } finally {
          await fresh.close();
        }
      });

      it('applies the migrations once when two processes start together', async () => {
        const fresh = await target.open({ migrate: false });
        try {
          const [a, b] = await Promise.all([migrateToLatest(fresh.database), migrateToLatest(fresh.database)]);
          assert.equal(a.length + b.length, Object.keys(migrations).length);
          assert.deepEqual(await pendingMigrations(fresh.database), []);
        } finally {
          await fresh.close();
        }
      });

      it('0014: the checkout-token index holds only tokens (still unique), and PostgreSQL leaves room for heap-only claim updates', async () => {
        const db = open.database.db;
        const definition =
          target.name === 'postgres'
            ? (await sql<{ def: string }>`select indexdef as def from pg_indexes where indexname = 'payments_checkout_token' and schemaname = current_schema()`.execute(db)).rows[0]
                ?.def
            : (await sql<{ def: string }>`select sql as def from sqlite_master where name = 'payments_checkout_token'`.execute(db)).rows[0]?.def;
        assert.match(definition ?? '', /unique/i);
        assert.match(definition ?? '', /where\s+\(?"?checkout_token"?\s+is not null/i);
        if (target.name === 'postgres') {
          const { rows } = await sql<{ options: string[] | null }>`select reloptions as options from pg_class where oid = 'idempotency_records'::regclass`.execute(db);
          assert.deepEqual(rows[0]?.options, ['fillfactor=80']);
        }
      });

      it('0015: deliveries made before it get their event’s subject (new ones are written with it at fan-out)', async () => {
        await atMigration('0014-lighter-writes', async (fresh, merchantId, now) => {
          const db = fresh.database.db;
          const event = (id: string, subject: string | null) => ({
            id,
            merchant_id: merchantId,
            environment: 'test',
            type: 'collect.payment.created',
            payload: '{}',
            created_at: now,
            subject_reference: subject,
          });
          await db
            .insertInto('events')
            .values([event('evt_a', 'ORDER-1'), event('evt_b', null)])
            .execute();
          const delivery = (id: string, eventId: string) => ({
            id,
            event_id: eventId,
            destination: 'we_1',
            endpoint_id: null,
            target_url: 'https://shop.example/hooks',
            stream: 'we_1',
            target_host: 'shop.example',
            merchant_id: merchantId,
            environment: 'test',
            api_version: '2026-01-01',
            status: 'pending',
            attempts: 0,
            next_attempt_at: now,
            locked_until: null,
            claim_token: null,
            last_status_code: null,
            last_error: null,
            created_at: now,
            updated_at: now,
            succeeded_at: null,
          });
          // Before 0015 the table has no subject column: typed as after it, inserted as before.
          await db
            .insertInto('webhook_deliveries')
            .values([delivery('wd_a', 'evt_a'), delivery('wd_b', 'evt_b')] as never)
            .execute();

          await migrateToLatest(fresh.database);
          const rows = await db.selectFrom('webhook_deliveries').select(['id', 'subject_reference']).orderBy('id').execute();
          assert.deepEqual(rows, [
            { id: 'wd_a', subject_reference: 'ORDER-1' },
            { id: 'wd_b', subject_reference: null },
          ]);
        });
      });

      it("0016: batches being executed keep their place in the bulk worker's queue (followed_at from updated_at); others have none yet", async () => {
        await atMigration('0015-delivery-subject', async (fresh, merchantId, now) => {
          const db = fresh.database.db;
          const earlier = new Date(Date.parse(now) - 60_000).toISOString();
          const batch = (id: string, status: string, updatedAt: string) => ({
            id,
            merchant_id: merchantId,
            environment: 'test',
            name: 'Juin',
            description: null,
            status,
            source: 'api',
            currency: 'XOF',
            item_count: 1,
            total_amount_minor: 500,
            total_fee_minor: 55,
            metadata: '{}',
            validated_at: null,
            completed_at: null,
            created_at: earlier,
            updated_at: updatedAt,
            version: 1,
          });
          // Before 0016 the table has no followed_at column: typed as after it, inserted as before.
          await db
            .insertInto('bulk_batches')
            .values([batch('b_processing', 'processing', earlier), batch('b_draft', 'draft', now)] as never)
            .execute();

          await migrateToLatest(fresh.database);
          const rows = await db.selectFrom('bulk_batches').select(['id', 'followed_at', 'updated_at']).orderBy('id').execute();
          assert.deepEqual(rows, [
            { id: 'b_draft', followed_at: '', updated_at: now },
            { id: 'b_processing', followed_at: earlier, updated_at: earlier },
          ]);
        });
      });

      it('keeps every batch and line, their foreign key and indexes, when 0012 lets a batch be cancelled', async () => {
        await atMigration('0011-bulk-batches', async (fresh, merchantId, now) => {
          const db = fresh.database.db;
          const batchId = newId();
          const batch = {
            id: batchId,
            merchant_id: merchantId,
            environment: 'test',
            name: 'Juin',
            description: null,
            status: 'draft',
            source: 'csv',
            currency: 'XOF',
            item_count: 1,
            total_amount_minor: 500,
            total_fee_minor: 55,
            metadata: '{}',
            validated_at: null,
            completed_at: null,
            created_at: now,
            updated_at: now,
            version: 1,
          };
          const item = {
            id: newId(),
            batch_id: batchId,
            row_number: 2,
            beneficiary_name: 'Afi',
            phone: '+2290197000000',
            amount_minor: 500,
            fee_minor: 55,
            currency: 'XOF',
            country: 'BJ',
            operator: 'mtn_bj',
            reference: 'L-1',
            description: null,
            metadata: '{}',
            status: 'pending',
            problems: null,
            payout_id: null,
            failure_code: null,
            created_at: now,
            updated_at: now,
          };
          await db.insertInto('bulk_batches').values(batch).execute();
          await db.insertInto('bulk_batch_items').values(item).execute();
          await assert.rejects(db.updateTable('bulk_batches').set({ status: 'cancelled' }).execute(), 'before 0012 a batch cannot be cancelled');

          await migrateTo(fresh.database, '0012-bulk-cancelled');
          const numbers = <T extends Record<string, unknown>>(row: T) =>
            Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]));
          assert.deepEqual((await db.selectFrom('bulk_batches').selectAll().execute()).map(numbers), [batch]);
          assert.deepEqual((await db.selectFrom('bulk_batch_items').selectAll().execute()).map(numbers), [item]);
          await db.updateTable('bulk_batches').set({ status: 'cancelled' }).where('id', '=', batchId).execute();
          await assert.rejects(db.updateTable('bulk_batches').set({ status: 'lost' }).execute(), 'the widened check still refuses other statuses');
          await assert.rejects(
            db
              .insertInto('bulk_batch_items')
              .values({ ...item, id: newId(), reference: 'L-2', batch_id: newId() })
              .execute(),
            'a line still needs its batch',
          );
          const duplicate = db
            .insertInto('bulk_batch_items')
            .values({ ...item, id: newId() })
            .execute();
          await assert.rejects(duplicate, 'the unique (batch, reference) index came back');
        });
      });
    });

    describe('merchants', () => {
      it('stores a merchant with its keys and reads it back exactly', async () => {
        const merchant = aMerchant();
        const key = aKey(merchant.id);
        await merchants.createWithKeys(merchant, [key], []);
        assert.deepEqual(await merchants.findById(merchant.id), merchant);
        const found = await keys.findByHash(key.keyHash);
        assert.deepEqual(found, { key, merchant });
      });

      it('writes nothing when one of the keys cannot be stored', async () => {
        const first = aMerchant();
        const key = aKey(first.id);
        await merchants.createWithKeys(first, [key], []);
        const second = aMerchant({ name: 'Second' });
        // Same hash as an existing key: the unique index refuses it, and the merchant must go too.
        const clash = aKey(second.id, { keyHash: key.keyHash });
        await assert.rejects(merchants.createWithKeys(second, [aKey(second.id), clash], []));
        assert.equal(await merchants.findById(second.id), undefined);
        assert.deepEqual(await keys.list({ merchantId: second.id }), []);
      });

      it('updates status and KYC without touching the other fields', async () => {
        const merchant = aMerchant();
        await merchants.createWithKeys(merchant, [], []);
        const later = new Date(Date.now() + 1000).toISOString();
        const updated = await merchants.changeStatuses(merchant.id, (current) => ({ merchant: { ...current, kycStatus: 'validated', updatedAt: later }, changes: [] }));
        assert.deepEqual(updated, { ...merchant, kycStatus: 'validated', updatedAt: later });
        assert.deepEqual(await merchants.findById(merchant.id), updated);
        const missing = await merchants.changeStatuses(newId(), (current) => ({ merchant: { ...current, status: 'suspended' }, changes: [] }));
        assert.equal(missing, undefined);
      });

      it('refuses a status outside the known set', async () => {
        await assert.rejects(merchants.createWithKeys(aMerchant({ status: 'closed' as never }), [], []));
      });

      it('counts and lists merchants in creation order', async () => {
        const before = await merchants.count();
        const a = aMerchant({ name: 'A' });
        const b = aMerchant({ name: 'B' });
        await merchants.createWithKeys(a, [], []);
        await merchants.createWithKeys(b, [], []);
        assert.equal(await merchants.count(), before + 2);
        const ids = (await merchants.list()).map((m) => m.id);
        assert.ok(ids.indexOf(a.id) < ids.indexOf(b.id));
      });

      it('creates merchants concurrently without losing any', async () => {
        const batch = Array.from({ length: 20 }, (_, i) => aMerchant({ name: `M${i}` }));
        await Promise.all(batch.map((m) => merchants.createWithKeys(m, [aKey(m.id), aKey(m.id, { environment: 'live' })], [])));
        for (const m of batch) assert.equal((await keys.list({ merchantId: m.id })).length, 2);
      });
    });

    describe('API keys', () => {
      it('refuses an environment other than test or live', async () => {
        const merchant = aMerchant();
        await merchants.createWithKeys(merchant, [], []);
        await assert.rejects(keys.insert(aKey(merchant.id, { environment: 'staging' as never })));
      });

      it('keeps the first revocation time when a key is revoked twice', async () => {
        const merchant = aMerchant();
        const key = aKey(merchant.id);
        await merchants.createWithKeys(merchant, [key], []);
        const first = await keys.revoke(key.id, '2026-01-01T00:00:00.000Z');
        const second = await keys.revoke(key.id, '2026-02-01T00:00:00.000Z');
        assert.equal(first?.revokedAt, '2026-01-01T00:00:00.000Z');
        assert.equal(second?.revokedAt, '2026-01-01T00:00:00.000Z');
        assert.equal(await keys.revoke(newId(), '2026-01-01T00:00:00.000Z'), undefined);
      });

      it('finds nothing for an unknown hash', async () => {
        assert.equal(await keys.findByHash('0'.repeat(64)), undefined);
      });
    });

    describe('events', () => {
      it('returns an event only to its own merchant and environment', async () => {
        const owner = aMerchant();
        const other = aMerchant();
        await merchants.createWithKeys(owner, [], []);
        await merchants.createWithKeys(other, [], []);
        const id = newId();
        // A large amount proves bigint centimes survive the JSON round trip exactly.
        const subject = { kind: 'payment' as const, payment: aPayment(owner.id, { environment: 'live', amountMinor: 9_007_199_254_740 }) };
        await new EventOutbox(open.database.db).insert(open.database.db, [
          { id, merchantId: owner.id, environment: 'live', type: 'collect.payment.created', createdAt: new Date().toISOString(), subject },
        ]);
        assert.deepEqual((await events.findById({ merchantId: owner.id, environment: 'live' }, id))?.subject, subject);
        assert.equal(await events.findById({ merchantId: owner.id, environment: 'test' }, id), undefined);
        assert.equal(await events.findById({ merchantId: other.id, environment: 'live' }, id), undefined);
      });

      it('does not commit an event whose transaction fails', async () => {
        const owner = aMerchant();
        await merchants.createWithKeys(owner, [], []);
        const id = newId();
        await assert.rejects(
          open.database.db.transaction().execute(async (trx) => {
            await new EventOutbox(open.database.db).insert(trx, [
              { id, merchantId: owner.id, environment: 'test', type: 'x', createdAt: new Date().toISOString(), subject: { kind: 'payment', payment: aPayment(owner.id) } },
            ]);
            throw new Error('the change it reports failed');
          }),
        );
        assert.equal(await events.findById({ merchantId: owner.id, environment: 'test' }, id), undefined);
      });
    });

    describe('idempotency records', () => {
      const record = (key: string, environment = 'test') => ({
        merchant_id: 'm1',
        environment,
        method: 'POST',
        route: '/collect/payments',
        idempotency_key: key,
        request_hash: 'h',
        state: 'in_progress',
        response_status: null,
        response_body: null,
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      });

      it('lets the database refuse a second claim of the same key, even when both race', async () => {
        const key = newId();
        const results = await Promise.allSettled(Array.from({ length: 8 }, () => open.database.db.insertInto('idempotency_records').values(record(key)).execute()));
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      });

      it('scopes a key by environment', async () => {
        const key = newId();
        await open.database.db.insertInto('idempotency_records').values(record(key, 'test')).execute();
        await open.database.db.insertInto('idempotency_records').values(record(key, 'live')).execute();
        const rows = await open.database.db.selectFrom('idempotency_records').select('environment').where('idempotency_key', '=', key).execute();
        assert.equal(rows.length, 2);
      });
    });
  });
}
