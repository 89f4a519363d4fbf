import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { DashboardService, MemberCaller } from '../../core/dashboard/dashboard-service.js';
import { AkweError } from '../../core/errors/index.js';
import type { KycService } from '../../core/kyc/kyc-service.js';
import type { MerchantService } from '../../core/merchants/merchant-service.js';
import type { IdSource } from '../../core/shared/ids.js';
import type { KycDocumentVault } from '../../storage/kyc-document-vault.js';
import { errorResponses } from '../shared/error-schemas.js';
import { callerOf, originOf } from './dashboard-context.js';
import { MerchantParams } from './dashboard-schemas.js';
import { merchantKycToWire, MerchantKycObject } from './kyc-schemas.js';
import { readKycUpload, type KycUpload } from './kyc-upload.js';

export interface KycRoutesOptions {
  dashboard: DashboardService;
  kyc: KycService;
  merchants: MerchantService;
  vault: KycDocumentVault;
  /** KYC_MAX_DOCUMENT_BYTES. */
  maxDocumentBytes: number;
  newId: IdSource;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The submitter, checked before the body is read (so a refused caller writes no file). */
    kycSubmitter: MemberCaller | undefined;
  }
}

const tags = ['dashboard'];
const session = [{ dashboardSession: [] }];
const config = { dashboardSession: true };

/**
 * The merchant's KYC in the dashboard (docs/dashboard.md "KYC"): read its status and last
 * submission; submit the company's details and documents as one multipart body.
 */
export const kycRoutes: FastifyPluginAsyncTypebox<KycRoutesOptions> = async (app, options) => {
  const { dashboard, kyc, merchants } = options;
  app.decorateRequest('kycSubmitter', undefined);
  // Only this plugin's route takes multipart; its sibling scopes keep refusing it (415).
  app.addContentTypeParser('multipart/form-data', async (request: FastifyRequest, payload: Readable): Promise<KycUpload> => {
    const submitter = request.kycSubmitter;
    if (!submitter) throw new Error('KYC upload reached without its submitter');
    return readKycUpload(request.headers, payload, { merchantId: submitter.merchantId, vault: options.vault, maxBytes: options.maxDocumentBytes, newId: options.newId });
  });

  app.get(
    '/merchants/:merchantId/kyc',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardGetKyc',
        summary: 'The merchant’s KYC status and its last submission (with the rejection reason, if any)',
        params: MerchantParams,
        response: { 200: MerchantKycObject, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'read');
      const merchant = await merchants.getMerchant(caller.merchantId);
      return merchantKycToWire(merchant, await kyc.latest(merchant.id));
    },
  );

  app.post(
    '/merchants/:merchantId/kyc',
    {
      config,
      // Role and state checked before the files are read and written.
      preParsing: async (request, _reply, payload) => {
        const { merchantId } = request.params as { merchantId: string };
        const caller = await dashboard.actingIn(callerOf(request).user, merchantId, 'kyc.submit');
        const merchant = await merchants.getMerchant(caller.merchantId);
        await kyc.checkOpen(merchant.id);
        request.kycSubmitter = { ...caller, merchantId: merchant.id };
        return payload;
      },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSubmitKyc',
        summary: 'Submit the company’s details and documents for review (kyc.submit)',
        description:
          'One `multipart/form-data` body: the details as text fields, each document as a file field named by its kind (`registration_certificate`, `representative_id`, `proof_of_address` required; `other` optional), at most 6 files. Each file must be a PDF, PNG or JPEG by its content (415 `unsupported_document_type`) and at most KYC_MAX_DOCUMENT_BYTES (413 `document_too_large`). The merchant’s KYC status becomes `submitted`. Refused while a submission is under review (409 `kyc_under_review`) or once validated (409 `kyc_already_validated`); after a rejection, submit again.',
        params: MerchantParams,
        response: { 201: MerchantKycObject, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const submitter = request.kycSubmitter;
      const upload = request.body as KycUpload | undefined;
      if (!submitter || !upload || !Array.isArray(upload.documents)) {
        throw new AkweError('unsupported_media_type', 'Send the details and documents as a multipart/form-data body.');
      }
      const submission = await kyc.submit(submitter, upload.fields, upload.documents, originOf(request));
      const merchant = await merchants.getMerchant(submitter.merchantId);
      return reply.code(201).send(merchantKycToWire(merchant, submission));
    },
  );
};
