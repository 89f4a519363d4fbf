/**
 * Table shapes as Kysely sees them. Portable column types on both dialects:
 * ids are UUIDv7 text, timestamps ISO-8601 UTC text (fixed width, so text order is time order),
 * flags 0/1 integers, JSON as text, money as 64-bit integer centimes.
 */
export interface MerchantTable {
  id: string;
  name: string;
  status: string;
  kyc_status: string;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: string;
  merchant_id: string;
  email: string;
  password_hash: string;
  role: string;
  created_at: string;
}

export interface ApiKeyTable {
  id: string;
  merchant_id: string;
  environment: string;
  key_hash: string;
  key_prefix: string;
  key_last_four: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

export interface EventTable {
  id: string;
  merchant_id: string;
  environment: string;
  type: string;
  payload: string;
  created_at: string;
}

export interface IdempotencyRecordTable {
  merchant_id: string;
  environment: string;
  method: string;
  route: string;
  idempotency_key: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface Database {
  merchants: MerchantTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  events: EventTable;
  idempotency_records: IdempotencyRecordTable;
}
