/**
 * A settlement_account event shows the account as it was when the change happened: its status is
 * computed as of the change (updated_at), not as of whenever the event is read or delivered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettlementAccount } from '../../src/core/settlements/settlement-account.js';
import { collect202606 } from '../../src/http/contracts/collect-2026-06/contract.js';

const HOUR = 3_600_000;

function account(changedAt: string, overrides: Partial<SettlementAccount> = {}): SettlementAccount {
  return {
    id: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7',
    merchantId: '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
    environment: 'live',
    kind: 'wallet',
    currency: 'XOF',
    country: 'BJ',
    holderName: 'Boutique Adjoa SARL',
    operator: 'mtn_bj',
    phone: '+2290197000001',
    iban: null,
    bankName: null,
    description: null,
    metadata: {},
    usableFrom: new Date(Date.parse(changedAt) + 24 * HOUR).toISOString(),
    removedAt: null,
    createdAt: changedAt,
    updatedAt: changedAt,
    version: 1,
    ...overrides,
  };
}

const rendered = (subject: SettlementAccount) => collect202606.events!.object({ kind: 'settlement_account', account: subject }, 'http://localhost:8080') as { status: string };

describe('settlement_account events', () => {
  it('say cooling for a change made during the cooling period, even read years later', () => {
    assert.equal(rendered(account('2020-01-01T00:00:00.000Z')).status, 'cooling');
  });

  it('say usable for a change made after the cooling period (a description edited), and removed for a removal', () => {
    const usable = account('2020-01-01T00:00:00.000Z', { usableFrom: '2019-12-30T00:00:00.000Z' });
    assert.equal(rendered(usable).status, 'usable');
    assert.equal(rendered({ ...usable, removedAt: '2020-01-01T00:00:00.000Z' }).status, 'removed');
  });
});
