import type { CountryCode, Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { Metadata } from '../shared/metadata.js';

/**
 * A payment link (docs/payment-links.md): a public page `/pay/<slug>` where anyone with the link pays
 * the merchant through the hosted checkout. Its amount is fixed (`amountMinor`) or chosen by the
 * customer within bounds; it may be limited to one payment, to `maxPayments`, or in time.
 */
export interface PaymentLink {
  id: string;
  merchantId: string;
  environment: Environment;
  /** The page's unguessable part of its URL (24 random bytes, base64url). */
  slug: string;
  /** Fixed amount in centimes; null for an open amount (the customer types it). */
  amountMinor: number | null;
  /** Open amount: the bounds in centimes (null: the catalog's own limit). */
  minAmountMinor: number | null;
  maxAmountMinor: number | null;
  currency: Currency;
  /** The countries the customer may pay from (one or more, catalog order kept as given). */
  countries: CountryCode[];
  /** What is sold, shown on the page and given to each payment. */
  description: string;
  /** false: the link takes one completed payment, then is used up. */
  reusable: boolean;
  /** At most this many completed payments (null: no limit). */
  maxPayments: number | null;
  expiresAt: string | null;
  returnUrl: string | null;
  metadata: Metadata;
  deactivatedAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** active; inactive (deactivated); expired (past expires_at); completed (used up: single use paid, or max_payments reached). */
export const paymentLinkStatuses = ['active', 'inactive', 'expired', 'completed'] as const;
export type PaymentLinkStatus = (typeof paymentLinkStatuses)[number];

/** A link with what is counted from its payments: how many completed, and the status that follows. */
export interface PaymentLinkView {
  /** The link's id (lists page on it). */
  id: string;
  link: PaymentLink;
  /** Payments through the link that completed (refunded ones included: they were paid). */
  completedPayments: number;
  status: PaymentLinkStatus;
}

/** The status of a link at `now`, given its completed payments; deactivation wins, then expiry, then use. */
export function paymentLinkStatus(link: PaymentLink, completedPayments: number, now: string): PaymentLinkStatus {
  if (link.deactivatedAt !== null) return 'inactive';
  if (link.expiresAt !== null && link.expiresAt <= now) return 'expired';
  const limit = link.reusable ? link.maxPayments : 1;
  if (limit !== null && completedPayments >= limit) return 'completed';
  return 'active';
}
