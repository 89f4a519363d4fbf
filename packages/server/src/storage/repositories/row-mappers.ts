/** Row <-> domain conversions shared by the repositories (one place for casts from text columns). */
import type { Selectable } from 'kysely';
import type { ApiKey } from '../../core/merchants/api-key.js';
import type { KycStatus, Merchant, MerchantStatus } from '../../core/merchants/merchant.js';
import type { Scope } from '../../core/merchants/scopes.js';
import type { Environment } from '../../core/shared/environment.js';
import type { ApiKeyTable, LedgerTransactionTable, MerchantTable } from '../schema.js';
import type { Currency } from '../../core/catalog/operator-catalog.js';
import type { BalanceTransaction, BalanceTransactionType, LedgerPosting } from '../../core/ledger/ledger.js';

export function merchantFromRow(row: Selectable<MerchantTable>): Merchant {
  return {
    id: row.id,
    name: row.name,
    status: row.status as MerchantStatus,
    kycStatus: row.kyc_status as KycStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function merchantToRow(merchant: Merchant): Selectable<MerchantTable> {
  return {
    id: merchant.id,
    name: merchant.name,
    status: merchant.status,
    kyc_status: merchant.kycStatus,
    created_at: merchant.createdAt,
    updated_at: merchant.updatedAt,
  };
}

export function apiKeyFromRow(row: Selectable<ApiKeyTable>): ApiKey {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    keyHash: row.key_hash,
    keyPrefix: row.key_prefix,
    keyLastFour: row.key_last_four,
    scopes: JSON.parse(row.scopes) as Scope[],
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    createdByUserId: row.created_by_user_id,
  };
}

export function apiKeyToRow(key: ApiKey): Selectable<ApiKeyTable> {
  return {
    id: key.id,
    merchant_id: key.merchantId,
    environment: key.environment,
    key_hash: key.keyHash,
    key_prefix: key.keyPrefix,
    key_last_four: key.keyLastFour,
    scopes: JSON.stringify(key.scopes),
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
    last_used_at: key.lastUsedAt,
    created_by_user_id: key.createdByUserId,
  };
}

/** A `ledger_transactions` row as the balance transaction lists and exports show it. */
export function balanceTransactionFromRow(row: Selectable<LedgerTransactionTable>): BalanceTransaction {
  return {
    id: row.id,
    type: row.type as BalanceTransactionType,
    currency: row.currency as Currency,
    environment: row.environment as Environment,
    availableChangeMinor: Number(row.available_change_minor),
    reservedChangeMinor: Number(row.reserved_change_minor),
    feeMinor: Number(row.fee_minor),
    source: { type: row.source_type as LedgerPosting['source']['type'], id: row.source_id, reference: row.source_reference },
    description: row.description,
    createdAt: row.created_at,
    settlementId: row.settlement_id ?? null,
  };
}
