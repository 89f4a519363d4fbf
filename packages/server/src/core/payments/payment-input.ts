import type { Metadata } from '../shared/metadata.js';
import type { PaymentMode } from './payment.js';

/** A new payment as every contract's mapper hands it to the core: centimes, flat phone, no wire names. */
export interface CreatePaymentInput {
  reference: string;
  amountMinor: number;
  currency?: string;
  country: string;
  mode: PaymentMode;
  phone?: string;
  operator?: string;
  description?: string;
  callbackUrl?: string;
  /** Hosted payments: the merchant's page linked from the final checkout state. */
  returnUrl?: string;
  expiresInSeconds?: number;
  customerFirstName?: string;
  customerLastName?: string;
  metadata?: Metadata;
  /** Made through this payment link (core/payment-links): the payment carries its id. */
  paymentLinkId?: string;
  /** With paymentLinkId: how many payments the link takes (single use: 1); the use is taken at creation. */
  paymentLinkLimit?: number;
}

export const expiryBounds = { min: 60, max: 86_400, defaultDirect: 900, defaultHosted: 3_600 } as const;
export const maxOtpAttempts = 3;
