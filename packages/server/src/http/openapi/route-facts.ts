import type { RouteOptions } from 'fastify';
import { DASHBOARD_PREFIX } from '../dashboard/session-cookies.js';
import type { IdempotencyRouteConfig } from '../plugins/idempotency.js';
import { bucketOf } from '../plugins/rate-limit.js';

/** What the document needs to know about a route, read from its options (config and schema). */
export interface RouteFacts {
  method: string;
  url: string;
  operationId: string | undefined;
  public: boolean;
  scope: string | undefined;
  rateLimitBucket: string | undefined;
  idempotency: IdempotencyRouteConfig | undefined;
  hasBody: boolean;
  hasPathParameters: boolean;
  hasInput: boolean;
  /**
   * A dashboard route (signed in with a session, never an API key): `session` when it needs one,
   * `signedOut` for the auth routes that do not. Undefined for the API-key routes.
   */
  dashboard: 'session' | 'signedOut' | undefined;
  /** A dashboard auth route counted per client address (rate_limited past the budget). */
  dashboardAuthBudget: boolean;
}

export function routeFacts(route: RouteOptions, schema: Record<string, unknown>): RouteFacts {
  const config = (route.config ?? {}) as { public?: boolean; scope?: string; idempotency?: IdempotencyRouteConfig; dashboardSession?: boolean; dashboardAuthBudget?: boolean };
  // The back office (/api/v1/admin) signs in with the same sessions.
  const dashboard =
    route.url.startsWith(`${DASHBOARD_PREFIX}/`) || route.url.startsWith('/api/v1/admin/') ? (config.dashboardSession === true ? 'session' : 'signedOut') : undefined;
  const method = [route.method].flat().join(',');
  return {
    method,
    url: route.url,
    operationId: typeof schema.operationId === 'string' ? schema.operationId : undefined,
    public: config.public === true,
    scope: config.scope,
    // The API-key budgets do not apply outside the API-key scope.
    rateLimitBucket: dashboard ? undefined : bucketOf(route),
    idempotency: config.idempotency,
    hasBody: schema.body !== undefined,
    hasPathParameters: route.url.includes(':'),
    hasInput: schema.body !== undefined || schema.querystring !== undefined || schema.params !== undefined || route.url.includes(':'),
    dashboard,
    dashboardAuthBudget: config.dashboardAuthBudget === true,
  };
}
