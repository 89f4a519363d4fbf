import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SettlementScheduleService } from '../../core/settlements/settlement-schedule-service.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';
import { settlementScheduleToWire } from './settlement-schedule-mapper.js';
import { PutSettlementScheduleBody, SettlementScheduleList, SettlementScheduleObject, SettlementScheduleParams } from './settlement-schedule-schemas.js';

export interface SettlementScheduleRoutesOptions {
  schedules: SettlementScheduleService;
}

const tags = ['settlements'];

/** Settlement schedules (docs/settlements.md "Schedule"): one per currency of the balance, in the key's environment. */
export const settlementScheduleRoutes: FastifyPluginAsyncTypebox<SettlementScheduleRoutesOptions> = async (app, { schedules }) => {
  app.get(
    '/settlement-schedules/',
    {
      config: { scope: 'settlements:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'listSettlementSchedules',
        summary: 'Your settlement schedules, one per currency',
        description: 'A schedule per currency of your balance in the key’s environment, by currency; a currency whose schedule was never set shows as `off` with the defaults.',
        response: { 200: SettlementScheduleList, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const list = await schedules.list(principalOf(request));
      return { object: 'list' as const, data: list.map(settlementScheduleToWire), has_more: false, next_cursor: null, previous_cursor: null };
    },
  );

  app.get(
    '/settlement-schedules/:currency',
    {
      config: { scope: 'settlements:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getSettlementSchedule',
        summary: 'The settlement schedule of one currency',
        description: 'A currency of your balance whose schedule was never set reads as `off` with the defaults.',
        params: SettlementScheduleParams,
        response: { 200: SettlementScheduleObject, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => settlementScheduleToWire(await schedules.get(principalOf(request), request.params.currency)),
  );

  app.put(
    '/settlement-schedules/:currency',
    {
      config: { scope: 'settlements:write', rateLimitBucket: 'settlement' },
      schema: {
        tags,
        operationId: 'putSettlementSchedule',
        summary: 'Set when a currency’s balance is settled by itself',
        description:
          'Replaces the whole schedule (a field left out takes its default) and computes `next_run_at`, the next 00:00 UTC of the interval. Each run settles `available - reserve_minor` to the settlement account when that reaches `minimum_minor`, with reference `auto-<currency>-<date>` and origin `schedule`. The account must exist in the key’s environment, hold the currency and not be removed; a cooling account is accepted (a run before it is usable records `account_cooling`).',
        params: SettlementScheduleParams,
        body: PutSettlementScheduleBody,
        response: { 200: SettlementScheduleObject, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => {
      const body = request.body;
      const schedule = await schedules.put(principalOf(request), request.params.currency, {
        interval: body.interval,
        anchor: body.anchor,
        accountId: body.settlement_account,
        minimumMinor: body.minimum_minor,
        reserveMinor: body.reserve_minor,
      });
      return settlementScheduleToWire(schedule);
    },
  );
};
