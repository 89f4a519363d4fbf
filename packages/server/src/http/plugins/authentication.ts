import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import type { MerchantService } from '../../core/merchants/merchant-service.js';
import type { Principal } from '../../core/merchants/principal.js';
import { grants, type Scope } from '../../core/merchants/scopes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope the route needs; absent means any valid key may call it. */
    scope?: Scope;
    /** No API key needed (health, the OpenAPI document). */
    public?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
  }
}

/** The key from `Authorization: Bearer …` or `X-API-Key`; both at once must agree. */
export function presentedApiKey(request: FastifyRequest): string | undefined | null {
  const authorization = request.headers.authorization;
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const headerKey = request.headers['x-api-key'];
  const xApiKey = typeof headerKey === 'string' ? headerKey.trim() : undefined;
  if (authorization !== undefined && bearer === undefined) return null;
  if (bearer !== undefined && xApiKey !== undefined && bearer !== xApiKey) return null;
  return bearer ?? xApiKey;
}

/**
 * Authenticates every route in the scope it is installed in, then checks the route's scope,
 * before the body is even parsed: a caller without rights learns nothing from validation.
 * The environment comes from the key alone; X-Service-Environment is ignored here.
 */
export function installAuthentication(app: FastifyInstance, merchants: MerchantService): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const presented = presentedApiKey(request);
    const result = await merchants.authenticate(presented ?? undefined);
    if (result.outcome === 'invalid_key') {
      reply.header('WWW-Authenticate', 'Bearer realm="akwe"');
      throw new AkweError('unauthenticated');
    }
    if (result.outcome === 'merchant_not_found') throw new AkweError('merchant_not_found');
    request.principal = result.principal;
    if (config.scope && !grants(result.principal.scopes, config.scope)) {
      throw new AkweError('insufficient_scope', `This API key lacks the ${config.scope} scope.`);
    }
  });
}

/** The authenticated caller; routes behind authentication can rely on it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route reached without authentication');
  return request.principal;
}
