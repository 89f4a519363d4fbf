import { AkweError } from '../errors/index.js';
import type { DocumentType } from './document-type.js';

/** Where a merchant may operate (the catalog's countries). */
export const kycCountries = ['BJ', 'TG', 'CI'] as const;
export type KycCountry = (typeof kycCountries)[number];

export const documentKinds = ['registration_certificate', 'representative_id', 'proof_of_address', 'other'] as const;
export type DocumentKind = (typeof documentKinds)[number];
/** A submission without one of these is refused: a reviewer could not decide. */
export const requiredDocumentKinds: readonly DocumentKind[] = ['registration_certificate', 'representative_id', 'proof_of_address'];
/** Files per submission: one of each required kind and a few others. */
export const MAX_DOCUMENTS = 6;

export function isDocumentKind(value: string): value is DocumentKind {
  return (documentKinds as readonly string[]).includes(value);
}

export const submissionStatuses = ['submitted', 'validated', 'rejected'] as const;
export type SubmissionStatus = (typeof submissionStatuses)[number];

export interface CompanyDetails {
  legalName: string;
  registrationNumber: string;
  country: KycCountry;
  address: string;
  representativeName: string;
  taxId: string | null;
}

export interface KycDocument {
  id: string;
  submissionId: string;
  merchantId: string;
  kind: DocumentKind;
  contentType: DocumentType;
  sizeBytes: number;
  /** Of the plaintext, so a reviewer can tell two files apart and the file's integrity is checked on reading. */
  sha256: string;
  /** What the client called it, for reviewers only (never a path on disk). */
  originalName: string | null;
  createdAt: string;
}

export interface KycSubmission {
  id: string;
  merchantId: string;
  status: SubmissionStatus;
  details: CompanyDetails;
  submittedBy: string;
  submittedAt: string;
  reviewedBy: string | null;
  reviewedAt: string | null;
  rejectionReason: string | null;
  documents: KycDocument[];
}

export interface KycStore {
  /** False when the merchant has a submission under review already (nothing written). */
  insertSubmission(submission: KycSubmission): Promise<boolean>;
  latestOfMerchant(merchantId: string): Promise<KycSubmission | undefined>;
  findById(id: string): Promise<KycSubmission | undefined>;
  /** Newest first; undefined when `startingAfter` is not a submission of that list. */
  page(filter: { status?: SubmissionStatus; limit: number; startingAfter?: string }): Promise<{ data: KycSubmission[]; hasMore: boolean } | undefined>;
  /** Sets the decision if the submission is still under review; undefined otherwise. */
  decide(id: string, decision: { status: 'validated' | 'rejected'; reviewedBy: string; reviewedAt: string; rejectionReason: string | null }): Promise<KycSubmission | undefined>;
}

/** The sealed files (storage/kyc-document-vault.ts). */
export interface KycDocumentFiles {
  read(merchantId: string, documentId: string): Promise<Buffer>;
  remove(merchantId: string, documentIds: readonly string[]): Promise<void>;
}

const text = (raw: Record<string, string>, field: string, max: number, required = true): string | null => {
  const value = (raw[field] ?? '').trim();
  if (value.length === 0) {
    if (!required) return null;
    throw AkweError.ofField('validation_error', field, `${field} is required`);
  }
  if (value.length > max) throw AkweError.ofField('validation_error', field, `${field} must be at most ${max} characters`);
  return value;
};

/** The form's fields, checked: every problem is a 400 naming its field. */
export function checkCompanyDetails(raw: Record<string, string>): CompanyDetails {
  const country = (raw.country ?? '').trim().toUpperCase();
  const details = {
    legalName: text(raw, 'legal_name', 200)!,
    registrationNumber: text(raw, 'registration_number', 100)!,
    country: country as KycCountry,
    address: text(raw, 'address', 500)!,
    representativeName: text(raw, 'representative_name', 200)!,
    taxId: text(raw, 'tax_id', 100, false),
  };
  if (!(kycCountries as readonly string[]).includes(country)) throw AkweError.ofField('validation_error', 'country', `country must be one of ${kycCountries.join(', ')}`);
  return details;
}
