import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { csvDialects } from '../../core/exports/csv-cells.js';
import { revenueCsv, revenueFileName } from '../../core/revenue/revenue-csv.js';
import { revenueQuery } from '../../core/revenue/revenue-query.js';
import type { RevenueReports } from '../../core/revenue/revenue-report.js';
import { callerOf, originOf } from '../dashboard/dashboard-context.js';
import { errorResponses } from '../shared/error-schemas.js';
import { RevenueCsvQuerystring, RevenueQuerystring, RevenueReportObject, revenueToWire } from './revenue-schemas.js';

export interface RevenueRoutesOptions {
  revenue: RevenueReports;
}

const tags = ['admin'];
const session = [{ dashboardSession: [] }];
const config = { dashboardSession: true };

const csvDescription =
  'A `text/csv; charset=utf-8` file as the exports (docs/exports.md): comma separated, CRLF, header first; with `delimiter=semicolon`, semicolons and a UTF-8 byte order mark for a French Excel. Text cells that would start a formula get an apostrophe; amounts are integers in centimes. `Content-Disposition: attachment; filename="akwe-revenue-<environment>-<group_by>-<from>-<to>.csv"`.';

/**
 * Platform revenue in the back office (docs/operations.md "Revenue"), registered inside the admin
 * routes, whose hook lets platform administrators alone through.
 */
export const revenueRoutes: FastifyPluginAsyncTypebox<RevenueRoutesOptions> = async (app, { revenue }) => {
  app.get(
    '/revenue',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminGetRevenue',
        summary: 'Fees earned (the fees accounts of the ledger) per day, operator, route or merchant, with the providers’ costs and the margin',
        querystring: RevenueQuerystring,
        response: { 200: RevenueReportObject, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { from, to, group_by: groupBy, environment } = request.query;
      return revenueToWire(await revenue.report(revenueQuery({ from, to, groupBy, environment })));
    },
  );

  app.get(
    '/revenue.csv',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminExportRevenue',
        summary: 'The revenue report as a CSV file (the download is audited)',
        querystring: RevenueCsvQuerystring,
        response: { 200: { description: csvDescription, content: { 'text/csv': { schema: { type: 'string' } } } }, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { from, to, group_by: groupBy, environment, delimiter } = request.query;
      const query = revenueQuery({ from, to, groupBy, environment });
      const report = await revenue.report(query);
      await revenue.recordExport(callerOf(request).user.id, query, originOf(request));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${revenueFileName(report)}"`)
        .header('cache-control', 'no-store')
        .send(revenueCsv(report, csvDialects[delimiter ?? 'comma']));
    },
  );
};
