import { settlementAccountStatus, type SettlementAccount } from '../../core/settlements/settlement-account.js';

/** Domain -> the settlement account object; `status` is as of `now` (the answer's time). */
export function settlementAccountToWire(account: SettlementAccount, now: Date = new Date()) {
  return {
    object: 'settlement_account' as const,
    id: account.id,
    kind: account.kind,
    status: settlementAccountStatus(account, now),
    currency: account.currency,
    country: account.country,
    holder_name: account.holderName,
    operator: account.operator,
    phone: account.phone,
    iban: account.iban,
    bank_name: account.bankName,
    description: account.description,
    metadata: account.metadata,
    usable_from: account.usableFrom,
    removed_at: account.removedAt,
    environment: account.environment,
    sandbox: account.environment === 'test',
    created_at: account.createdAt,
    updated_at: account.updatedAt,
  };
}
