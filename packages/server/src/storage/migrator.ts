import { Migrator, sql, type MigrationResult } from 'kysely';
import type { AkweDatabase } from './database.js';
import { migrations } from './migrations/index.js';

async function migratorFor(database: AkweDatabase): Promise<Migrator> {
  // Kysely finds its bookkeeping tables in any schema unless told which one; with several schemas
  // in one database (tests, or tenants sharing a server) it must be the connection's own.
  let migrationTableSchema: string | undefined;
  if (database.capabilities.schemas) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
    migrationTableSchema = rows[0]?.schema;
  }
  return new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/** Applies every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(database: AkweDatabase): Promise<MigrationResult[]> {
  const { error, results = [] } = await (await migratorFor(database)).migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results;
}

/** Names of migrations not yet applied (empty when the schema is current). */
export async function pendingMigrations(database: AkweDatabase): Promise<string[]> {
  const all = await (await migratorFor(database)).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Applies the migrations up to and including `name` (tests of a migration's effect on existing rows). */
export async function migrateTo(database: AkweDatabase, name: string): Promise<void> {
  const { error } = await (await migratorFor(database)).migrateTo(name);
  if (error) throw new Error(`migrating to ${name} failed: ${String(error)}`, { cause: error });
}
