import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContractRouteDeps, ContractVersion } from '../contract-version.js';
import { collectV2026Routes } from './collect-v2026-routes.js';
import { CURRENT_API_VERSION } from './operator-catalog-mapper.js';
import { paymentToWire, refundToWire } from './payment-mapper.js';
import { paymentRoutes } from './payment-routes.js';
import { PaymentObject, RefundObject } from './payment-schemas.js';
import { renderDelivery } from './webhook-rendering.js';
import { transferToWire } from '../../transfers/transfer-mapper.js';
import { TransferObject } from '../../transfers/transfer-schemas.js';
import { settlementToWire } from '../../settlements/settlement-mapper.js';
import { SettlementObject } from '../../settlements/settlement-schemas.js';
import { settlementAccountToWire } from '../../settlements/settlement-account-mapper.js';
import { SettlementAccountObject } from '../../settlements/settlement-account-schemas.js';
import { paymentLinkToWire } from '../../payment-links/payment-link-mapper.js';
import { PaymentLinkObject } from '../../payment-links/payment-link-schemas.js';
import { MerchantEventObject, merchantToEventObject } from '../../account/merchant-event-object.js';

const routes: FastifyPluginAsyncTypebox<ContractRouteDeps> = async (api, { services, config, destinationUrls }) => {
  await api.register(collectV2026Routes, { catalog: services.catalog, operators: services.operators });
  await api.register(paymentRoutes, {
    approvals: services.approvals,
    payments: services.payments,
    refunds: services.refunds,
    catalog: services.catalog,
    publicUrl: config.publicUrl,
    destinationUrls,
    dev: config.dev,
  });
};

/**
 * Collect, current contract: payments, refunds and their catalog; its events and webhooks carry its
 * version. The account's KYC decisions, wallet transfers and settlements (routes in http/transfers and http/settlements) are of this
 * version's family of objects: their events carry its event_version.
 */
export const collect202606: ContractVersion = {
  name: 'collect-2026-06',
  routes,
  events: {
    version: CURRENT_API_VERSION,
    subjects: ['payment', 'refund', 'transfer', 'settlement', 'settlement_account', 'payment_link', 'merchant'],
    families: [
      { prefix: 'collect.payment.', object: PaymentObject, subject: 'payment' },
      { prefix: 'collect.refund.', object: RefundObject, subject: 'refund' },
      { prefix: 'transfer.', object: TransferObject, subject: 'transfer' },
      { prefix: 'settlement.', object: SettlementObject, subject: 'settlement' },
      { prefix: 'settlement_account.', object: SettlementAccountObject, subject: 'settlement_account' },
      { prefix: 'payment_link.', object: PaymentLinkObject, subject: 'payment_link' },
      { prefix: 'merchant.', object: MerchantEventObject, subject: 'merchant' },
    ],
    object(subject, publicUrl) {
      if (subject.kind === 'payment') return paymentToWire(subject.payment, publicUrl);
      if (subject.kind === 'refund') return refundToWire(subject.refund);
      if (subject.kind === 'transfer') return transferToWire(subject.transfer);
      if (subject.kind === 'settlement') return settlementToWire(subject.settlement);
      // As of the change the event tells (its updated_at), not of the delivery: a late delivery still says `cooling`.
      if (subject.kind === 'settlement_account') return settlementAccountToWire(subject.account, new Date(subject.account.updatedAt));
      if (subject.kind === 'payment_link') return paymentLinkToWire(subject.view, publicUrl);
      if (subject.kind === 'merchant') return merchantToEventObject(subject.merchant, subject.kycRejectionReason);
      throw new Error(`collect-2026-06 renders payment, refund, transfer, settlement and merchant events, not ${subject.kind}`);
    },
  },
  webhook: { apiVersion: CURRENT_API_VERSION, render: renderDelivery },
};
