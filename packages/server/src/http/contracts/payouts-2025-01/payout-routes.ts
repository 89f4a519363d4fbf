import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';
import { AkweError } from '../../../core/errors/index.js';
import type { Payout } from '../../../core/payouts/payout.js';
import type { PayoutService } from '../../../core/payouts/payout-service.js';
import type { ApprovalService } from '../../../core/approvals/approval-service.js';
import { principalOf } from '../../plugins/authentication.js';
import { recordedRequest } from '../../plugins/idempotency.js';
import { errorResponses } from '../../shared/error-schemas.js';
import { phoneFilter } from '../../shared/list-filters.js';
import { PayoutOperatorCatalog, payoutCatalogBody } from './payout-catalog.js';
import type { OperatorConnectors } from '../../../core/operators/operator-connector.js';
import { payoutToWire } from './payout-mapper.js';
import { CreatePayoutBody, GetPayoutQuery, ListPayoutsQuery, PayoutList, PayoutObject, PayoutParams } from './payout-schemas.js';
import { listRoute, commonListFilters } from '../../shared/list-route.js';
import { syncHint } from '../../shared/sync-hint.js';

export interface PayoutRoutesOptions {
  catalog: OperatorCatalog;
  payouts: PayoutService;
  operators: OperatorConnectors;
  /** A dashboard session's live payout above the approval threshold goes through the approvals instead. */
  approvals: Pick<ApprovalService, 'guardApiCall'>;
}

const tags = ['payouts'];

/**
 * A fault of ours in creating a payout is 500 `payout_failed` (the payout contract's code): the payout was
 * written whole or not at all, so the merchant retries with the same Idempotency-Key.
 */
async function payoutFault<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AkweError || (error as { statusCode?: number }).statusCode !== undefined) throw error;
    // Logged by the error handler with the cause, which the answer never shows.
    throw Object.assign(new AkweError('payout_failed'), { cause: error });
  }
}

/** Payouts, contract 2025-01: paths end with a slash as the payout contract writes them; amounts in centimes. */
export const payoutRoutes: FastifyPluginAsyncTypebox<PayoutRoutesOptions> = async (app, { catalog, payouts, operators, approvals }) => {
  app.get(
    '/payout/operators/',
    {
      config: { scope: 'payout:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getPayoutOperatorCatalog',
        summary: 'Payout operator catalog',
        response: { 200: PayoutOperatorCatalog, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => payoutCatalogBody(catalog, operators, principalOf(request).environment),
  );

  app.post(
    '/payout/mobile-money/',
    {
      config: { scope: 'payout:write', idempotency: { required: true, recorded: true }, rateLimitBucket: 'payout' },
      schema: {
        tags,
        operationId: 'createPayout',
        summary: 'Send money to a wallet',
        description: 'Answers 201 PENDING at once with the amount and fee reserved; the result follows by webhook (payout.*) or GET. Header Idempotency-Key is required.',
        body: CreatePayoutBody,
        response: { 201: PayoutObject, ...errorResponses(400, 401, 403, 409, 422, 429, 500, 503) },
      },
    },
    async (request, reply) =>
      payoutFault(async () => {
        const input = request.body;
        // An unknown country is the payout checks' to refuse; its currency is the country's.
        const currency = catalog.country(input.country)?.defaultCurrency;
        if (currency !== undefined) await approvals.guardApiCall(principalOf(request), currency, input.amount);
        const recorded = recordedRequest(request, reply, (payout: Payout) => ({ status: 201, body: payoutToWire(payout) }));
        const payout = await payouts.create(
          principalOf(request),
          {
            reference: input.reference,
            amountMinor: input.amount,
            currency: input.currency,
            phone: input.phone,
            country: input.country,
            operator: input.operator,
            recipientFirstName: input.recipient_first_name,
            recipientLastName: input.recipient_last_name,
            description: input.description,
            metadata: input.metadata,
          },
          recorded,
        );
        return recorded.send(payout);
      }),
  );

  app.get(
    '/payout/mobile-money/',
    ...listRoute({
      list: 'payouts',
      scope: 'payout:read',
      tags,
      operationId: 'listPayouts',
      summary: 'List payouts, newest first',
      description: 'Cursor pagination like every list. Filters combine: status, operator, reference, phone (E.164), created_gte / created_lte, one `metadata[key]=value`.',
      querystring: ListPayoutsQuery,
      response: PayoutList,
      filters: (query) => ({ status: query.status, operator: query.operator, phone: phoneFilter(query.phone), ...commonListFilters(query) }),
      read: (principal, filters, page) => payouts.list(principal, filters, page),
      toWire: payoutToWire,
    }),
  );

  app.get(
    '/payout/mobile-money/:reference/',
    {
      config: { scope: 'payout:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getPayout',
        summary: 'A payout by reference (or id)',
        params: PayoutParams,
        querystring: GetPayoutQuery,
        response: { 200: PayoutObject, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    // A read is no payout fault: it never answers payout_failed (which would invite a second payout).
    async (request, reply) => payoutToWire(await payouts.get(principalOf(request), request.params.reference, { sync: request.query.sync, ...syncHint(reply) })),
  );
};
