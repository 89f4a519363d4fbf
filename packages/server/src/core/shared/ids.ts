import { v7 as uuidv7 } from 'uuid';

/** UUIDv7: valid UUIDs (the earlier contract's `uuid` holds) that sort by creation time. */
export type IdSource = () => string;

export const newId: IdSource = () => uuidv7();
