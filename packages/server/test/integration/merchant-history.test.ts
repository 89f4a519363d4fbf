/**
 * Merchant status history through the real MerchantService and repository, on every database:
 * each change of account status or KYC status is one row (from, to, when, by whom), written in
 * the transaction of the change; a set that changes nothing writes nothing; concurrent sets of
 * one merchant form one unbroken chain per status.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { AkweError } from '../../src/core/errors/index.js';
import { kycStatuses, type KycStatus, type Merchant, type MerchantStatus } from '../../src/core/merchants/merchant.js';
import type { MerchantStatusChange, RecordedStatusField } from '../../src/core/merchants/merchant-status-change.js';
import { newId } from '../../src/core/shared/ids.js';
import { createServices, type Services } from '../../src/services.js';
import { MerchantRepository } from '../../src/storage/repositories/merchant-repository.js';
import { FakeClock } from '../support/fake-clock.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const unknownMerchant = '00000000-0000-7000-8000-000000000000';

/** The changes of one status, oldest first (the listing is newest first). */
function chainOf(history: MerchantStatusChange[], field: RecordedStatusField): MerchantStatusChange[] {
  return history.filter((c) => c.field === field).reverse();
}

/** Each change starts from where the one before it ended, and the last ends where the merchant is. */
function assertUnbrokenChain(history: MerchantStatusChange[], field: RecordedStatusField, current: string): void {
  const chain = chainOf(history, field);
  assert.equal(chain[0]?.from, null, `${field}: the first change is not the creation`);
  for (let i = 1; i < chain.length; i++) {
    assert.equal(chain[i]!.from, chain[i - 1]!.to, `${field}: change ${i} starts from ${chain[i]!.from}, the one before ended at ${chain[i - 1]!.to}`);
    assert.notEqual(chain[i]!.from, chain[i]!.to, `${field}: change ${i} changes nothing`);
  }
  assert.equal(chain.at(-1)!.to, current, `${field}: the last recorded value is not the merchant's`);
}

const isNotFound = (error: unknown) => error instanceof AkweError && error.code === 'not_found';

for (const target of testDatabases()) {
  describe(`merchant status history on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let services: Services;
    let clock: FakeClock;

    const newMerchant = async (kycStatus: KycStatus = 'pending', status: MerchantStatus = 'active'): Promise<Merchant> =>
      (await services.merchants.createMerchant({ name: 'Boutique Porto-Novo', kycStatus, status, keyEnvironments: [], actor: 'cli' })).merchant;

    before(async () => {
      db = await target.open();
      clock = new FakeClock();
      services = createServices({ database: db.database, catalog: loadDefaultCatalog(), clock });
    });
    after(async () => {
      await db?.close();
    });

    it('records the first account status and KYC status of a new merchant, each from nothing', async () => {
      const merchant = await newMerchant('submitted');
      const history = await services.merchants.statusHistory(merchant.id);
      assert.deepEqual(
        history.map(({ field, from, to, actor, changedAt, merchantId }) => ({ field, from, to, actor, changedAt, merchantId })),
        [
          { field: 'kyc_status', from: null, to: 'submitted', actor: 'cli', changedAt: merchant.createdAt, merchantId: merchant.id },
          { field: 'status', from: null, to: 'active', actor: 'cli', changedAt: merchant.createdAt, merchantId: merchant.id },
        ],
      );
    });

    it('a change of KYC status writes one row with from, to, time and actor, listed first', async () => {
      const merchant = await newMerchant('submitted');
      clock.advance(60_000);
      const updated = await services.merchants.updateMerchant(merchant.id, { kycStatus: 'validated' }, { actor: 'cli' });
      assert.equal(updated.kycStatus, 'validated');
      assert.equal(updated.updatedAt, clock.now().toISOString());

      const history = await services.merchants.statusHistory(merchant.id);
      assert.equal(history.length, 3);
      const { field, from, to, actor, changedAt } = history[0]!;
      assert.deepEqual({ field, from, to, actor, changedAt }, { field: 'kyc_status', from: 'submitted', to: 'validated', actor: 'cli', changedAt: clock.now().toISOString() });
      assert.deepEqual(await services.merchants.getMerchant(merchant.id), updated);
    });

    it('setting both statuses records one row for each, and only for the one that changes', async () => {
      const merchant = await newMerchant('pending');
      await services.merchants.updateMerchant(merchant.id, { status: 'suspended', kycStatus: 'rejected' });
      let history = await services.merchants.statusHistory(merchant.id);
      assert.deepEqual(
        history
          .slice(0, 2)
          .map((c) => [c.field, c.from, c.to, c.actor])
          .sort(),
        [
          ['kyc_status', 'pending', 'rejected', 'system'],
          ['status', 'active', 'suspended', 'system'],
        ],
      );

      // The KYC status is already rejected: only the account status is a change.
      await services.merchants.updateMerchant(merchant.id, { status: 'active', kycStatus: 'rejected' }, { actor: 'cli' });
      history = await services.merchants.statusHistory(merchant.id);
      assert.equal(history.length, 5);
      assert.deepEqual([history[0]!.field, history[0]!.from, history[0]!.to], ['status', 'suspended', 'active']);
    });

    it('a set that changes nothing writes no row and leaves updated_at as it was', async () => {
      const merchant = await newMerchant('validated');
      const before = await services.merchants.statusHistory(merchant.id);
      clock.advance(60_000);
      const unchanged = await services.merchants.updateMerchant(merchant.id, { status: 'active', kycStatus: 'validated' }, { actor: 'cli' });
      assert.deepEqual(unchanged, merchant);
      assert.deepEqual(await services.merchants.getMerchant(merchant.id), merchant);
      assert.deepEqual(await services.merchants.statusHistory(merchant.id), before);
    });

    it('an unknown merchant is not_found, for a change and for its history, and nothing is written', async () => {
      await assert.rejects(services.merchants.updateMerchant(unknownMerchant, { kycStatus: 'validated' }), isNotFound);
      await assert.rejects(services.merchants.statusHistory(unknownMerchant), isNotFound);
      const repository = new MerchantRepository(db.database.db, db.database.capabilities);
      assert.deepEqual(await repository.listStatusChanges(unknownMerchant), []);
    });

    it('the change and its history row commit together: when either cannot be written, neither is', async () => {
      const repository = new MerchantRepository(db.database.db, db.database.capabilities);
      const merchant = await newMerchant('pending');
      const history = await services.merchants.statusHistory(merchant.id);
      const row = (overrides: Partial<MerchantStatusChange>): MerchantStatusChange => ({
        id: newId(),
        merchantId: merchant.id,
        field: 'kyc_status',
        from: 'pending',
        to: 'validated',
        actor: 'cli',
        changedAt: clock.now().toISOString(),
        ...overrides,
      });

      // The merchant row is fine, the history row breaks a rule of its table (a field it does not record).
      await assert.rejects(repository.changeStatuses(merchant.id, (current) => ({ merchant: { ...current, kycStatus: 'validated' }, changes: [row({ field: 'name' as never })] })));
      // The history row is fine, the merchant row breaks a rule of its table (an unknown status).
      await assert.rejects(
        repository.changeStatuses(merchant.id, (current) => ({
          merchant: { ...current, status: 'closed' as never },
          changes: [row({ field: 'status', from: 'active', to: 'closed' })],
        })),
      );
      assert.deepEqual(await services.merchants.getMerchant(merchant.id), merchant);
      assert.deepEqual(await services.merchants.statusHistory(merchant.id), history);
    });

    it('two sets at once are both recorded, the second from where the first left the status', async () => {
      const merchant = await newMerchant('pending');
      // Several rounds, so a lost row cannot hide behind one lucky interleaving.
      for (let round = 1; round <= 6; round++) {
        const { kycStatus } = await services.merchants.getMerchant(merchant.id);
        const [first, second] = kycStatuses.filter((s) => s !== kycStatus);
        await Promise.all([services.merchants.updateMerchant(merchant.id, { kycStatus: first }), services.merchants.updateMerchant(merchant.id, { kycStatus: second })]);
        const chain = chainOf(await services.merchants.statusHistory(merchant.id), 'kyc_status');
        assert.equal(chain.length, 1 + 2 * round, `round ${round}: a concurrent set was lost`);
        assert.deepEqual(
          chain
            .slice(-2)
            .map((c) => c.to)
            .sort(),
          [first, second].sort(),
        );
      }
      const current = await services.merchants.getMerchant(merchant.id);
      assertUnbrokenChain(await services.merchants.statusHistory(merchant.id), 'kyc_status', current.kycStatus);
    });

    it('a burst of concurrent sets of both statuses leaves one unbroken chain per status', async () => {
      const merchant = await newMerchant('pending');
      const sets = Array.from({ length: 16 }, (_, i) =>
        services.merchants.updateMerchant(merchant.id, {
          kycStatus: kycStatuses[(i + 1) % kycStatuses.length],
          ...(i % 3 === 0 ? { status: i % 2 === 0 ? 'suspended' : 'active' } : {}),
        }),
      );
      await Promise.all(sets);
      const current = await services.merchants.getMerchant(merchant.id);
      const history = await services.merchants.statusHistory(merchant.id);
      assertUnbrokenChain(history, 'kyc_status', current.kycStatus);
      assertUnbrokenChain(history, 'status', current.status);
      // Consecutive sets ask for different KYC statuses, so most of them are real changes.
      assert.ok(chainOf(history, 'kyc_status').length > 2, 'the burst recorded almost nothing');
    });
  });
}
