import { Migrator, type MigrationResult } from 'kysely';
import type { AkweDatabase } from './database.js';
import { migrations } from './migrations/index.js';

function migratorFor(database: AkweDatabase): Migrator {
  return new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
  });
}

/** Applies every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(database: AkweDatabase): Promise<MigrationResult[]> {
  const { error, results = [] } = await migratorFor(database).migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return results;
}

/** Names of migrations not yet applied (empty when the schema is current). */
export async function pendingMigrations(database: AkweDatabase): Promise<string[]> {
  const all = await migratorFor(database).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
