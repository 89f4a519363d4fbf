import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApprovalService } from '../../core/approvals/approval-service.js';
import type { Transfer } from '../../core/transfers/transfer.js';
import type { TransferService } from '../../core/transfers/transfer-service.js';
import { principalOf } from '../plugins/authentication.js';
import { recordedRequest } from '../plugins/idempotency.js';
import { errorResponses } from '../shared/error-schemas.js';
import { transferToWire } from './transfer-mapper.js';
import { CreateTransferBody, ListTransfersQuery, TransferList, TransferObject, TransferParams } from './transfer-schemas.js';
import { listRoute, commonListFilters } from '../shared/list-route.js';

export interface TransferRoutesOptions {
  transfers: TransferService;
  /** A dashboard session's live transfer above the approval threshold goes through the approvals instead. */
  approvals: Pick<ApprovalService, 'guardApiCall'>;
}

const tags = ['transfers'];

/** Wallet transfers between merchants (docs/transfers.md): amounts in centimes, `_minor` fields. */
export const transferRoutes: FastifyPluginAsyncTypebox<TransferRoutesOptions> = async (app, { transfers, approvals }) => {
  app.post(
    '/transfers/',
    {
      config: { scope: 'transfers:write', idempotency: { required: true, recorded: true }, rateLimitBucket: 'transfer' },
      schema: {
        tags,
        operationId: 'createTransfer',
        summary: 'Send money to another Akwe merchant',
        description:
          'Moves `amount_minor` from your available balance to the receiver’s in the key’s environment, at once and in one ledger transaction; both merchants get an event (transfer.sent, transfer.received). Header Idempotency-Key is required.',
        body: CreateTransferBody,
        response: { 201: TransferObject, ...errorResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const input = request.body;
      await approvals.guardApiCall(principalOf(request), input.currency, input.amount_minor);
      const recorded = recordedRequest(request, reply, (transfer: Transfer) => ({ status: 201, body: transferToWire(transfer) }));
      const transfer = await transfers.create(
        principalOf(request),
        {
          receiver: input.receiver,
          amountMinor: input.amount_minor,
          currency: input.currency,
          reference: input.reference,
          description: input.description,
          metadata: input.metadata,
        },
        recorded,
      );
      return recorded.send(transfer);
    },
  );

  app.get(
    '/transfers/',
    ...listRoute({
      list: 'transfers',
      scope: 'transfers:read',
      tags,
      operationId: 'listTransfers',
      summary: 'List transfers sent and received, newest first',
      description: 'Cursor pagination like every list. Filters combine: direction (sent or received), reference, created_gte / created_lte, one `metadata[key]=value`.',
      querystring: ListTransfersQuery,
      response: TransferList,
      filters: (query) => ({ direction: query.direction, ...commonListFilters(query) }),
      read: (principal, filters, page) => transfers.list(principal, filters, page),
      toWire: transferToWire,
    }),
  );

  app.get(
    '/transfers/:id',
    {
      config: { scope: 'transfers:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getTransfer',
        summary: 'A transfer by id (either party) or by the sender’s reference',
        params: TransferParams,
        response: { 200: TransferObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => transferToWire(await transfers.get(principalOf(request), request.params.id)),
  );
};
