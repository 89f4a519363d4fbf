import type { Kysely, Selectable } from 'kysely';
import type { DocumentType } from '../../core/kyc/document-type.js';
import type { DocumentKind, KycCountry, KycDocument, KycStore, KycSubmission, SubmissionStatus } from '../../core/kyc/kyc-submission.js';
import type { Database, KycDocumentTable, KycSubmissionTable } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';

const documentFromRow = (row: Selectable<KycDocumentTable>): KycDocument => ({
  id: row.id,
  submissionId: row.submission_id,
  merchantId: row.merchant_id,
  kind: row.kind as DocumentKind,
  contentType: row.content_type as DocumentType,
  sizeBytes: Number(row.size_bytes),
  sha256: row.sha256,
  originalName: row.original_name,
  createdAt: row.created_at,
});

const submissionFromRow = (row: Selectable<KycSubmissionTable>, documents: KycDocument[]): KycSubmission => ({
  id: row.id,
  merchantId: row.merchant_id,
  status: row.status as SubmissionStatus,
  details: {
    legalName: row.legal_name,
    registrationNumber: row.registration_number,
    country: row.country as KycCountry,
    address: row.address,
    representativeName: row.representative_name,
    taxId: row.tax_id,
  },
  submittedBy: row.submitted_by,
  submittedAt: row.submitted_at,
  reviewedBy: row.reviewed_by,
  reviewedAt: row.reviewed_at,
  rejectionReason: row.rejection_reason,
  documents,
});

/** KYC submissions and their documents' descriptions (the files are the vault's). */
export class KycRepository implements KycStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insertSubmission(s: KycSubmission): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('kyc_submissions')
          .values({
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
          })
          .execute();
        if (s.documents.length === 0) return;
        await trx
          .insertInto('kyc_documents')
          .values(
            s.documents.map((d) => ({
              id: d.id,
              submission_id: s.id,
              merchant_id: d.merchantId,
              kind: d.kind,
              content_type: d.contentType,
              size_bytes: d.sizeBytes,
              sha256: d.sha256,
              original_name: d.originalName,
              created_at: d.createdAt,
            })),
          )
          .execute();
      });
      return true;
    } catch (error) {
      // The partial unique index: another submission of the merchant is under review.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async latestOfMerchant(merchantId: string): Promise<KycSubmission | undefined> {
    const row = await this.db.selectFrom('kyc_submissions').selectAll().where('merchant_id', '=', merchantId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row && (await this.withDocuments([row]))[0];
  }

  async findById(id: string): Promise<KycSubmission | undefined> {
    const row = await this.db.selectFrom('kyc_submissions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && (await this.withDocuments([row]))[0];
  }

  async page(filter: { status?: SubmissionStatus; limit: number; startingAfter?: string }): Promise<{ data: KycSubmission[]; hasMore: boolean } | undefined> {
    if (filter.startingAfter !== undefined) {
      let position = this.db.selectFrom('kyc_submissions').select('id').where('id', '=', filter.startingAfter);
      if (filter.status !== undefined) position = position.where('status', '=', filter.status);
      if (!(await position.executeTakeFirst())) return undefined;
    }
    // Ids are time-ordered (UUIDv7): newest first is id descending.
    let query = this.db.selectFrom('kyc_submissions').selectAll();
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.startingAfter !== undefined) query = query.where('id', '<', filter.startingAfter);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(filter.limit + 1)
      .execute();
    return { data: await this.withDocuments(rows.slice(0, filter.limit)), hasMore: rows.length > filter.limit };
  }

  async decide(
    id: string,
    decision: { status: 'validated' | 'rejected'; reviewedBy: string; reviewedAt: string; rejectionReason: string | null },
  ): Promise<KycSubmission | undefined> {
    const result = await this.db
      .updateTable('kyc_submissions')
      .set({ status: decision.status, reviewed_by: decision.reviewedBy, reviewed_at: decision.reviewedAt, rejection_reason: decision.rejectionReason })
      .where('id', '=', id)
      .where('status', '=', 'submitted')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return this.findById(id);
  }

  private async withDocuments(rows: Selectable<KycSubmissionTable>[]): Promise<KycSubmission[]> {
    if (rows.length === 0) return [];
    const documents = await this.db
      .selectFrom('kyc_documents')
      .selectAll()
      .where(
        'submission_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    return rows.map((row) => submissionFromRow(row, documents.filter((d) => d.submission_id === row.id).map(documentFromRow)));
  }
}
