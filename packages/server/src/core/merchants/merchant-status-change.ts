import type { KycStatus, Merchant, MerchantStatus } from './merchant.js';

/** The two statuses whose changes are recorded: the account status and the KYC status. */
export const recordedStatusFields = ['status', 'kyc_status'] as const;
export type RecordedStatusField = (typeof recordedStatusFields)[number];

/**
 * One recorded change of one status of a merchant. `from` is null for the value the merchant was
 * created with. `actor` says who or what made the change: `cli` for the `akwe` command line,
 * `demo-setup` for the demo merchant of a first start, `system` when the caller names nobody.
 */
export interface MerchantStatusChange {
  id: string;
  merchantId: string;
  field: RecordedStatusField;
  from: string | null;
  to: string;
  actor: string;
  changedAt: string;
}

export interface StatusChangeStamp {
  actor: string;
  at: string;
  newId: () => string;
}

export interface RequestedStatusChanges {
  status?: MerchantStatus;
  kycStatus?: KycStatus;
}

/** What one change of statuses does: the merchant as it becomes and the history rows that record it. */
export interface MerchantStatusUpdate {
  merchant: Merchant;
  changes: MerchantStatusChange[];
}

/** The history rows of a new merchant: each status set from nothing to its first value. */
export function initialStatusChanges(merchant: Merchant, stamp: StatusChangeStamp): MerchantStatusChange[] {
  return [record(merchant.id, 'status', null, merchant.status, stamp), record(merchant.id, 'kyc_status', null, merchant.kycStatus, stamp)];
}

/**
 * Applies the requested statuses to the merchant as it is now. A status asked for that it already
 * has is no change; when nothing changes the answer is undefined, so nothing is written at all.
 */
export function applyStatusChanges(current: Merchant, requested: RequestedStatusChanges, stamp: StatusChangeStamp): MerchantStatusUpdate | undefined {
  const changes: MerchantStatusChange[] = [];
  if (requested.status !== undefined && requested.status !== current.status) {
    changes.push(record(current.id, 'status', current.status, requested.status, stamp));
  }
  if (requested.kycStatus !== undefined && requested.kycStatus !== current.kycStatus) {
    changes.push(record(current.id, 'kyc_status', current.kycStatus, requested.kycStatus, stamp));
  }
  if (changes.length === 0) return undefined;
  return {
    merchant: { ...current, status: requested.status ?? current.status, kycStatus: requested.kycStatus ?? current.kycStatus, updatedAt: stamp.at },
    changes,
  };
}

function record(merchantId: string, field: RecordedStatusField, from: string | null, to: string, stamp: StatusChangeStamp): MerchantStatusChange {
  return { id: stamp.newId(), merchantId, field, from, to, actor: stamp.actor, changedAt: stamp.at };
}
