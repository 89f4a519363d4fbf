import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { PaymentLink } from './payment-link.js';

export interface PaymentLinkFilters {
  /** true: only links not deactivated; false: only deactivated ones. */
  active?: boolean;
  createdGte?: string;
  createdLte?: string;
}

export interface PaymentLinkStore {
  /** Stores a new link with its event (and the request's claim) in one transaction. */
  insert(link: PaymentLink, events: StoredEvent[], claim?: ClaimWrite): Promise<void>;
  /** Commits a change with its events; false (nothing written) when the version moved on. */
  save(next: PaymentLink, expectedVersion: number, events: StoredEvent[]): Promise<boolean>;
  find(scope: TenantScope, id: string): Promise<PaymentLink | undefined>;
  /** By the public page's slug, whatever its merchant (the page has no key). */
  findBySlug(slug: string): Promise<PaymentLink | undefined>;
  list(scope: TenantScope, filters: PaymentLinkFilters, page: PageRequest): Promise<Page<PaymentLink>>;
  /** Completed (or refunded) payments made through each of these links of the scope; absent ids have none. */
  completedPayments(scope: TenantScope, linkIds: readonly string[]): Promise<Map<string, number>>;
}
