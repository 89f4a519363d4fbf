import type { Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { Metadata } from '../shared/metadata.js';

export const transferDirections = ['sent', 'received'] as const;
export type TransferDirection = (typeof transferDirections)[number];

/**
 * Money moved from one merchant's available balance to another's, in one environment, at once
 * (docs/transfers.md). Each party sees it from its side (`direction`); the reference and metadata
 * are the sender's own, so the receiver's view carries neither.
 */
export interface Transfer {
  id: string;
  /** The party reading it. */
  merchantId: string;
  environment: Environment;
  direction: TransferDirection;
  senderId: string;
  receiverId: string;
  /** The sender's reference (null on the receiver's side). */
  reference: string | null;
  amountMinor: number;
  currency: Currency;
  description: string | null;
  /** The sender's metadata ({} on the receiver's side). */
  metadata: Metadata;
  createdAt: string;
}

/** The receiver's side of a transfer the sender made. */
export function receivedSide(sent: Transfer): Transfer {
  return { ...sent, merchantId: sent.receiverId, direction: 'received', reference: null, metadata: {} };
}
