import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { SettlementAccount, SettlementAccountKind } from './settlement-account.js';

export interface SettlementAccountFilters {
  kind?: SettlementAccountKind;
  /** Removed accounts are left out unless asked for. */
  includeRemoved?: boolean;
}

export interface SettlementAccountStore {
  /** Stores a new account with its event (and the request's claim) in one transaction. */
  insert(account: SettlementAccount, events: StoredEvent[], claim?: ClaimWrite): Promise<void>;
  /** Commits a change with its events; false (nothing written) when the version moved on. */
  save(next: SettlementAccount, expectedVersion: number, events: StoredEvent[]): Promise<boolean>;
  find(scope: TenantScope, id: string): Promise<SettlementAccount | undefined>;
  list(scope: TenantScope, filters: SettlementAccountFilters, page: PageRequest): Promise<Page<SettlementAccount>>;
}
