import { v7 as uuidv7 } from 'uuid';

/** UUIDv7: valid UUIDs (the earlier contract's `uuid` holds) that sort by creation time. */
export type IdSource = () => string;

export const newId: IdSource = () => uuidv7();

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path value can be one of our ids (any letter case): only then is it looked up as an id. */
export function looksLikeId(value: string): boolean {
  return uuidShape.test(value);
}
