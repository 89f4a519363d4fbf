export const merchantStatuses = ['active', 'suspended'] as const;
export type MerchantStatus = (typeof merchantStatuses)[number];

export const kycStatuses = ['pending', 'submitted', 'validated', 'rejected'] as const;
export type KycStatus = (typeof kycStatuses)[number];

export interface Merchant {
  id: string;
  name: string;
  status: MerchantStatus;
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}
