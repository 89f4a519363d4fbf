import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AkweError } from '../../../core/errors/index.js';
import type { PaymentService } from '../../../core/payments/payment-service.js';
import { principalOf } from '../../plugins/authentication.js';
import { recordedRequest } from '../../plugins/idempotency.js';
import type { ConfirmResult } from '../../../core/payments/payment-service.js';
import type { Payment } from '../../../core/payments/payment.js';
import { legacyErrorBody } from './legacy-errors.js';
import { legacyPaymentToWire } from './payment-mapper.js';
import { LegacyConfirmBody, LegacyCreatePaymentBody, LegacyError, LegacyPayment, LegacyReferenceParams, LegacySyncQuery, LegacyValidationError } from './schemas.js';
import { syncHint } from '../../shared/sync-hint.js';

export interface LegacyPaymentRoutesOptions {
  payments: PaymentService;
  clock: { now(): Date };
}

const tags = ['collect (earlier contract)'];
const errors = {
  400: Type.Union([LegacyError, LegacyValidationError]),
  401: LegacyError,
  403: LegacyError,
  404: LegacyError,
  429: LegacyError,
  500: LegacyError,
  502: LegacyError,
  503: LegacyError,
};
// Creation looks no payment up, so it never answers 404.
const { 404: _noLookup, ...creationErrors } = errors;

/**
 * Collect, earlier contract: direct payments only, amounts in centimes, `phone` at the root,
 * uppercase statuses, optional Idempotency-Key (128 characters; a replay answers 200).
 * The same core operations as the current contract; only the wire differs.
 */
export const legacyPaymentRoutes: FastifyPluginAsyncTypebox<LegacyPaymentRoutesOptions> = async (app, { payments, clock }) => {
  const wire = (payment: Parameters<typeof legacyPaymentToWire>[0]) => legacyPaymentToWire(payment, clock.now());

  app.post(
    '/collect/mobile-money/',
    {
      config: { scope: 'collect:write', idempotency: { required: false, maxKeyLength: 128, replayStatus: 200, recorded: true }, rateLimitBucket: 'create' },
      schema: {
        tags,
        operationId: 'legacyCreatePayment',
        summary: 'Create a payment (earlier contract)',
        deprecated: true,
        body: LegacyCreatePaymentBody,
        response: { 201: LegacyPayment, 200: LegacyPayment, ...creationErrors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const recorded = recordedRequest(request, reply, (payment: Payment) => ({ status: 201, body: wire(payment) }));
      const payment = await payments.create(
        principalOf(request),
        {
          reference: body.reference,
          amountMinor: body.amount,
          currency: body.currency ?? 'XOF',
          country: body.country,
          mode: 'direct',
          phone: body.phone,
          operator: body.operator,
          description: body.description,
          customerFirstName: body.customer_first_name,
          customerLastName: body.customer_last_name,
        },
        recorded,
      );
      return recorded.send(payment);
    },
  );

  app.post(
    '/collect/mobile-money/confirm/',
    {
      config: { scope: 'collect:write', idempotency: { required: false, maxKeyLength: 128, recorded: true }, rateLimitBucket: 'create' },
      schema: {
        tags,
        operationId: 'legacyConfirmPayment',
        summary: 'Confirm a payment with the customer’s OTP (earlier contract)',
        deprecated: true,
        body: LegacyConfirmBody,
        response: { 200: LegacyPayment, ...errors },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, ({ payment, rejected }: ConfirmResult) => {
        if (!rejected) return { status: 200, body: wire(payment) };
        return legacyErrorBody(new AkweError('invalid_otp', payment.status === 'failed' ? (payment.message ?? 'The payment failed.') : 'Invalid OTP.'), request);
      });
      return recorded.send(await payments.confirm(principalOf(request), request.body.reference, request.body.otp, recorded));
    },
  );

  app.get(
    '/collect/mobile-money/:reference/',
    {
      config: { scope: 'collect:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'legacyGetPayment',
        summary: 'Get a payment by reference (earlier contract)',
        deprecated: true,
        params: LegacyReferenceParams,
        querystring: LegacySyncQuery,
        response: { 200: LegacyPayment, ...errors },
      },
    },
    async (request, reply) => wire(await payments.get(principalOf(request), request.params.reference, { sync: request.query.sync, ...syncHint(reply) })),
  );
};
