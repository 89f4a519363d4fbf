import type { Generated } from 'kysely';

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

export interface MerchantStatusChangeTable {
  id: string;
  merchant_id: string;
  change_number: number;
  field: string;
  from_value: string | null;
  to_value: string;
  actor: string;
  changed_at: string;
}

/** Dashboard users (0023); email lower-cased, totp_secret sealed. */
export interface UserTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  totp_secret: string | null;
  totp_enabled_at: string | null;
  email_verified_at: string | null;
  sessions_revoked_at: string | null;
  /** The last 30-second TOTP step whose code was accepted, and when (0031): a code works once. */
  totp_last_step: number | null;
  totp_used_at: string | null;
  /** `fr` or `en`: the language of the emails sent to this user (0035); null: never chosen (English). */
  language: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembershipTable {
  user_id: string;
  merchant_id: string;
  role: string;
  created_at: string;
}

export interface RefreshTokenTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  replaced_by: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
}

export interface EmailTokenTable {
  id: string;
  purpose: string;
  token_hash: string;
  email: string;
  user_id: string | null;
  merchant_id: string | null;
  role: string | null;
  invited_by: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** An invitation revoked (0030), and by whom. */
  revoked_at: string | null;
  revoked_by: string | null;
}

export interface AuditLogTable {
  id: string;
  merchant_id: string | null;
  user_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

/** Maker-checker thresholds (0025): live money-out above threshold_minor needs a second user. */
export interface ApprovalPolicyTable {
  merchant_id: string;
  currency: string;
  threshold_minor: number;
  updated_by: string | null;
  updated_at: string;
}

/** Dashboard submissions of money-out (0025); `request` is JSON. */
export interface ApprovalRequestTable {
  id: string;
  merchant_id: string;
  environment: string;
  kind: string;
  request: string;
  amount_minor: number;
  currency: string;
  approval_required: number;
  maker_id: string;
  status: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
  result_id: string | null;
  result_status: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  /** When a request waiting for approval can no longer be approved (0030); null for one executed at once. */
  expires_at: string | null;
}

export interface KycSubmissionTable {
  id: string;
  merchant_id: string;
  status: string;
  legal_name: string;
  registration_number: string;
  country: string;
  address: string;
  representative_name: string;
  tax_id: string | null;
  submitted_by: string;
  submitted_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  rejection_reason: string | null;
}

export interface KycDocumentTable {
  id: string;
  submission_id: string;
  merchant_id: string;
  kind: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  original_name: string | null;
  created_at: string;
}

export interface PlatformAdminTable {
  user_id: string;
  granted_at: string;
  granted_by: string;
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
  /** Written at most once a minute per key and process (key-use-recorder.ts). */
  last_used_at: string | null;
  /** The dashboard user whose session made the key (0029); null: made by the CLI or the demo setup. */
  created_by_user_id: string | null;
}

export interface EventTable {
  id: string;
  merchant_id: string;
  environment: string;
  type: string;
  payload: string;
  created_at: string;
  /** Retired by migration 0041 (the fan-out reads event_fanout_queue); kept for older rows, never read. */
  fanned_out: Generated<number>;
  /** The merchant reference of the object the event is about. */
  subject_reference: string | null;
  /**
   * Set when `payload` is a JSON Patch (RFC 6902) from this event's payload, an event written in
   * the same transaction about the same object (migration 0042); null when `payload` is whole.
   */
  base_event_id: string | null;
}

/** An event the fan-out has not turned into deliveries yet; the pass that does deletes the row. */
export interface EventFanoutQueueTable {
  event_id: string;
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
  lease_token: string | null;
  locked_until: string | null;
  recovery_point: Generated<string>;
  resource_id: string | null;
}

export interface PaymentTable {
  id: string;
  merchant_id: string;
  environment: string;
  reference: string;
  status: string;
  amount_minor: number;
  currency: string;
  country: string;
  mode: string;
  operator: string | null;
  phone: string | null;
  description: string | null;
  callback_url: string | null;
  customer_first_name: string | null;
  customer_last_name: string | null;
  psp_reference: string | null;
  message: string | null;
  otp_attempts: number;
  refunded_minor: number;
  expires_at: string;
  created_at: string;
  updated_at: string;
  version: number;
  operator_call: string | null;
  operator_call_started_at: string | null;
  /** JSON object of string values. */
  metadata: string;
  failure_code: string | null;
  /** Hosted payments: the secret of the checkout page's URL (unique); null for direct ones. */
  checkout_token: string | null;
  /** Hosted payments: where the final page links back to the merchant (optional). */
  return_url: string | null;
  /** When the reconciliation worker next asks the operator about this live payment (null: not due). */
  next_check_at: string | null;
  /** Where the customer pays on the operator's own page (Wave), once the operator gave it. */
  operator_redirect_url: string | null;
  /** The operator's route holding the payment (migration 0033); null: its first route, or none yet. */
  route: string | null;
  /** JSON: what the route's connector keeps about the payment between calls (migration 0033). */
  operator_state: string | null;
  /** A live payment the operator held as pending at its expiry: asked about until then before it expires (0032). */
  expiry_grace_until: string | null;
  /** When the open operator call was last sent, once its lease was taken over (0034); null: its lease start. */
  operator_sent_at: string | null;
  /** The payment link the payment was made through (0036); null: none. */
  payment_link_id: string | null;
}

/** A merchant's payment link (0036, core/payment-links). */
export interface PaymentLinkTable {
  id: string;
  merchant_id: string;
  environment: string;
  slug: string;
  amount_minor: number | null;
  min_amount_minor: number | null;
  max_amount_minor: number | null;
  currency: string;
  /** JSON array of country codes. */
  countries: string;
  description: string;
  /** 1: reusable; 0: single use. */
  reusable: number;
  max_payments: number | null;
  expires_at: string | null;
  return_url: string | null;
  metadata: string;
  deactivated_at: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** An operator answer our state machine refused, kept for a person (core/operators/operator-discrepancy.ts). */
export interface OperatorDiscrepancyTable {
  id: string;
  /** operator_answer (0018's rows), or what a reconciliation run found (0038): missing_at_provider, missing_at_akwe, amount_differs, status_differs. */
  kind: Generated<string>;
  /** Null: a provider's line we have no record of (0038). */
  merchant_id: string | null;
  environment: string;
  resource_type: string;
  /** Null: a provider's line we have no record of (0038). */
  resource_id: string | null;
  reference: string;
  operator: string;
  our_status: string;
  operator_status: string;
  operator_reference: string | null;
  message: string | null;
  created_at: string;
  resolved_at: string | null;
  resolution: string | null;
  /** The route whose report showed it (0038); null for operator answers. */
  route: string | null;
  currency: string | null;
  our_amount_minor: number | null;
  operator_amount_minor: number | null;
  reconciliation_run_id: string | null;
}

/** One reconciliation of a route's report against our records (0038, core/reconciliation). */
export interface ReconciliationRunTable {
  id: string;
  route: string;
  provider: string;
  environment: string;
  period_start: string;
  period_end: string;
  source: string;
  file_name: string | null;
  file_sha256: string;
  line_count: number;
  matched_count: number;
  missing_at_provider_count: number;
  missing_at_akwe_count: number;
  amount_differs_count: number;
  status_differs_count: number;
  provider_collected_minor: number;
  provider_paid_out_minor: number;
  akwe_collected_minor: number;
  akwe_paid_out_minor: number;
  created_by: string | null;
  created_at: string;
}

/** One line of a run: a provider's line, one of our records, or both matched (0038). */
export interface ReconciliationLineTable {
  run_id: string;
  position: number;
  outcome: string;
  resource_type: string;
  resource_id: string | null;
  merchant_id: string | null;
  provider_reference: string | null;
  currency: string;
  akwe_amount_minor: number | null;
  provider_amount_minor: number | null;
  akwe_status: string | null;
  provider_status: string | null;
  occurred_at: string | null;
  discrepancy_id: string | null;
}

/** One metadata key of one object, for list filters (the object's own column holds the JSON). */
export interface MetadataEntryTable {
  object_type: string;
  object_id: string;
  merchant_id: string;
  environment: string;
  key: string;
  value: string;
}

export interface RefundTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  environment: string;
  amount_minor: number;
  currency: string;
  status: string;
  reason: string | null;
  psp_reference: string | null;
  created_at: string;
  updated_at: string;
  /** When recovery last sent the refund again (0034); null: its creation was its only send. */
  sent_at: string | null;
}

export interface WebhookEndpointTable {
  id: string;
  merchant_id: string;
  environment: string;
  url: string;
  description: string | null;
  enabled: number;
  event_types: string;
  api_version: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  /** Deliveries in flight at once to this endpoint; null: the default. */
  max_in_flight: number | null;
}

export interface CallbackSecretTable {
  merchant_id: string;
  environment: string;
  secret_encrypted: string;
  created_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  destination: string;
  endpoint_id: string | null;
  target_url: string;
  merchant_id: string;
  environment: string;
  api_version: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_until: string | null;
  claim_token: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  succeeded_at: string | null;
  /** The endpoint id, or `callback:<url>`: what the in-flight budget of one receiver counts. */
  stream: string;
  target_host: string;
  /** The event's `subject_reference` (0015): the claim keeps one subject's deliveries in order per stream. */
  subject_reference: string | null;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  attempt_number: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

export interface LedgerAccountTable {
  id: string;
  merchant_id: string;
  environment: string;
  currency: string;
  kind: string;
  balance_minor: number;
  created_at: string;
  updated_at: string;
}

export interface LedgerTransactionTable {
  id: string;
  merchant_id: string;
  environment: string;
  currency: string;
  type: string;
  source_type: string;
  source_id: string;
  source_reference: string | null;
  description: string;
  available_change_minor: number;
  reserved_change_minor: number;
  fee_minor: number;
  created_at: string;
  /** The settlement whose statement covers this transaction (migration 0022); null until one does. */
  settlement_id: string | null;
}

export interface LedgerEntryTable {
  id: string;
  transaction_id: string;
  account_id: string;
  amount_minor: number;
  created_at: string;
}

export interface PayoutTable {
  id: string;
  merchant_id: string;
  environment: string;
  reference: string;
  status: string;
  amount_minor: number;
  fee_minor: number;
  currency: string;
  country: string;
  operator: string;
  phone: string;
  recipient_first_name: string | null;
  recipient_last_name: string | null;
  description: string | null;
  psp_reference: string | null;
  message: string | null;
  failure_code: string | null;
  metadata: string;
  handoff_started_at: string | null;
  handed_off: number;
  next_check_at: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  /** The wallet settlement this payout sends (migration 0022); null for every other payout. */
  settlement_id: string | null;
  /** The operator's route chosen for the payout (migration 0033); null: its first route. */
  route: string | null;
  /** When the last send to the operator began (0032); null before the first. */
  sent_at: string | null;
}

export interface BulkBatchTable {
  id: string;
  merchant_id: string;
  environment: string;
  name: string;
  description: string | null;
  status: string;
  source: string;
  currency: string;
  item_count: number;
  total_amount_minor: number;
  total_fee_minor: number;
  metadata: string;
  validated_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  /** When the bulk worker last looked at it ('' never): its queue order (migration 0016). */
  followed_at: Generated<string>;
}

export interface BulkBatchItemTable {
  id: string;
  batch_id: string;
  row_number: number;
  beneficiary_name: string;
  phone: string;
  amount_minor: number;
  fee_minor: number;
  currency: string;
  country: string;
  operator: string;
  reference: string;
  description: string | null;
  metadata: string;
  status: string;
  /** JSON array of line problems, for a line stored `invalid`; null otherwise. */
  problems: string | null;
  payout_id: string | null;
  failure_code: string | null;
  created_at: string;
  updated_at: string;
}

/** One party's row of a wallet transfer (migration 0021): the sender's `sent`, the receiver's `received`. */
export interface TransferTable {
  id: string;
  merchant_id: string;
  environment: string;
  direction: string;
  sender_id: string;
  receiver_id: string;
  reference: string | null;
  amount_minor: number;
  currency: string;
  description: string | null;
  metadata: string;
  created_at: string;
}

/** Where a merchant's settlements go (migration 0022): a wallet or a bank account. */
export interface SettlementAccountTable {
  id: string;
  merchant_id: string;
  environment: string;
  kind: string;
  currency: string;
  country: string;
  holder_name: string;
  operator: string | null;
  phone: string | null;
  iban: string | null;
  bank_name: string | null;
  description: string | null;
  metadata: string;
  usable_from: string;
  removed_at: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface SettlementTable {
  id: string;
  merchant_id: string;
  environment: string;
  reference: string;
  account_id: string;
  kind: string;
  status: string;
  origin: string;
  amount_minor: number;
  fee_minor: number;
  currency: string;
  sequence: number;
  destination: string;
  payout_id: string | null;
  bank_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  opening_available_minor: number;
  closing_available_minor: number;
  opening_reserved_minor: number;
  closing_reserved_minor: number;
  description: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  settled_at: string | null;
  version: number;
}

export interface SettlementScheduleTable {
  merchant_id: string;
  environment: string;
  currency: string;
  run_interval: string;
  anchor: number | null;
  account_id: string | null;
  minimum_minor: number;
  reserve_minor: number;
  next_run_at: string | null;
  last_run_at: string | null;
  last_outcome: string | null;
  last_settlement_id: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** A live route's provider float as last read (0037, core/floats). */
export interface RouteFloatTable {
  route_label: string;
  balance_minor: number | null;
  currency: string | null;
  read_at: string | null;
  threshold_minor: number | null;
  /** 1: under the threshold at the last reading. */
  low: Generated<number>;
  low_since: string | null;
  alerted_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  next_read_at: string;
  updated_at: string;
}

/** One reading of a route's provider float (0037). */
export interface RouteFloatReadingTable {
  id: string;
  route_label: string;
  balance_minor: number;
  currency: string;
  read_at: string;
}

export interface Database {
  merchants: MerchantTable;
  merchant_status_changes: MerchantStatusChangeTable;
  users: UserTable;
  memberships: MembershipTable;
  refresh_tokens: RefreshTokenTable;
  email_tokens: EmailTokenTable;
  audit_log: AuditLogTable;
  approval_policies: ApprovalPolicyTable;
  approval_requests: ApprovalRequestTable;
  kyc_submissions: KycSubmissionTable;
  kyc_documents: KycDocumentTable;
  platform_admins: PlatformAdminTable;
  api_keys: ApiKeyTable;
  events: EventTable;
  event_fanout_queue: EventFanoutQueueTable;
  idempotency_records: IdempotencyRecordTable;
  payments: PaymentTable;
  payment_links: PaymentLinkTable;
  operator_discrepancies: OperatorDiscrepancyTable;
  reconciliation_runs: ReconciliationRunTable;
  reconciliation_lines: ReconciliationLineTable;
  refunds: RefundTable;
  metadata_entries: MetadataEntryTable;
  ledger_accounts: LedgerAccountTable;
  ledger_transactions: LedgerTransactionTable;
  ledger_entries: LedgerEntryTable;
  payouts: PayoutTable;
  transfers: TransferTable;
  settlement_accounts: SettlementAccountTable;
  settlements: SettlementTable;
  settlement_schedules: SettlementScheduleTable;
  bulk_batches: BulkBatchTable;
  bulk_batch_items: BulkBatchItemTable;
  webhook_endpoints: WebhookEndpointTable;
  callback_secrets: CallbackSecretTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  route_floats: RouteFloatTable;
  route_float_readings: RouteFloatReadingTable;
}
