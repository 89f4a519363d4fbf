import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { AkweError } from '../../core/errors/index.js';
import type { ReconciliationService } from '../../core/reconciliation/reconciliation-service.js';
import { runReportCsv, runReportFileName } from '../../core/reconciliation/run-report-csv.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { callerOf } from '../dashboard/dashboard-context.js';
import { errorResponses } from '../shared/error-schemas.js';
import { lineToWire, ReportQuery, RunImportAnswer, RunList, RunParams, RunQuery, runToWire, RunWithLines } from './reconciliation-schemas.js';
import { readReportUpload, type ReportUpload } from './report-upload.js';

const tags = ['admin'];
const session = [{ dashboardSession: [] }];
const config = { dashboardSession: true };

function runIdOf(runId: string): string {
  if (!looksLikeId(runId)) throw new AkweError('not_found', `No reconciliation run ${runId}.`);
  return runId.toLowerCase();
}

/**
 * The back office's reconciliation (docs/operations.md "Reconciliation"), registered inside the
 * admin routes (their session and administrator checks): upload a provider's report, list the
 * runs, read one with its lines, download its report.
 */
export const reconciliationRoutes: FastifyPluginAsyncTypebox<{ reconciliation: ReconciliationService }> = async (app, { reconciliation }) => {
  app.addContentTypeParser('multipart/form-data', async (request: FastifyRequest, payload: Readable) => readReportUpload(request, payload));

  app.post(
    '/reconciliation-runs',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminImportReconciliationReport',
        summary: 'Import a provider’s report (multipart: `file`, `provider`, optional `route` and `date`) and reconcile it',
        description:
          'Matches each line to our payments, payouts and refunds by our id or the provider’s reference and amount; each mismatch becomes a discrepancy. 201 with the new run; 200 with the first run when the same file was imported for the route before (nothing recorded again). A report that cannot be read is 400 `invalid_report` with every line at fault, and nothing is recorded.',
        response: { 200: RunImportAnswer, 201: RunImportAnswer, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request, reply) => {
      const upload = request.body as ReportUpload | undefined;
      if (!upload || typeof upload !== 'object' || !('text' in upload)) {
        throw new AkweError('unsupported_media_type', 'Send the report as multipart/form-data with a file field.');
      }
      const { provider, route, date } = upload.fields;
      if (!provider) throw AkweError.ofField('validation_error', 'provider', `provider is required: one of ${reconciliation.providers().join(', ')}.`);
      const { run, created } = await reconciliation.importReport({
        provider,
        text: upload.text,
        fileName: upload.fileName,
        source: 'upload',
        createdBy: callerOf(request).user.id,
        ...(route ? { route } : {}),
        ...(date ? { day: date } : {}),
      });
      return reply.status(created ? 201 : 200).send({ run: runToWire(run), already_imported: !created });
    },
  );

  app.get(
    '/reconciliation-runs',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminListReconciliationRuns',
        summary: 'Reconciliation runs with their summaries, newest first',
        querystring: RunQuery,
        response: { 200: RunList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { route, limit, starting_after: startingAfter } = request.query;
      if (startingAfter !== undefined && !looksLikeId(startingAfter)) {
        throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this list.');
      }
      const page = await reconciliation.listRuns({ limit, ...(route ? { route } : {}), ...(startingAfter ? { startingAfter: startingAfter.toLowerCase() } : {}) });
      const last = page.data.at(-1);
      return { object: 'list' as const, data: page.data.map(runToWire), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null };
    },
  );

  app.get(
    '/reconciliation-runs/:runId',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminGetReconciliationRun',
        summary: 'One reconciliation run with its lines, ours and the provider’s side by side',
        params: RunParams,
        response: { 200: RunWithLines, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { run, lines } = await reconciliation.getRun(runIdOf(request.params.runId));
      return { run: runToWire(run), lines: lines.map(lineToWire) };
    },
  );

  app.get(
    '/reconciliation-runs/:runId/report.csv',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminDownloadReconciliationReport',
        summary: 'A run’s report as CSV: its summary, then its lines (docs/exports.md cells; `delimiter=semicolon` for French Excel)',
        params: RunParams,
        querystring: ReportQuery,
        response: {
          200: { description: 'The report.', content: { 'text/csv': { schema: { type: 'string' } } } },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { run, lines } = await reconciliation.getRun(runIdOf(request.params.runId));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${runReportFileName(run)}"`)
        .header('cache-control', 'no-store')
        .send(runReportCsv(run, lines, request.query.delimiter));
    },
  );
};
