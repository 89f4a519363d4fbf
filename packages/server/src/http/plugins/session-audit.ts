/**
 * The audit of what a signed-in dashboard user does on the merchant API (docs/dashboard.md "The
 * API from the dashboard"): one hook for the whole API scope, not one per route. A call is
 * audited when a session made it (`principal.actor`; API keys are not audited this way), it was
 * answered with success, and its route either changes something (it needs a scope other than a
 * `:read` one: refunds, payouts, bulk, settlements, transfers, webhook endpoints…) or is an
 * export (`/exports/…`, a file of the merchant's data leaving the platform).
 *
 * The row is written once the answer is sent, so the caller never waits for it; a failed write is
 * logged, never turned into an error for a call that has already succeeded.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestOrigin } from '../../core/dashboard/dashboard-user.js';
import { originOf } from '../dashboard/dashboard-context.js';

export interface SessionCallAudit {
  recordApiCall(call: { userId: string; merchantId: string; action: `api.${string}`; target: string }, origin: RequestOrigin): Promise<void>;
}

/** `createRefund` -> `create_refund`. */
const snakeCase = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** Whether a call to this route is audited (its scope, or its path for exports). */
export function isAuditedRoute(request: FastifyRequest, exportsPrefix: string): boolean {
  const scope = request.routeOptions.config.scope;
  const route = request.routeOptions.url ?? '';
  return (scope !== undefined && !scope.endsWith(':read')) || route.startsWith(exportsPrefix);
}

/**
 * The action: `api.` and the route's OpenAPI operation id in snake_case (`api.create_refund`,
 * `api.export_payments`), so each name is documented in the API reference; a route without one
 * falls back to its method and pattern.
 */
export function auditActionOf(request: FastifyRequest): `api.${string}` {
  const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
  return operationId ? `api.${snakeCase(operationId)}` : `api.${request.method.toLowerCase()} ${request.routeOptions.url ?? request.url}`;
}

export function installSessionAudit(api: FastifyInstance, audit: SessionCallAudit, options: { exportsPrefix: string }): void {
  api.addHook('onResponse', async (request, reply) => {
    const principal = request.principal;
    if (!principal?.actor || reply.statusCode >= 400 || !isAuditedRoute(request, options.exportsPrefix)) return;
    const call = {
      userId: principal.actor.userId,
      merchantId: principal.merchantId,
      action: auditActionOf(request),
      // The path with its query (an export's period), the answer's status and the environment.
      target: `${request.method} ${request.url} -> ${reply.statusCode} (${principal.environment})`,
    };
    try {
      await audit.recordApiCall(call, originOf(request));
    } catch (error) {
      request.log.error({ err: error, action: call.action }, 'could not write the audit row of a dashboard session call');
    }
  });
}
