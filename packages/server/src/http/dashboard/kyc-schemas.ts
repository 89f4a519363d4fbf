import { Type } from 'typebox';
import { documentTypes } from '../../core/kyc/document-type.js';
import { documentKinds, kycCountries, submissionStatuses, type KycSubmission } from '../../core/kyc/kyc-submission.js';
import { kycStatuses, type Merchant } from '../../core/merchants/merchant.js';

// Example values (docs/dashboard.md "KYC"): fake ids, a made-up company.
const MERCHANT_ID = '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f';
const SUBMISSION_ID = '0193c4a1-2b3c-7d4e-8f50-6a7b8c9d0e1f';
const DOCUMENT_ID = '0193c4a1-2b3c-7d4e-8f50-6a7b8c9d0e2a';
const USER_ID = '0193b1c2-3d4e-7f50-8162-7a8b9c0d1e2f';

export const submissionExample = {
  object: 'kyc_submission',
  id: SUBMISSION_ID,
  merchant_id: MERCHANT_ID,
  status: 'submitted',
  legal_name: 'Boulangerie Sainte-Rita SARL',
  registration_number: 'RB/COT/24 B 12345',
  country: 'BJ',
  address: 'Lot 12, quartier Sainte-Rita, Cotonou',
  representative_name: 'Awa Koffi',
  tax_id: '3201234567890',
  submitted_by: USER_ID,
  submitted_at: '2026-06-03T09:00:00.000Z',
  reviewed_by: null,
  reviewed_at: null,
  rejection_reason: null,
  documents: [
    {
      id: DOCUMENT_ID,
      kind: 'registration_certificate',
      content_type: 'application/pdf',
      size_bytes: 284113,
      sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      original_name: 'rccm.pdf',
      created_at: '2026-06-03T09:00:00.000Z',
    },
  ],
};

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const KycDocumentObject = Type.Object(
  {
    id: Type.String(),
    kind: Type.Enum(documentKinds),
    content_type: Type.Enum(documentTypes, { description: 'Read from the file’s first bytes.' }),
    size_bytes: Type.Integer(),
    sha256: Type.String({ description: 'SHA-256 of the file, hex.' }),
    original_name: Nullable(Type.String({ description: 'The name the file was sent with (shown only; never a name on disk).' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'KycDocument' },
);

export const KycSubmissionObject = Type.Object(
  {
    object: Type.Literal('kyc_submission'),
    id: Type.String(),
    merchant_id: Type.String(),
    status: Type.Enum(submissionStatuses),
    legal_name: Type.String(),
    registration_number: Type.String(),
    country: Type.Enum(kycCountries),
    address: Type.String(),
    representative_name: Type.String(),
    tax_id: Nullable(Type.String()),
    submitted_by: Type.String({ description: 'The dashboard user who submitted.' }),
    submitted_at: Type.String({ format: 'date-time' }),
    reviewed_by: Nullable(Type.String()),
    reviewed_at: Nullable(Type.String({ format: 'date-time' })),
    rejection_reason: Nullable(Type.String()),
    documents: Type.Array(KycDocumentObject),
  },
  { title: 'KycSubmission', examples: [submissionExample] },
);

export const MerchantKycObject = Type.Object(
  {
    object: Type.Literal('merchant_kyc'),
    merchant_id: Type.String(),
    kyc_status: Type.Enum(kycStatuses, { description: 'pending (never submitted), submitted (under review), validated, rejected.' }),
    submission: Nullable(KycSubmissionObject),
  },
  { title: 'DashboardMerchantKyc', examples: [{ object: 'merchant_kyc', merchant_id: MERCHANT_ID, kyc_status: 'submitted', submission: submissionExample }] },
);

export function submissionToWire(s: KycSubmission) {
  return {
    object: 'kyc_submission' as const,
    id: s.id,
    merchant_id: s.merchantId,
    status: s.status,
    legal_name: s.details.legalName,
    registration_number: s.details.registrationNumber,
    country: s.details.country,
    address: s.details.address,
    representative_name: s.details.representativeName,
    tax_id: s.details.taxId,
    submitted_by: s.submittedBy,
    submitted_at: s.submittedAt,
    reviewed_by: s.reviewedBy,
    reviewed_at: s.reviewedAt,
    rejection_reason: s.rejectionReason,
    documents: s.documents.map((d) => ({
      id: d.id,
      kind: d.kind,
      content_type: d.contentType,
      size_bytes: d.sizeBytes,
      sha256: d.sha256,
      original_name: d.originalName,
      created_at: d.createdAt,
    })),
  };
}

export function merchantKycToWire(merchant: Merchant, submission: KycSubmission | undefined) {
  return { object: 'merchant_kyc' as const, merchant_id: merchant.id, kyc_status: merchant.kycStatus, submission: submission ? submissionToWire(submission) : null };
}

/** The multipart body of a submission, as the OpenAPI document shows it (the route's own parser reads it). */
export const kycMultipartBody = {
  'multipart/form-data': {
    schema: {
      type: 'object',
      properties: {
        legal_name: { type: 'string', maxLength: 200 },
        registration_number: { type: 'string', maxLength: 100, description: 'RCCM or equivalent.' },
        country: { type: 'string', enum: [...kycCountries] },
        address: { type: 'string', maxLength: 500 },
        representative_name: { type: 'string', maxLength: 200 },
        tax_id: { type: 'string', maxLength: 100, description: 'Optional (IFU, NIF…).' },
        registration_certificate: { type: 'string', format: 'binary', description: 'PDF, PNG or JPEG; at most KYC_MAX_DOCUMENT_BYTES (5 MB).' },
        representative_id: { type: 'string', format: 'binary' },
        proof_of_address: { type: 'string', format: 'binary' },
        other: { type: 'string', format: 'binary', description: 'Any other document (the field may repeat; 6 files at most in all).' },
      },
      required: ['legal_name', 'registration_number', 'country', 'address', 'representative_name', 'registration_certificate', 'representative_id', 'proof_of_address'],
      examples: [
        {
          legal_name: 'Boulangerie Sainte-Rita SARL',
          registration_number: 'RB/COT/24 B 12345',
          country: 'BJ',
          address: 'Lot 12, quartier Sainte-Rita, Cotonou',
          representative_name: 'Awa Koffi',
          registration_certificate: '%PDF-1.7 … (the file’s bytes)',
          representative_id: '(the bytes of a PNG or JPEG scan)',
          proof_of_address: '%PDF-1.7 … (the file’s bytes)',
        },
      ],
    },
  },
};
