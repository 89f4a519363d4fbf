import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import { AkweError } from '../../core/errors/index.js';
import { predictOperator } from '../../core/phones/operator-prediction.js';
import { errorResponses } from '../shared/error-schemas.js';

const PredictBody = Type.Object(
  {
    phone: Type.String({ minLength: 1, maxLength: 32, description: 'National form with `country`, or international (+229…, +228…, +225…).', examples: ['+2290197000000'] }),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: 'BJ, TG or CI; required for a national number, else taken from the number.', examples: ['BJ'] })),
  },
  { additionalProperties: false, title: 'OperatorPredictionRequest' },
);

const OperatorPrediction = Type.Object(
  {
    object: Type.Literal('operator_prediction'),
    phone: Type.String({ description: 'The number in E.164.' }),
    country: Type.String(),
    operator: Type.Union([Type.String(), Type.Null()], { description: 'Catalog slug of the operator the number was issued to; null when the plan does not say.' }),
    confidence: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('none')], {
      description: 'high: issued to that operator and numbers cannot change operator in the country; medium: issued to it, but it may have been ported since; none: unknown.',
    }),
    may_be_ported: Type.Boolean({ description: 'The country has mobile number portability: a customer may have kept the number at another operator.' }),
    operators_possible: Type.Array(Type.String(), { description: 'Every operator the number could be with, the predicted one first (Wave takes any Côte d’Ivoire number).' }),
    source: Type.Union([Type.String(), Type.Null()], { description: 'The numbering plan used: the regulator’s plan and when it was last checked.' }),
  },
  {
    title: 'OperatorPrediction',
    description: 'Which operator a number most likely belongs to, from the regulators’ numbering plans.',
    examples: [
      {
        object: 'operator_prediction',
        phone: '+2290197000000',
        country: 'BJ',
        operator: 'mtn_bj',
        confidence: 'high',
        may_be_ported: false,
        operators_possible: ['mtn_bj'],
        source: 'ARCEP Bénin 10-digit numbering plan (checked 2026-05)',
      },
    ],
  },
);

export interface OperatorPredictionRoutesOptions {
  catalog: OperatorCatalog;
}

/** POST /operators/predict: the operator of a phone number, before asking the customer. */
export const operatorPredictionRoutes: FastifyPluginAsyncTypebox<OperatorPredictionRoutesOptions> = async (app, { catalog }) => {
  app.post(
    '/operators/predict',
    {
      // Reads nothing of the merchant's and writes nothing: any key may ask, counted as a read.
      config: { rateLimitBucket: 'read' },
      schema: {
        tags: ['operators'],
        operationId: 'predictOperator',
        summary: 'Predict the operator of a phone number',
        description:
          'From the regulators’ numbering plans (ARCEP Bénin, ARCEP Togo, ARTCI): the operator the number was issued to, how sure that is (Côte d’Ivoire has number portability), and every operator it could be with. An explicit operator on a payment or payout always wins.',
        body: PredictBody,
        response: { 200: OperatorPrediction, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const result = predictOperator(catalog, request.body.phone, request.body.country);
      if (!result.ok) throw AkweError.ofField(result.code, result.field, result.message);
      const { prediction } = result;
      return {
        object: 'operator_prediction' as const,
        phone: prediction.phone,
        country: prediction.country,
        operator: prediction.operator,
        confidence: prediction.confidence,
        may_be_ported: prediction.mayBePorted,
        operators_possible: prediction.operatorsPossible,
        source: prediction.source,
      };
    },
  );
};
