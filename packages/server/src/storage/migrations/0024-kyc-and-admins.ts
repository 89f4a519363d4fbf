import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * KYC submissions and the platform's administrators (docs/dashboard.md "KYC", "Back office").
 * A submission holds the company's details; its documents are files under the data folder,
 * sealed (AES-256-GCM), of which the database keeps only what describes them. At most one
 * submission per merchant is under review at a time (the partial unique index). Platform
 * administrators are dashboard users listed in `platform_admins`, granted only from the CLI.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('kyc_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('submitted', 'validated', 'rejected')`))
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('registration_number', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('representative_name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text')
    .addColumn('submitted_by', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'text')
    .addColumn('rejection_reason', 'text')
    .execute();
  await db.schema.createIndex('kyc_submissions_merchant').on('kyc_submissions').columns(['merchant_id', 'id']).execute();
  await db.schema.createIndex('kyc_submissions_status').on('kyc_submissions').columns(['status', 'id']).execute();
  await db.schema.createIndex('kyc_submissions_one_under_review').on('kyc_submissions').column('merchant_id').unique().where(sql.ref('status'), '=', 'submitted').execute();

  await db.schema
    .createTable('kyc_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('submission_id', 'text', (c) => c.notNull().references('kyc_submissions.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // The type read from the file's first bytes, never the one the client sent.
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    // Shown to reviewers only; the file on disk is named by the document id.
    .addColumn('original_name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kyc_documents_submission').on('kyc_documents').columns(['submission_id', 'id']).execute();

  await db.schema
    .createTable('platform_admins')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('granted_at', 'text', (c) => c.notNull())
    .addColumn('granted_by', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['platform_admins', 'kyc_documents', 'kyc_submissions']) await db.schema.dropTable(table).execute();
}
