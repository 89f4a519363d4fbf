import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { OVERVIEW_MAX_DAYS, type DashboardOverview } from '../../core/dashboard/dashboard-overview.js';
import type { DashboardService } from '../../core/dashboard/dashboard-service.js';
import { errorResponses } from '../shared/error-schemas.js';
import { inCentimes } from '../shared/money-descriptions.js';
import { callerOf } from './dashboard-context.js';
import { MerchantParams } from './dashboard-schemas.js';

const OverviewQuery = Type.Object(
  { days: Type.Integer({ minimum: 1, maximum: OVERVIEW_MAX_DAYS, default: 30, description: 'How many days, today included (UTC).' }) },
  { additionalProperties: false },
);

const OverviewObject = Type.Object(
  {
    object: Type.Literal('dashboard_overview'),
    environment: Type.String(),
    since: Type.String({ description: 'Start of the first day (UTC).' }),
    days: Type.Array(
      Type.Object({
        day: Type.String({ description: 'YYYY-MM-DD (UTC).' }),
        currency: Type.String(),
        count: Type.Integer({ description: 'Completed payments created that day (refunded ones included).' }),
        amount_minor: Type.Integer({ description: inCentimes('Their amount.') }),
      }),
      { description: 'Oldest first; every day of the window for each currency seen, zeros included.' },
    ),
  },
  {
    title: 'DashboardOverview',
    examples: [
      {
        object: 'dashboard_overview',
        environment: 'test',
        since: '2026-06-01T00:00:00.000Z',
        days: [{ day: '2026-06-01', currency: 'XOF', count: 12, amount_minor: 4500000 }],
      },
    ],
  },
);

/** The home page's figures (docs/dashboard.md "Pages"): collection volume per day in the active environment. */
export const overviewRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardService; overview: DashboardOverview }> = async (app, { dashboard, overview }) => {
  app.get(
    '/merchants/:merchantId/overview',
    {
      config: { dashboardSession: true },
      schema: {
        tags: ['dashboard'],
        operationId: 'dashboardOverview',
        summary: 'Completed collection volume per day and currency',
        security: [{ dashboardSession: [] }],
        params: MerchantParams,
        querystring: OverviewQuery,
        response: { 200: OverviewObject, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'read');
      const found = await overview.volumes(caller.merchantId, request.dashboardEnvironment, request.query.days);
      return {
        object: 'dashboard_overview' as const,
        environment: request.dashboardEnvironment,
        since: found.since,
        days: found.days.map((row) => ({ day: row.day, currency: row.currency, count: row.count, amount_minor: row.amountMinor })),
      };
    },
  );
};
