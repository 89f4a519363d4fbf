/**
 * The outcome phase of several payment changes as ONE PostgreSQL statement whose text never
 * changes: every value travels in arrays (`unnest($1::text[], …)`), one element per row, so a
 * batch of 4 and a batch of 32 are the same statement, and its planning costs the same for both.
 * (Chains of one CTE per change, as postgres/one-statement.ts builds, make one text per batch
 * shape; planning long ones cost PostgreSQL about as much as running them, docs/performance.md.)
 * It is planned on each run (PLAN_EACH_RUN), never kept as a named statement: a generic plan made
 * while `payments` was small hash-joins over a sequential scan of it, and would be kept as it grows.
 *
 * Each change still stands or falls alone, as in the transaction that SQLite runs: its payment must
 * still be at the expected version, and is locked first (`locked`), for its claim write (update of
 * the in-progress record, or insert over an expired one) to be tried; the claim must write for the
 * payment update to be tried, which the lock makes certain to find its version; the payment update
 * must write for its events and its posting to be written. (A claim written before a version check
 * that then failed would be kept: one statement cannot undo its own earlier writes.) A batch holds
 * at most one change per payment (the caller's rule), so each lock and update is its change's.
 * Writes are tied to their change by the index `i` every row carries.
 * The ledger accounts must all exist (`accounts`), or nothing at all is written; each balance moves
 * once, by the sum of the postings that went through, after its rows are locked in a fixed order.
 */
import { CompiledQuery } from 'kysely';
import type { EventTable, IdempotencyRecordTable, LedgerTransactionTable, PaymentTable } from '../schema.js';
import { PLAN_EACH_RUN } from './named-statement-client.js';
import { quote } from './one-statement.js';

/** A column of an input array: its name and PostgreSQL type. */
type Column = readonly [name: string, type: string];

export type Row = Record<string, unknown>;

/** Everything one statement writes; `i` ties each row to its change (0-based, in batch order). */
export interface PaymentOutcomes {
  /** Rows of `idempotency_records` (all columns) plus `i`; `insert` tells which write each is. */
  claims: (Row & { i: number; insert: boolean })[];
  /** Changes without a claim write. */
  unclaimed: number[];
  /** The payments' new columns (PAYMENT_COLUMNS) plus `i`, `id` and `expected_version`. */
  payments: Row[];
  /** New payments (every column) plus `i`; their changes are listed in `withoutPayment` too (no update). */
  newPayments: Row[];
  /** Changes without a payment update. */
  withoutPayment: number[];
  events: Row[];
  /** The accounts every posting of the batch moves; kinds in lock order. Empty kinds: no posting. */
  accounts: { merchantId: string | null; environment: string | null; currency: string | null; kinds: readonly string[] };
  transactions: Row[];
  entries: Row[];
  now: string;
}

/** What the statement reports: whether the accounts were all open, which payments were at their version, and which claims and payments wrote. */
export interface OutcomeCounts {
  accounts: number;
  locked: number[];
  claims: number[];
  payments: number[];
}

type PgType = 'text' | 'int' | 'bigint';

/**
 * A table's columns with their types, in the order written. Each list below `satisfies` a record of
 * its table's columns, so a column added to the table (schema.ts) and not here fails to compile
 * instead of being silently left out of these writes.
 */
function typed(types: Record<string, PgType>): readonly Column[] {
  return Object.entries(types);
}

const CLAIM_KEY = ['merchant_id', 'environment', 'method', 'route', 'idempotency_key'] as const;
const CLAIM_RECORD = typed({
  merchant_id: 'text',
  environment: 'text',
  method: 'text',
  route: 'text',
  idempotency_key: 'text',
  request_hash: 'text',
  state: 'text',
  response_status: 'int',
  response_body: 'text',
  created_at: 'text',
  expires_at: 'text',
  lease_token: 'text',
  locked_until: 'text',
  recovery_point: 'text',
  resource_id: 'text',
} satisfies Record<keyof IdempotencyRecordTable, PgType>);
const CLAIM_COLUMNS: readonly Column[] = [['i', 'int'], ...CLAIM_RECORD];
/** What a claim's last write sets (an update); an insert over an expired record sets every column. */
const CLAIM_UPDATED = ['state', 'response_status', 'response_body', 'recovery_point', 'resource_id'];

/** A payment's columns an outcome may change: not its id, owner, reference or creation time; its version is counted. */
const PAYMENT_COLUMNS = typed({
  status: 'text',
  amount_minor: 'bigint',
  currency: 'text',
  country: 'text',
  mode: 'text',
  operator: 'text',
  phone: 'text',
  description: 'text',
  callback_url: 'text',
  customer_first_name: 'text',
  customer_last_name: 'text',
  psp_reference: 'text',
  message: 'text',
  failure_code: 'text',
  metadata: 'text',
  otp_attempts: 'int',
  refunded_minor: 'bigint',
  expires_at: 'text',
  updated_at: 'text',
  operator_call: 'text',
  operator_call_started_at: 'text',
  checkout_token: 'text',
  return_url: 'text',
  next_check_at: 'text',
  operator_redirect_url: 'text',
  route: 'text',
  operator_state: 'text',
  expiry_grace_until: 'text',
  operator_sent_at: 'text',
  payment_link_id: 'text',
} satisfies Record<Exclude<keyof PaymentTable, 'id' | 'merchant_id' | 'environment' | 'reference' | 'created_at' | 'version'>, PgType>);
const PAYMENT_INPUT: readonly Column[] = [['i', 'int'], ['id', 'text'], ['expected_version', 'int'], ...PAYMENT_COLUMNS];
/** Every column of a new payment. */
const PAYMENT_RECORD: readonly Column[] = [
  ['id', 'text'],
  ['merchant_id', 'text'],
  ['environment', 'text'],
  ['reference', 'text'],
  ['created_at', 'text'],
  ['version', 'int'],
  ...PAYMENT_COLUMNS,
];
const NEW_PAYMENT_COLUMNS: readonly Column[] = [['i', 'int'], ...PAYMENT_RECORD];

const EVENT_RECORD = typed({
  id: 'text',
  merchant_id: 'text',
  environment: 'text',
  type: 'text',
  payload: 'text',
  created_at: 'text',
  subject_reference: 'text',
  base_event_id: 'text',
} satisfies Record<Exclude<keyof EventTable, 'fanned_out'>, PgType>);
const EVENT_COLUMNS: readonly Column[] = [['i', 'int'], ...EVENT_RECORD];

const TRANSACTION_RECORD = typed({
  id: 'text',
  merchant_id: 'text',
  environment: 'text',
  currency: 'text',
  type: 'text',
  source_type: 'text',
  source_id: 'text',
  source_reference: 'text',
  description: 'text',
  available_change_minor: 'bigint',
  reserved_change_minor: 'bigint',
  fee_minor: 'bigint',
  created_at: 'text',
  // settlement_id is left null: the next settlement stamps the transaction.
} satisfies Record<Exclude<keyof LedgerTransactionTable, 'settlement_id'>, PgType>);
const TRANSACTION_COLUMNS: readonly Column[] = [['i', 'int'], ...TRANSACTION_RECORD];

const ENTRY_COLUMNS: readonly Column[] = [
  ['i', 'int'],
  ['id', 'text'],
  ['transaction_id', 'text'],
  ['kind', 'text'],
  ['amount_minor', 'bigint'],
];

/** Bound parameters, numbered in the order they are added (always the same order: the text stays the same). */
class Parameters {
  readonly values: unknown[] = [];

  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }

  /** `unnest(<one array per column>) as alias (columns)`: the rows as a table. */
  rows(alias: string, columns: readonly Column[], rows: readonly Row[]): string {
    const arrays = columns.map(([name, type]) =>
      this.add(
        rows.map((row) => row[name] ?? null),
        `${type}[]`,
      ),
    );
    return `unnest(${arrays.join(', ')}) as ${quote(alias)} (${columns.map(([name]) => quote(name)).join(', ')})`;
  }
}

const names = (columns: readonly Column[]) => columns.map(([name]) => quote(name));
const columnsOf = (alias: string, columns: readonly Column[]) => columns.map(([name]) => `${quote(alias)}.${quote(name)}`);
const inPassed = (alias: string, gate: string) => `${quote(alias)}."i" in (select "i" from ${quote(gate)})`;

export function paymentOutcomesStatement(outcomes: PaymentOutcomes): CompiledQuery<OutcomeCounts> {
  const p = new Parameters();
  const kinds = p.add(outcomes.accounts.kinds, 'text[]');
  const scope = `"merchant_id" = ${p.add(outcomes.accounts.merchantId, 'text')} and "environment" = ${p.add(outcomes.accounts.environment, 'text')} and "currency" = ${p.add(outcomes.accounts.currency, 'text')}`;
  const now = p.add(outcomes.now, 'text');
  const ctes: string[] = [];
  const add = (name: string, body: string) => ctes.push(`${quote(name)} as (${body})`);

  // No posting: no kinds, and zero accounts found is all of them.
  add('accounts', `select 1 where (select count(*) from "ledger_accounts" where ${scope} and "kind" = any(${kinds})) = cardinality(${kinds})`);

  // Each payment still at the expected version, locked until the statement commits: its update
  // below cannot miss it. Changes without a payment go on as long as the accounts are open.
  add('payment_inputs', `select * from ${p.rows('n', PAYMENT_INPUT, outcomes.payments)}`);
  add(
    'locked',
    `select "n"."i" from "payments" as "p" join "payment_inputs" as "n" on "p"."id" = "n"."id" and "p"."version" = "n"."expected_version" ` +
      `where exists (select 1 from "accounts") for update of "p"`,
  );
  add(
    'may_claim',
    `select "i" from "locked" union all select "u"."i" from unnest(${p.add(outcomes.withoutPayment, 'int[]')}) as "u" ("i") where exists (select 1 from "accounts")`,
  );

  const updates = outcomes.claims.filter((claim) => !claim.insert);
  const inserts = outcomes.claims.filter((claim) => claim.insert);
  const keyMatches = (left: string, right: string) => CLAIM_KEY.map((column) => `${quote(left)}.${quote(column)} = ${quote(right)}.${quote(column)}`).join(' and ');
  add(
    'claims_updated',
    `update "idempotency_records" as "r" set ${CLAIM_UPDATED.map((column) => `${quote(column)} = "c".${quote(column)}`).join(', ')} ` +
      `from ${p.rows('c', CLAIM_COLUMNS, updates)} ` +
      `where ${keyMatches('r', 'c')} and "r"."lease_token" = "c"."lease_token" and "r"."state" = 'in_progress' and ${inPassed('c', 'may_claim')} returning "c"."i"`,
  );
  const inserted = p.rows('c', CLAIM_COLUMNS, inserts);
  add(
    'claims_inserted',
    `insert into "idempotency_records" (${names(CLAIM_RECORD).join(', ')}) select ${columnsOf('c', CLAIM_RECORD).join(', ')} from ${inserted} ` +
      `where ${inPassed('c', 'may_claim')} ` +
      `on conflict (${CLAIM_KEY.map(quote).join(', ')}) do update set ${names(CLAIM_RECORD.filter(([name]) => !(CLAIM_KEY as readonly string[]).includes(name)))
        .map((column) => `${column} = excluded.${column}`)
        .join(', ')} ` +
      // Only a record whose 24-hour window has passed may be replaced (created_at is the claim's now).
      `where "idempotency_records"."expires_at" <= excluded."created_at" returning ${CLAIM_KEY.map(quote).join(', ')}`,
  );
  add('claims', `select "i" from "claims_updated" union all select "c"."i" from "claims_inserted" as "w" join ${inserted} on ${keyMatches('w', 'c')}`);
  add(
    'claimed',
    `select "i" from "claims" union all select "u"."i" from unnest(${p.add(outcomes.unclaimed, 'int[]')}) as "u" ("i") where "u"."i" in (select "i" from "may_claim")`,
  );
  add(
    'payments',
    `update "payments" as "p" set ${PAYMENT_COLUMNS.map(([name]) => `${quote(name)} = "n".${quote(name)}`).join(', ')}, "version" = "n"."expected_version" + 1 ` +
      `from "payment_inputs" as "n" ` +
      `where "p"."id" = "n"."id" and "p"."version" = "n"."expected_version" and ${inPassed('n', 'claimed')} returning "n"."i"`,
  );
  // A new payment is inserted once its claim is written; a duplicate reference fails the whole statement.
  add('new_payments', `select * from ${p.rows('n', NEW_PAYMENT_COLUMNS, outcomes.newPayments)}`);
  add(
    'payments_inserted',
    `insert into "payments" (${names(PAYMENT_RECORD).join(', ')}) select ${columnsOf('n', PAYMENT_RECORD).join(', ')} from "new_payments" as "n" ` +
      `where ${inPassed('n', 'claimed')} returning "id"`,
  );
  add('inserted', `select "n"."i" from "new_payments" as "n" join "payments_inserted" as "w" on "w"."id" = "n"."id"`);
  add('passed', `select "i" from "payments" union all select "i" from "claimed" where "i" = any(${p.add(outcomes.withoutPayment, 'int[]')})`);
  add(
    'events',
    `insert into "events" (${names(EVENT_RECORD).join(', ')}) select ${columnsOf('e', EVENT_RECORD).join(', ')} ` +
      `from ${p.rows('e', EVENT_COLUMNS, outcomes.events)} where ${inPassed('e', 'passed')} returning "id"`,
  );
  // Each event written is due for the fan-out (migration 0041).
  add('events_queued', `insert into "event_fanout_queue" ("event_id") select "id" from "events"`);
  const entries = p.rows('v', ENTRY_COLUMNS, outcomes.entries);
  // Row locks in the lock order (FOR UPDATE locks the rows after sorting them), and only when a posting goes through.
  add(
    'ledger_locked',
    `select "id" from "ledger_accounts" where ${scope} and "kind" = any(${kinds}) ` +
      `and exists (select 1 from ${entries} where ${inPassed('v', 'passed')}) order by array_position(${kinds}, "kind") for update`,
  );
  add(
    'ledger_balances',
    `update "ledger_accounts" as "a" set "balance_minor" = "a"."balance_minor" + "d"."amount", "updated_at" = ${now} ` +
      `from (select "v"."kind", sum("v"."amount_minor")::bigint as "amount" from ${entries} where ${inPassed('v', 'passed')} group by "v"."kind") as "d" ` +
      `where "a"."id" in (select "id" from "ledger_locked") and "a"."kind" = "d"."kind" returning "a"."id", "a"."kind"`,
  );
  add(
    'ledger_transactions',
    `insert into "ledger_transactions" (${names(TRANSACTION_RECORD).join(', ')}) select ${columnsOf('t', TRANSACTION_RECORD).join(', ')} ` +
      `from ${p.rows('t', TRANSACTION_COLUMNS, outcomes.transactions)} where ${inPassed('t', 'passed')}`,
  );
  add(
    'ledger_entries',
    `insert into "ledger_entries" ("id", "transaction_id", "account_id", "amount_minor", "created_at") ` +
      `select "v"."id", "v"."transaction_id", "b"."id", "v"."amount_minor", ${now} from ${entries} join "ledger_balances" as "b" on "b"."kind" = "v"."kind" ` +
      `where ${inPassed('v', 'passed')}`,
  );
  const text =
    PLAN_EACH_RUN +
    `with ${ctes.join(', ')} select (select count(*) from "accounts")::int as "accounts", ` +
    `array(select "i" from "locked") as "locked", array(select "i" from "claims") as "claims", array(select "i" from "payments" union all select "i" from "inserted") as "payments"`;
  return CompiledQuery.raw(text, p.values) as CompiledQuery<OutcomeCounts>;
}
