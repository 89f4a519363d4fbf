import { Type } from 'typebox';
import { submissionStatuses } from '../../core/kyc/kyc-submission.js';
import { kycStatuses, merchantStatuses, type Merchant } from '../../core/merchants/merchant.js';
import { discrepancyKinds, type OperatorDiscrepancy } from '../../core/operators/operator-discrepancy.js';
import type { OperatorState } from '../../core/admin/back-office.js';
import { KycSubmissionObject, submissionExample } from '../dashboard/kyc-schemas.js';

const MERCHANT_ID = '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f';
const Id = Type.String({ minLength: 1, maxLength: 64 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const SubmissionParams = Type.Object({ submissionId: Id });
export const DocumentParams = Type.Object({ submissionId: Id, documentId: Id });
export const AdminMerchantParams = Type.Object({ merchantId: Id });

export const SubmissionQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(submissionStatuses, { description: 'Only submissions in this status (submitted: those waiting for a review).' })),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    starting_after: Type.Optional(Type.String({ maxLength: 64, description: 'The `next_cursor` of the previous page.' })),
  },
  { additionalProperties: false },
);
export const SubmissionList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(KycSubmissionObject), has_more: Type.Boolean(), next_cursor: Nullable(Type.String()) },
  { title: 'AdminKycSubmissionList', examples: [{ object: 'list', data: [submissionExample], has_more: false, next_cursor: null }] },
);
export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Shown to the merchant and emailed to its owners.' }) },
  { additionalProperties: false, title: 'AdminKycRejectRequest', examples: [{ reason: 'The proof of address is older than three months.' }] },
);
export const ReasonBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Kept in the audit log.' }) },
  { additionalProperties: false, title: 'AdminMerchantStatusRequest', examples: [{ reason: 'Chargebacks under investigation.' }] },
);

const merchantExample = {
  object: 'merchant',
  id: MERCHANT_ID,
  name: 'Boulangerie Sainte-Rita',
  status: 'active',
  kyc_status: 'submitted',
  created_at: '2026-06-02T08:15:00.000Z',
  updated_at: '2026-06-03T09:00:00.000Z',
};
export const AdminMerchantObject = Type.Object(
  {
    object: Type.Literal('merchant'),
    id: Type.String(),
    name: Type.String(),
    status: Type.Enum(merchantStatuses),
    kyc_status: Type.Enum(kycStatuses),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'AdminMerchant', examples: [merchantExample] },
);
export const MerchantQuery = Type.Object(
  { status: Type.Optional(Type.Enum(merchantStatuses)), kyc_status: Type.Optional(Type.Enum(kycStatuses)) },
  { additionalProperties: false },
);
export const AdminMerchantList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(AdminMerchantObject) },
  { title: 'AdminMerchantList', examples: [{ object: 'list', data: [merchantExample] }] },
);
export const merchantToWire = (m: Merchant) => ({
  object: 'merchant' as const,
  id: m.id,
  name: m.name,
  status: m.status,
  kyc_status: m.kycStatus,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
});

export const DiscrepancyQuery = Type.Object(
  {
    unresolved_only: Type.Boolean({ default: true, description: 'false: the resolved ones too.' }),
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  },
  { additionalProperties: false },
);
const discrepancyExample = {
  object: 'operator_discrepancy',
  id: '0193c5d2-0000-7000-8000-000000000001',
  kind: 'operator_answer',
  merchant_id: MERCHANT_ID,
  environment: 'live',
  resource_type: 'payment',
  resource_id: '0193c5d2-0000-7000-8000-000000000002',
  reference: 'order-1042',
  operator: 'mtn',
  our_status: 'expired',
  operator_status: 'SUCCESSFUL',
  operator_reference: 'MP240603.0900.A12345',
  message: null,
  created_at: '2026-06-03T09:00:00.000Z',
  resolved_at: null,
  resolution: null,
  route: null,
  currency: null,
  our_amount_minor: null,
  operator_amount_minor: null,
  reconciliation_run_id: null,
};
export const DiscrepancyList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(
      Type.Object({
        object: Type.Literal('operator_discrepancy'),
        id: Type.String(),
        kind: Type.Enum(discrepancyKinds, {
          description: 'operator_answer: an answer our state machine refused; the others were found by a reconciliation run (docs/operations.md "Reconciliation").',
        }),
        merchant_id: Nullable(Type.String({ description: 'null: a provider’s line Akwe has no record of.' })),
        environment: Type.String(),
        resource_type: Type.String(),
        resource_id: Nullable(Type.String()),
        reference: Type.String(),
        operator: Type.String(),
        our_status: Type.String(),
        operator_status: Type.String(),
        operator_reference: Nullable(Type.String()),
        message: Nullable(Type.String()),
        created_at: Type.String({ format: 'date-time' }),
        resolved_at: Nullable(Type.String({ format: 'date-time' })),
        resolution: Nullable(Type.String()),
        route: Nullable(Type.String()),
        currency: Nullable(Type.String()),
        our_amount_minor: Nullable(Type.Integer()),
        operator_amount_minor: Nullable(Type.Integer()),
        reconciliation_run_id: Nullable(Type.String()),
      }),
    ),
  },
  { title: 'AdminDiscrepancyList', examples: [{ object: 'list', data: [discrepancyExample] }] },
);
export const discrepancyToWire = (d: OperatorDiscrepancy) => ({
  object: 'operator_discrepancy' as const,
  id: d.id,
  kind: d.kind,
  merchant_id: d.merchantId,
  environment: d.environment,
  resource_type: d.resourceType,
  resource_id: d.resourceId,
  reference: d.reference,
  operator: d.operator,
  our_status: d.ourStatus,
  operator_status: d.operatorStatus,
  operator_reference: d.operatorReference,
  message: d.message,
  created_at: d.createdAt,
  resolved_at: d.resolvedAt,
  resolution: d.resolution,
  route: d.route,
  currency: d.currency,
  our_amount_minor: d.ourAmountMinor,
  operator_amount_minor: d.operatorAmountMinor,
  reconciliation_run_id: d.reconciliationRunId,
});

export const OperatorQuery = Type.Object(
  { failing: Type.Boolean({ default: false, description: 'true: only the operators whose health, or one of whose routes’ health, is not `available`.' }) },
  { additionalProperties: false },
);
export const OperatorList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(
      Type.Object({
        object: Type.Literal('operator_health'),
        country: Type.String(),
        operator: Type.String(),
        name: Type.String(),
        environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
        health: Type.Union([Type.Literal('available'), Type.Literal('degraded'), Type.Literal('unavailable')], {
          description: 'The best route’s; unavailable also when no connector serves the operator (live without an operators-file entry).',
        }),
        routes: Type.Array(
          Type.Object({
            route: Type.String({ description: 'The route’s label, `<operator slug>/<route name>`, e.g. `mtn_bj/mtn-momo`.' }),
            health: Type.Union([Type.Literal('available'), Type.Literal('degraded'), Type.Literal('unavailable')]),
          }),
          { description: 'The operator’s routes in order (live: the operators file; test: the sandbox), each with its own circuit breaker.' },
        ),
      }),
    ),
  },
  {
    title: 'AdminOperatorList',
    examples: [
      {
        object: 'list',
        data: [
          {
            object: 'operator_health',
            country: 'BJ',
            operator: 'mtn',
            name: 'MTN MoMo',
            environment: 'live',
            health: 'available',
            routes: [
              { route: 'mtn_bj/mtn-momo', health: 'unavailable' },
              { route: 'mtn_bj/pawapay', health: 'available' },
            ],
          },
        ],
      },
    ],
  },
);
export const operatorToWire = (o: OperatorState) => ({
  object: 'operator_health' as const,
  country: o.country,
  operator: o.slug,
  name: o.name,
  environment: o.environment,
  health: o.health,
  routes: o.routes,
});
