import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';

const Account = Type.Object(
  {
    object: Type.Literal('account'),
    merchant_id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    status: Type.String({ examples: ['active', 'suspended'] }),
    kyc_status: Type.String({ examples: ['pending', 'submitted', 'validated', 'rejected'] }),
    environment: Type.String({ description: 'Decided by the API key alone.', examples: ['test', 'live'] }),
    api_key: Type.Object({
      id: Type.String(),
      scopes: Type.Array(Type.String(), { description: 'Empty means every scope.' }),
    }),
  },
  {
    title: 'Account',
    description: 'The merchant and environment the calling key acts for.',
    examples: [
      {
        object: 'account',
        merchant_id: '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
        name: 'Boutique Adjoa',
        status: 'active',
        kyc_status: 'validated',
        environment: 'test',
        api_key: { id: '0193a6b0-1b2c-7d3e-8f40-5a6b7c8d9e0f', scopes: [] },
      },
    ],
  },
);

/** "Who am I": lets an integration check its key, environment and scopes before anything else. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/account',
    {
      config: { rateLimitBucket: 'read' },
      schema: { tags: ['account'], operationId: 'getAccount', summary: 'The calling key’s merchant and environment', response: { 200: Account, ...errorResponses(401, 429) } },
    },
    async (request) => {
      const principal = principalOf(request);
      return {
        object: 'account' as const,
        merchant_id: principal.merchantId,
        name: principal.merchant.name,
        status: principal.merchant.status,
        kyc_status: principal.merchant.kycStatus,
        environment: principal.environment,
        api_key: { id: principal.keyId, scopes: principal.scopes },
      };
    },
  );
};
