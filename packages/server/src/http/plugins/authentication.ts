import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import type { MerchantService } from '../../core/merchants/merchant-service.js';
import type { Principal } from '../../core/merchants/principal.js';
import type { Environment } from '../../core/shared/environment.js';
import { environmentFromHeader } from '../dashboard/dashboard-context.js';
import { looksLikeApiKey } from '../../core/merchants/api-key.js';
import { grants, type Scope } from '../../core/merchants/scopes.js';
import { unauthenticated } from './unauthenticated-reasons.js';

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

/** What a request presents as its key: one key, none, or a value that cannot be a key (and why). */
export type PresentedKey = { key: string } | { problem: 'no_key' | 'wrong_scheme' | 'two_keys' };

/** The key from `Authorization: Bearer …` or `X-API-Key`; both at once must agree. */
export function presentedApiKey(request: FastifyRequest): PresentedKey {
  const authorization = request.headers.authorization;
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const headerKey = request.headers['x-api-key'];
  const xApiKey = typeof headerKey === 'string' ? headerKey.trim() : undefined;
  if (authorization !== undefined && bearer === undefined) return { problem: 'wrong_scheme' };
  if (bearer !== undefined && xApiKey !== undefined && bearer !== xApiKey) return { problem: 'two_keys' };
  const key = bearer ?? xApiKey;
  return key === undefined || key === '' ? { problem: 'no_key' } : { key };
}

/** The 401 for a request that presents no usable key, before any lookup. */
function refusalBeforeLookup(presented: PresentedKey): AkweError | undefined {
  if ('problem' in presented) {
    if (presented.problem === 'no_key') return unauthenticated.noKey();
    return presented.problem === 'wrong_scheme' ? unauthenticated.wrongScheme() : unauthenticated.twoKeys();
  }
  return looksLikeApiKey(presented.key) ? undefined : unauthenticated.malformedKey();
}

/**
 * Authenticates every route in the scope it is installed in, then checks the route's scope,
 * before the body is even parsed: a caller without rights learns nothing from validation.
 * The environment comes from the key alone; X-Service-Environment is ignored here.
 */
export function installAuthentication(app: FastifyInstance, merchants: MerchantService, sessions?: SessionPrincipals): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const presented = presentedApiKey(request);
    const merchantHeader = request.headers[DASHBOARD_MERCHANT_HEADER];
    if (sessions && merchantHeader !== undefined && 'key' in presented && !looksLikeApiKey(presented.key)) {
      request.principal = await sessionPrincipal(request, sessions, presented.key, merchantHeader);
      if (config.scope && !grants(request.principal.scopes, config.scope)) {
        throw new AkweError('insufficient_role', `Your role (${request.principal.actor?.role}) does not allow this (${config.scope}).`);
      }
      return;
    }
    const refused = refusalBeforeLookup(presented);
    if (refused) {
      reply.header('WWW-Authenticate', 'Bearer realm="akwe"');
      throw refused;
    }
    const result = await merchants.authenticate('key' in presented ? presented.key : undefined);
    if (result.outcome === 'invalid_key') {
      // Unknown and revoked alike: one message, one path.
      reply.header('WWW-Authenticate', 'Bearer realm="akwe"');
      throw unauthenticated.invalidKey();
    }
    if (result.outcome === 'merchant_not_found') throw new AkweError('merchant_not_found');
    request.principal = result.principal;
    if (config.scope && !grants(result.principal.scopes, config.scope)) {
      throw new AkweError('insufficient_scope', `This API key lacks the ${config.scope} scope.`);
    }
  });
}

/** The header naming the merchant a dashboard session acts for on the merchant API. */
export const DASHBOARD_MERCHANT_HEADER = 'x-akwe-merchant';

export interface SessionPrincipals {
  sessionPrincipal(accessToken: string, merchantId: string, environment: Environment): Promise<Principal | undefined>;
}

/**
 * A dashboard session on the merchant API (docs/dashboard.md): the access token as the bearer, the
 * merchant in X-Akwe-Merchant and the environment in X-Service-Environment (SPEC "Authentication":
 * missing is test, anything else 400). Expired, signed out or not a member: 401 invalid_session.
 */
async function sessionPrincipal(request: FastifyRequest, sessions: SessionPrincipals, token: string, merchantHeader: string | string[]): Promise<Principal> {
  const environment = environmentFromHeader(request.headers['x-service-environment']);
  const principal = typeof merchantHeader === 'string' ? await sessions.sessionPrincipal(token, merchantHeader.trim(), environment) : undefined;
  if (!principal) throw new AkweError('invalid_session');
  return principal;
}

/** The authenticated caller; routes behind authentication can rely on it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route reached without authentication');
  return request.principal;
}
