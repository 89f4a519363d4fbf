import jsonpatch from 'fast-json-patch';
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Events written together about the same object (a sandbox creation's `created`, `processing` and
 * `completed`) no longer store the object three times: the last of them keeps the whole snapshot,
 * and each of the others names it in `base_event_id` and stores only a JSON Patch (RFC 6902) from
 * that snapshot to its own. Events are never updated, so a base never changes under its patches.
 * Older rows have no base and are read as before.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('events').addColumn('base_event_id', 'text').execute();
}

/** Every patched event gets its whole snapshot back before the column goes. */
export async function down(db: AnyDb): Promise<void> {
  const rows = await db
    .selectFrom('events as e')
    .innerJoin('events as base', 'base.id', 'e.base_event_id')
    .select(['e.id as id', 'e.payload as patch', 'base.payload as base_payload'])
    .execute();
  for (const row of rows as { id: string; patch: string; base_payload: string }[]) {
    const whole: unknown = jsonpatch.applyPatch(JSON.parse(row.base_payload), JSON.parse(row.patch) as jsonpatch.Operation[], false, true).newDocument;
    await db
      .updateTable('events')
      .set({ payload: JSON.stringify(whole) })
      .where('id', '=', row.id)
      .execute();
  }
  await db.schema.alterTable('events').dropColumn('base_event_id').execute();
}
