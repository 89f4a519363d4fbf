/**
 * The merchant account as merchant.kyc.* events carry it in data.object (docs/webhooks.md): the
 * platform's KYC decision, and the reason when it is a rejection.
 */
import { Type } from 'typebox';
import type { Merchant } from '../../core/merchants/merchant.js';

export const MerchantEventObject = Type.Object(
  {
    object: Type.Literal('merchant'),
    id: Type.String(),
    name: Type.String(),
    status: Type.String({ description: 'active or suspended.' }),
    kyc_status: Type.String({ description: 'validated or rejected, as decided.' }),
    kyc_rejection_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the KYC was rejected; null when validated.' }),
    updated_at: Type.String(),
  },
  {
    title: 'MerchantAccount',
    examples: [
      {
        object: 'merchant',
        id: '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
        name: 'Boulangerie Sainte-Rita',
        status: 'active',
        kyc_status: 'rejected',
        kyc_rejection_reason: 'The registration certificate is unreadable: please send a clearer scan.',
        updated_at: '2026-06-01T09:30:00.000Z',
      },
    ],
  },
);

export function merchantToEventObject(merchant: Merchant, kycRejectionReason: string | null) {
  return {
    object: 'merchant' as const,
    id: merchant.id,
    name: merchant.name,
    status: merchant.status,
    kyc_status: merchant.kycStatus,
    kyc_rejection_reason: kycRejectionReason,
    updated_at: merchant.updatedAt,
  };
}
