import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const ROLES = sql`('owner', 'admin', 'developer', 'finance', 'viewer')`;

/**
 * Dashboard users (docs/dashboard.md). 0001 made a `users` table with one merchant and one role
 * per user that nothing ever wrote; it is replaced: a user now belongs to merchants through
 * `memberships`, each with its role. Sessions are rotating refresh tokens (only their SHA-256 is
 * kept), email links are one-time tokens (hashed too), and `audit_log` records who did what.
 */
export async function up(db: AnyDb): Promise<void> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) > 0) throw new Error('the old users table has rows, which no version of Akwe wrote; not replacing it');
  await db.schema.dropTable('users').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Stored lower-cased, so the unique index is case-insensitive on both databases.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    // Sealed with the server's SecretBox, like webhook secrets; set at enrolment, confirmed by totp_enabled_at.
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', 'text')
    .addColumn('email_verified_at', 'text')
    // Access tokens issued before this instant are refused (sign out everywhere, password reset).
    .addColumn('sessions_revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ${ROLES}`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'merchant_id'])
    .execute();
  await db.schema.createIndex('memberships_merchant').on('memberships').columns(['merchant_id', 'user_id']).execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    // Every token issued by rotation from one sign-in shares it: reuse of a rotated token revokes the family.
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('replaced_by', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').columns(['user_id', 'revoked_at']).execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').columns(['family_id']).execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('verify', 'invite', 'reset')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('merchant_id', 'text', (c) => c.references('merchants.id'))
    .addColumn('role', 'text', (c) => c.check(sql`role is null or role in ${ROLES}`))
    .addColumn('invited_by', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Null for what concerns no one merchant (a sign-in, a password reset).
    .addColumn('merchant_id', 'text')
    // Null when no user is known (a failed sign-in for an unknown address).
    .addColumn('user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_merchant').on('audit_log').columns(['merchant_id', 'id']).execute();
  await db.schema.createIndex('audit_log_user').on('audit_log').columns(['user_id', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['audit_log', 'email_tokens', 'refresh_tokens', 'memberships', 'users']) await db.schema.dropTable(table).execute();
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
