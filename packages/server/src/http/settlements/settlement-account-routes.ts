import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Clock } from '../../core/ports.js';
import type { SettlementAccount } from '../../core/settlements/settlement-account.js';
import type { SettlementAccountService } from '../../core/settlements/settlement-account-service.js';
import { principalOf } from '../plugins/authentication.js';
import { recordedRequest } from '../plugins/idempotency.js';
import { errorResponses } from '../shared/error-schemas.js';
import { settlementAccountToWire } from './settlement-account-mapper.js';
import { listRoute } from '../shared/list-route.js';
import {
  CreateSettlementAccountBody,
  ListSettlementAccountsQuery,
  SettlementAccountList,
  SettlementAccountObject,
  SettlementAccountParams,
  UpdateSettlementAccountBody,
} from './settlement-account-schemas.js';

export interface SettlementAccountRoutesOptions {
  settlementAccounts: SettlementAccountService;
  /** The services' clock: an account's `status` (cooling or usable) is as of the answer. */
  clock: Clock;
}

const tags = ['settlements'];

/** Where the merchant's settlements go (docs/settlements.md "Settlement accounts"): wallets and bank accounts, each usable after its cooling period. */
export const settlementAccountRoutes: FastifyPluginAsyncTypebox<SettlementAccountRoutesOptions> = async (app, { settlementAccounts, clock }) => {
  const toWire = (account: SettlementAccount) => settlementAccountToWire(account, clock.now());

  app.post(
    '/settlement-accounts/',
    {
      config: { scope: 'settlements:write', idempotency: { required: false, recorded: true }, rateLimitBucket: 'settlement' },
      schema: {
        tags,
        operationId: 'createSettlementAccount',
        summary: 'Register a wallet or bank account to settle to',
        description:
          'The account is usable from `usable_from`: after the cooling period of the key’s environment (24 h in live by default), so a stolen key cannot redirect funds at once. Emits settlement_account.created. An Idempotency-Key header is honoured when sent.',
        body: CreateSettlementAccountBody,
        response: { 201: SettlementAccountObject, ...errorResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, (account: SettlementAccount) => ({ status: 201, body: toWire(account) }));
      const body = request.body;
      const account = await settlementAccounts.create(
        principalOf(request),
        {
          kind: body.kind,
          country: body.country,
          holderName: body.holder_name,
          operator: body.operator,
          phone: body.phone,
          iban: body.iban,
          rib: body.rib,
          bankName: body.bank_name,
          description: body.description,
          metadata: body.metadata,
        },
        recorded,
      );
      return recorded.send(account);
    },
  );

  app.get(
    '/settlement-accounts/',
    ...listRoute({
      list: 'settlement_accounts',
      scope: 'settlements:read',
      tags,
      operationId: 'listSettlementAccounts',
      summary: 'List settlement accounts, newest first',
      description: 'Cursor pagination like every list. Filter by `kind`; removed accounts are left out unless `include_removed=true`.',
      querystring: ListSettlementAccountsQuery,
      response: SettlementAccountList,
      filters: (query) => ({ kind: query.kind, includeRemoved: query.include_removed === true }),
      read: (principal, filters, page) => settlementAccounts.list(principal, filters, page),
      toWire: toWire,
    }),
  );

  app.get(
    '/settlement-accounts/:id',
    {
      config: { scope: 'settlements:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getSettlementAccount',
        summary: 'A settlement account (removed ones too)',
        params: SettlementAccountParams,
        response: { 200: SettlementAccountObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => toWire(await settlementAccounts.get(principalOf(request), request.params.id)),
  );

  app.patch(
    '/settlement-accounts/:id',
    {
      config: { scope: 'settlements:write', rateLimitBucket: 'settlement' },
      schema: {
        tags,
        operationId: 'updateSettlementAccount',
        summary: 'Change a settlement account',
        description:
          'Only the fields sent change. Changing where the money goes (holder_name, country, operator, phone, iban or rib, bank_name) restarts the cooling period; description and metadata do not. Any change emits settlement_account.updated. The kind never changes; a removed account cannot be changed.',
        params: SettlementAccountParams,
        body: UpdateSettlementAccountBody,
        response: { 200: SettlementAccountObject, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const body = request.body;
      const account = await settlementAccounts.update(principalOf(request), request.params.id, {
        kind: body.kind,
        country: body.country,
        holderName: body.holder_name,
        operator: body.operator,
        phone: body.phone,
        iban: body.iban,
        rib: body.rib,
        bankName: body.bank_name,
        description: body.description,
        metadata: body.metadata,
      });
      return toWire(account);
    },
  );

  app.delete(
    '/settlement-accounts/:id',
    {
      config: { scope: 'settlements:write', rateLimitBucket: 'settlement' },
      schema: {
        tags,
        operationId: 'removeSettlementAccount',
        summary: 'Remove a settlement account',
        description:
          'The account receives no settlement from then on; it stays readable, with `status: removed`. Emits settlement_account.removed. Removing it again answers it as it is.',
        params: SettlementAccountParams,
        response: { 200: SettlementAccountObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => toWire(await settlementAccounts.remove(principalOf(request), request.params.id)),
  );
};
