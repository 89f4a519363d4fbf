import type { ApprovalService } from '../../../core/approvals/approval-service.js';
import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';
import { refuseUnknownCurrency } from '../../shared/currency-refusal.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AkweError } from '../../../core/errors/index.js';
import { maxOtpAttempts } from '../../../core/payments/payment-input.js';
import type { PaymentService } from '../../../core/payments/payment-service.js';
import { principalOf } from '../../plugins/authentication.js';
import { currentErrorBody } from '../../plugins/error-handler.js';
import { recordedRequest } from '../../plugins/idempotency.js';
import type { ConfirmResult } from '../../../core/payments/payment-service.js';
import type { RefundResult, RefundService } from '../../../core/payments/refund-service.js';
import type { Payment } from '../../../core/payments/payment.js';
import { errorResponses } from '../../shared/error-schemas.js';
import { toMinorUnits } from '../../../core/shared/money.js';
import type { DestinationUrlCheck } from '../../shared/url-policy.js';
import { checkCallbackUrl } from './callback-url.js';
import { checkReturnUrl } from './return-url.js';
import { paymentToWire, refundToWire, toCreateInput } from './payment-mapper.js';
import {
  CancelBody,
  ConfirmBody,
  CreatePaymentBody,
  GetPaymentQuery,
  ListPaymentsQuery,
  ListRefundsQuery,
  ListAllRefundsQuery,
  AllRefundsList,
  PayBody,
  PaymentList,
  PaymentObject,
  PaymentParams,
  RefundBody,
  RefundList,
  RefundObject,
  RefundParams,
} from './payment-schemas.js';
import { instantFilter, phoneFilter } from '../../shared/list-filters.js';
import { readList } from '../../shared/list-cursors.js';
import { listRoute, commonListFilters } from '../../shared/list-route.js';
import { syncHint } from '../../shared/sync-hint.js';

export interface PaymentRoutesOptions {
  /** A dashboard session's live refund above the approval threshold goes through the approvals instead. */
  approvals: Pick<ApprovalService, 'guardApiCallMeasured'>;
  payments: PaymentService;
  refunds: RefundService;
  catalog: OperatorCatalog;
  publicUrl: string;
  /** Where a callback_url may point (http/shared/url-policy.ts). */
  destinationUrls: DestinationUrlCheck;
  /** Development server: test payments may give an http:// return_url. */
  dev?: boolean;
}

const tags = ['collect'];

/** Collect payments, contract 2026-06: each route maps the wire to one core operation and back. */
export const paymentRoutes: FastifyPluginAsyncTypebox<PaymentRoutesOptions> = async (app, { approvals, payments, refunds, catalog, publicUrl, destinationUrls, dev = false }) => {
  const wire = (payment: Parameters<typeof paymentToWire>[0]) => paymentToWire(payment, publicUrl);

  app.post(
    '/collect/payments',
    {
      config: { scope: 'collect:write', idempotency: { required: true, recorded: true }, rateLimitBucket: 'create', amountUnit: 'major' },
      preValidation: refuseUnknownCurrency(catalog),
      schema: {
        tags,
        operationId: 'createPayment',
        summary: 'Create a payment',
        description: 'direct: push to the customer’s phone (or OTP sent); hosted: returns checkout_url. Header Idempotency-Key is required.',
        body: CreatePaymentBody,
        response: { 201: PaymentObject, ...errorResponses(400, 401, 403, 409, 422, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await checkCallbackUrl(request.body.callback_url, principal.environment, destinationUrls);
      checkReturnUrl(request.body.return_url, principal.environment, dev);
      const recorded = recordedRequest(request, reply, (payment: Payment) => ({ status: 201, body: wire(payment) }));
      return recorded.send(await payments.create(principal, toCreateInput(request.body), recorded));
    },
  );

  app.get(
    '/collect/payments',
    ...listRoute({
      list: 'payments',
      scope: 'collect:read',
      tags,
      operationId: 'listPayments',
      summary: 'List payments, newest first',
      description:
        'Cursor pagination (limit, starting_after or ending_before, has_more). Filters combine: status, mode, operator, reference, phone (E.164), payment_link (a payment link’s id), created_gte / created_lte, and one `metadata[key]=value`.',
      querystring: ListPaymentsQuery,
      response: PaymentList,
      filters: (query) => ({
        status: query.status,
        mode: query.mode,
        operator: query.operator,
        phone: phoneFilter(query.phone),
        paymentLinkId: query.payment_link?.toLowerCase(),
        ...commonListFilters(query),
      }),
      read: (principal, filters, page) => payments.list(principal, filters, page),
      toWire: wire,
    }),
  );

  app.get(
    '/collect/payments/:reference_or_id',
    {
      config: { scope: 'collect:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getPayment',
        summary: 'Get a payment by reference or id',
        params: PaymentParams,
        querystring: GetPaymentQuery,
        response: { 200: PaymentObject, ...errorResponses(400, 401, 403, 404, 429, 502, 503) },
      },
    },
    async (request, reply) => wire(await payments.get(principalOf(request), request.params.reference_or_id, { sync: request.query.sync, ...syncHint(reply) })),
  );

  app.post(
    '/collect/payments/:reference_or_id/confirm',
    {
      config: { scope: 'collect:write', idempotency: { required: false, recorded: true }, rateLimitBucket: 'create' },
      schema: {
        tags,
        operationId: 'confirmPayment',
        summary: 'Confirm a payment with the customer’s one-time code',
        description: 'Test environment codes: 123456 completes, 000000 fails, 111111 stays pending; another code is 400 invalid_otp, and the third wrong code fails the payment.',
        params: PaymentParams,
        body: ConfirmBody,
        response: { 200: PaymentObject, ...errorResponses(400, 401, 403, 404, 409, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, ({ payment, rejected }: ConfirmResult) => {
        if (!rejected) return { status: 200, body: wire(payment) };
        const message = payment.status === 'failed' ? (payment.message ?? 'The payment failed.') : `Wrong code; ${maxOtpAttempts - payment.otpAttempts} attempt(s) left.`;
        return currentErrorBody(new AkweError('invalid_otp', message, { field: 'otp' }), request);
      });
      return recorded.send(await payments.confirm(principalOf(request), request.params.reference_or_id, request.body.otp, recorded));
    },
  );

  app.post(
    '/collect/payments/:reference_or_id/cancel',
    {
      config: { scope: 'collect:write', idempotency: { required: false, recorded: true }, rateLimitBucket: 'create' },
      schema: {
        tags,
        operationId: 'cancelPayment',
        summary: 'Cancel a payment that is not final',
        params: PaymentParams,
        body: CancelBody,
        response: { 200: PaymentObject, ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, (payment: Payment) => ({ status: 200, body: wire(payment) }));
      return recorded.send(await payments.cancel(principalOf(request), request.params.reference_or_id, recorded));
    },
  );

  app.post(
    '/collect/payments/:reference_or_id/pay',
    {
      config: { scope: 'collect:write', idempotency: { required: false, recorded: true }, rateLimitBucket: 'create' },
      schema: {
        tags,
        operationId: 'simulateCheckoutPayment',
        summary: 'Test environment: simulate the customer paying a hosted checkout',
        description: 'The sandbox rules apply to this phone (suffixes 0000-0003) and to the payment’s reference.',
        params: PaymentParams,
        body: PayBody,
        response: { 200: PaymentObject, ...errorResponses(400, 401, 403, 404, 409, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, (payment: Payment) => ({ status: 200, body: wire(payment) }));
      return recorded.send(await payments.pay(principalOf(request), request.params.reference_or_id, request.body, recorded));
    },
  );

  app.post(
    '/collect/payments/:reference_or_id/refunds',
    {
      // Refunds move money: a key is mandatory, as on creation (every POST that moves money needs one).
      config: { scope: 'collect:refund', idempotency: { required: true, recorded: true }, rateLimitBucket: 'refund', amountUnit: 'major' },
      schema: {
        tags,
        operationId: 'createPaymentRefund',
        summary: 'Refund a completed payment, fully or in part',
        description: 'Without amount, refunds everything left. Several partial refunds may follow each other up to the amount; the payment becomes refunded when they reach it.',
        params: PaymentParams,
        body: RefundBody,
        response: { 201: RefundObject, ...errorResponses(400, 401, 403, 404, 409, 422, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const input = { amountMinor: body.amount === undefined ? undefined : toMinorUnits(body.amount), reason: body.reason };
      // Without an amount, all that is left to refund now is what the threshold compares.
      await approvals.guardApiCallMeasured(principalOf(request), async () => {
        const { payment, amountMinor } = await refunds.refundable(principalOf(request), request.params.reference_or_id, input.amountMinor);
        return { currency: payment.currency, amountMinor };
      });
      const recorded = recordedRequest(request, reply, ({ refund }: RefundResult) => ({ status: 201, body: refundToWire(refund) }));
      return recorded.send(await refunds.refund(principalOf(request), request.params.reference_or_id, input, recorded));
    },
  );

  app.get(
    '/collect/payments/:reference_or_id/refunds',
    {
      config: { scope: 'collect:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'listPaymentRefunds',
        summary: 'List a payment’s refunds, newest first',
        params: PaymentParams,
        querystring: ListRefundsQuery,
        response: { 200: RefundList, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const list = readList(request, 'refunds', {}, request.params.reference_or_id);
      return list.envelope(await refunds.listRefunds(principalOf(request), request.params.reference_or_id, list.page), refundToWire);
    },
  );

  app.get(
    '/collect/refunds',
    {
      config: { scope: 'collect:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'listRefunds',
        summary: 'List refunds of every payment, newest first',
        description: 'Cursor pagination (limit, starting_after or ending_before, has_more). Filters combine: status, created_gte / created_lte.',
        querystring: ListAllRefundsQuery,
        response: { 200: AllRefundsList, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const query = request.query;
      const filters = { status: query.status, createdGte: instantFilter(query.created_gte, 'created_gte'), createdLte: instantFilter(query.created_lte, 'created_lte') };
      const list = readList(request, 'all-refunds', filters);
      return list.envelope(await refunds.listAllRefunds(principalOf(request), filters, list.page), refundToWire);
    },
  );

  app.get(
    '/collect/payments/:reference_or_id/refunds/:refund_id',
    {
      config: { scope: 'collect:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getPaymentRefund',
        summary: 'One refund of a payment',
        params: RefundParams,
        response: { 200: RefundObject, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => refundToWire(await refunds.getRefund(principalOf(request), request.params.reference_or_id, request.params.refund_id)),
  );
};
