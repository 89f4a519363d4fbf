/** Plain domain objects for storage tests; every field explicit so a test can change one. */
import type { Payment } from '../../src/core/payments/payment.js';
import { newId } from '../../src/core/shared/ids.js';

export function aPayment(merchantId: string, overrides: Partial<Payment> = {}): Payment {
  const now = new Date().toISOString();
  return {
    id: newId(),
    merchantId,
    environment: 'test',
    reference: `REF-${newId()}`,
    status: 'processing',
    amountMinor: 300_000,
    currency: 'XOF',
    country: 'BJ',
    mode: 'direct',
    operator: 'mtn_bj',
    phone: '+2290197000000',
    description: null,
    callbackUrl: null,
    customerFirstName: null,
    customerLastName: null,
    pspReference: null,
    message: null,
    failureCode: null,
    metadata: {},
    otpAttempts: 0,
    refundedMinor: 0,
    expiresAt: new Date(Date.now() + 900_000).toISOString(),
    createdAt: now,
    updatedAt: now,
    version: 1,
    operatorCall: null,
    operatorCallStartedAt: null,
    ...overrides,
  };
}
