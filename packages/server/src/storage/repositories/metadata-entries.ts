import type { Insertable } from 'kysely';
import type { Metadata } from '../../core/shared/metadata.js';
import type { MetadataEntryTable } from '../schema.js';

/** The search rows of an object's metadata, one per key (the object's own column keeps the JSON). */
export function metadataEntries(objectType: string, object: { id: string; merchantId: string; environment: string; metadata: Metadata }): Insertable<MetadataEntryTable>[] {
  return Object.entries(object.metadata).map(([key, value]) => ({
    object_type: objectType,
    object_id: object.id,
    merchant_id: object.merchantId,
    environment: object.environment,
    key,
    value,
  }));
}
