import { Type } from 'typebox';
import { approvalKinds, approvalStatuses } from '../../core/approvals/approval.js';
import { defaultPageLimit, maxPageLimit } from '../../core/shared/pagination.js';
import { CreatePayoutBody } from '../contracts/payouts-2025-01/payout-schemas.js';
import { CreateSettlementBody } from '../settlements/settlement-schemas.js';
import { CreateTransferBody } from '../transfers/transfer-schemas.js';
import { inCentimes } from '../shared/money-descriptions.js';

// Example values (docs/dashboard.md "Approvals"): clearly fake ids.
const APPROVAL_ID = '0193c4d5-6e7f-7a8b-9c0d-1e2f3a4b5c6d';
const MERCHANT_ID = '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f';
const MAKER_ID = '0193b1c2-3d4e-7f50-8162-7a8b9c0d1e2f';
const CHECKER_ID = '0193b1c2-3d4e-7f50-8162-7a8b9c0d1e30';

const Id = Type.String({ minLength: 1, maxLength: 64 });
export const ApprovalParams = Type.Object({ merchantId: Id, approvalId: Id });

const thresholdExample = { currency: 'XOF', amount_minor: 50_000_000 };
const Threshold = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code (XOF).' }),
    amount_minor: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: inCentimes('Live money-out above this amount needs approval; 0: all of it.'),
    }),
  },
  { additionalProperties: false },
);

export const PolicyBody = Type.Object(
  { thresholds: Type.Array(Threshold, { maxItems: 32, description: 'One per currency; empty: approvals off.' }) },
  { additionalProperties: false, title: 'DashboardSetApprovalPolicyRequest', examples: [{ thresholds: [thresholdExample] }, { thresholds: [] }] },
);

export const PolicyObject = Type.Object(
  {
    object: Type.Literal('approval_policy'),
    merchant_id: Type.String(),
    thresholds: Type.Array(Type.Object({ currency: Type.String(), amount_minor: Type.Integer({ description: inCentimes('Live money-out above it needs approval.') }) })),
    applies_to: Type.Literal('live', { description: 'Test money-out never waits for an approval.' }),
  },
  { title: 'DashboardApprovalPolicy', examples: [{ object: 'approval_policy', merchant_id: MERCHANT_ID, thresholds: [thresholdExample], applies_to: 'live' }] },
);

export const SubmitPayoutBody = { ...CreatePayoutBody, title: 'DashboardSubmitPayoutRequest' };

export const SubmitTransferBody = { ...CreateTransferBody, title: 'DashboardSubmitTransferRequest' };

export const SubmitSettlementBody = { ...CreateSettlementBody, title: 'DashboardSubmitSettlementRequest' };

export const SubmitRefundBody = Type.Object(
  {
    payment: Type.String({ minLength: 1, maxLength: 255, description: 'The completed payment to refund: its reference or id, in the active environment.' }),
    amount_minor: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: inCentimes('Default: all that is left to refund now (that figure is what waits for approval).') }),
    ),
    reason: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false, title: 'DashboardSubmitRefundRequest', examples: [{ payment: 'order-2026-06-118', amount_minor: 200_000, reason: 'Item returned' }] },
);

export const SubmitBatchBody = Type.Object(
  { batch_id: Type.String({ minLength: 1, maxLength: 64, description: 'A draft batch of the active environment (created by POST /api/v1/bulk-payments/ or its CSV import).' }) },
  { additionalProperties: false, title: 'DashboardSubmitBatchRequest', examples: [{ batch_id: '0193c4d5-0000-7a8b-9c0d-1e2f3a4b5c6d' }] },
);

export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500, description: 'Why: shown to the maker and kept in the audit log.' }) },
  { additionalProperties: false, title: 'DashboardRejectApprovalRequest', examples: [{ reason: 'Wrong beneficiary' }] },
);

export const ApprovalQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(approvalStatuses)),
    limit: Type.Integer({ minimum: 1, maximum: maxPageLimit, default: defaultPageLimit, description: `Rows per page, 1 to ${maxPageLimit}.` }),
    starting_after: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The next_cursor of the previous page: the older requests.' })),
  },
  { additionalProperties: false },
);

const approvalExample = {
  object: 'approval',
  id: APPROVAL_ID,
  merchant_id: MERCHANT_ID,
  environment: 'live',
  kind: 'payout',
  status: 'executed',
  approval_required: true,
  amount_minor: 75_000_000,
  currency: 'XOF',
  request: { amount: 75_000_000, phone: '+22890112233', country: 'TG', operator: 'tmoney_tg', reference: 'supplier-2026-06-007' },
  maker_id: MAKER_ID,
  decided_by: CHECKER_ID,
  decided_at: '2026-06-02T09:00:00.000Z',
  reason: null,
  result: { id: APPROVAL_ID, status: 'PENDING' },
  error: null,
  created_at: '2026-06-02T08:15:00.000Z',
  updated_at: '2026-06-02T09:00:00.000Z',
  expires_at: '2026-06-05T08:15:00.000Z',
};

export const ApprovalObject = Type.Object(
  {
    object: Type.Literal('approval'),
    id: Type.String(),
    merchant_id: Type.String(),
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    kind: Type.Enum(approvalKinds, { description: 'payout, batch (a batch’s execution), transfer (a wallet transfer), settlement or refund.' }),
    status: Type.Enum(approvalStatuses, {
      description:
        'pending (waits for a second user until expires_at), approved (being executed), executed, rejected, failed (the execution was refused: see error), expired (nobody approved it in time; never executed).',
    }),
    approval_required: Type.Boolean({ description: 'False: in test, or at or below the threshold; executed at submission.' }),
    amount_minor: Type.Integer({
      description: inCentimes(
        'What is compared to the threshold and executed: the payout’s, transfer’s or refund’s amount, a batch’s lines’ total (fees aside), a settlement’s amount (fee included); a settlement or refund without an amount: what it would move at submission.',
      ),
    }),
    currency: Type.String(),
    request: Type.Unknown({ description: 'As submitted: the payout’s, transfer’s, settlement’s or refund’s fields, or {batch_id}.' }),
    maker_id: Type.String({ description: 'Who submitted it.' }),
    decided_by: Type.Union([Type.String(), Type.Null()], { description: 'Who approved or rejected it.' }),
    decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it was rejected.' }),
    result: Type.Union([Type.Object({ id: Type.String(), status: Type.String() }), Type.Null()], {
      description: 'Once executed: the payout, transfer, settlement or refund (its id is the request’s) or the batch, with its status then.',
    }),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()], { description: 'Why the execution was refused (status failed).' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When a request that waits for approval expires (72 hours after submission unless the server sets another period); null when it never waited.',
    }),
  },
  { title: 'DashboardApproval', examples: [approvalExample] },
);

export const ApprovalList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(ApprovalObject),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as starting_after for the older requests; null when there are none.' }),
  },
  { title: 'DashboardApprovalList', examples: [{ object: 'list', data: [approvalExample], has_more: false, next_cursor: null }] },
);
