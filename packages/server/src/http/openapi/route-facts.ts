import type { RouteOptions } from 'fastify';
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
}

export function routeFacts(route: RouteOptions, schema: Record<string, unknown>): RouteFacts {
  const config = (route.config ?? {}) as { public?: boolean; scope?: string; idempotency?: IdempotencyRouteConfig };
  const method = [route.method].flat().join(',');
  return {
    method,
    url: route.url,
    operationId: typeof schema.operationId === 'string' ? schema.operationId : undefined,
    public: config.public === true,
    scope: config.scope,
    rateLimitBucket: bucketOf(route),
    idempotency: config.idempotency,
    hasBody: schema.body !== undefined,
    hasPathParameters: route.url.includes(':'),
    hasInput: schema.body !== undefined || schema.querystring !== undefined || schema.params !== undefined || route.url.includes(':'),
  };
}
