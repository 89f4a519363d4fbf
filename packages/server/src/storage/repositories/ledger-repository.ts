import { CompiledQuery, SqliteAdapter, type Kysely, type Transaction } from 'kysely';
import type { Currency } from '../../core/catalog/operator-catalog.js';
import {
  accountKinds,
  insufficientBalance,
  type AccountKind,
  type Balance,
  type BalanceTransaction,
  type BalanceTransactionType,
  type LedgerPosting,
} from '../../core/ledger/ledger.js';
import type { TenantScope } from '../../core/shared/environment.js';
import type { IdSource } from '../../core/ports.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import { quote, type OneStatement } from '../postgres/one-statement.js';
import { isCheckViolation } from '../check-violation.js';
import { keysetQuery } from '../keyset-page.js';
import { createdWithin, listPage, listRows } from '../list-query.js';
import type { Database } from '../schema.js';
import { balanceTransactionFromRow } from './row-mappers.js';
import { PreparedInsert, PreparedQuery } from '../prepared-query.js';

export interface BalanceTransactionFilters {
  type?: BalanceTransactionType;
  /** Only the transactions this settlement's statement covers. */
  settlementId?: string;
  createdGte?: string;
  createdLte?: string;
}

/** Scopes whose account ids are remembered before the memory is emptied and read again. */
const KNOWN_ACCOUNTS_LIMIT = 10_000;

/** The currency every test balance is opened in at first sight, so it shows its float at once. */
const TEST_OPENING_CURRENCY: Currency = 'XOF';

/** A posting's `ledger_transactions` row: what it changes in each balance, and its fee. */
function transactionRow(id: string, entry: LedgerPosting, now: string) {
  const change = (kind: AccountKind) => entry.lines.filter((line) => line.kind === kind).reduce((sum, line) => sum + line.amountMinor, 0);
  return {
    id,
    merchant_id: entry.merchantId,
    environment: entry.environment,
    currency: entry.currency,
    type: entry.type,
    source_type: entry.source.type,
    source_id: entry.source.id,
    source_reference: entry.source.reference,
    description: entry.description,
    available_change_minor: change('available'),
    reserved_change_minor: change('reserved'),
    fee_minor: change('fees'),
    created_at: now,
  };
}

/**
 * Writes postings inside the caller's transaction and reads balances. A posting that would take
 * an available or reserved balance below zero trips the database's CHECK constraint: it becomes
 * 422 insufficient_balance and the caller's whole transaction rolls back.
 */
export class LedgerRepository {
  /** Account ids by scope and currency, read once: accounts are never deleted. */
  private readonly knownAccounts = new Map<string, Map<AccountKind, string>>();
  // Every completed collection posts: built once (see prepared-query.ts).
  private readonly moveBalance;
  private readonly transactionRows: PreparedInsert<'ledger_transactions'>;
  private readonly entryRows: PreparedInsert<'ledger_entries'>;
  /** SQLite: a posting's balances move in one UPDATE (see applyLines); its text per account count. */
  private readonly oneBalanceUpdate: boolean;
  private readonly balanceUpdateTexts = new Map<number, string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly newId: IdSource,
    private readonly clock: { now(): Date },
    /** Centimes a test balance starts with (the sandbox float, so payouts can be tried at once); live balances start at zero. */
    private readonly sandboxFloatMinor: number,
  ) {
    this.moveBalance = new PreparedQuery(db, (db, amountMinor: number, now: string, merchantId: string, environment: string, currency: string, kind: string) =>
      db
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance_minor: eb('balance_minor', '+', amountMinor), updated_at: now }))
        .where('merchant_id', '=', merchantId)
        .where('environment', '=', environment)
        .where('currency', '=', currency)
        .where('kind', '=', kind)
        .returning('id'),
    );
    this.transactionRows = new PreparedInsert(db, 'ledger_transactions');
    this.entryRows = new PreparedInsert(db, 'ledger_entries');
    this.oneBalanceUpdate = db.getExecutor().adapter instanceof SqliteAdapter;
  }

  /**
   * Writes the postings in the caller's transaction. Postings of the same balance (merchant,
   * environment, currency; a bulk batch's reservations) are written together: their transactions
   * and entries in one INSERT each, and each account's balance moved once by their sum.
   */
  async post(trx: Transaction<Database> | Kysely<Database>, postings: readonly LedgerPosting[]): Promise<void> {
    const groups = new Map<string, LedgerPosting[]>();
    for (const entry of postings) {
      const key = `${entry.merchantId} ${entry.environment} ${entry.currency}`;
      const group = groups.get(key);
      if (group) group.push(entry);
      else groups.set(key, [entry]);
    }
    for (const group of groups.values()) await this.postGroup(trx, group);
  }

  /**
   * Whether PostgreSQL's outcome statement can write this posting: one line per account. (A
   * posting whose accounts are not open yet is found by that statement's `accounts` check.)
   */
  fitsOneStatement(entry: LedgerPosting): boolean {
    return new Set(entry.lines.map((line) => line.kind)).size === entry.lines.length;
  }

  /**
   * The first gate of a one-statement phase that posts `entry` (PostgreSQL): one row when the
   * accounts it touches are all open (accounts are never deleted, so the statement's snapshot is
   * enough). None means nothing was written, and the caller runs the phase as a transaction, which
   * opens them (`post`): that happens once per merchant, environment and currency.
   */
  addAccountsCheck(statement: OneStatement, gate: string, entry: LedgerPosting): void {
    const p = (value: unknown) => statement.param(value);
    const kinds = entry.lines.map((line) => p(line.kind)).join(', ');
    statement.add(
      gate,
      `select 1 where (select count(*) from "ledger_accounts" where "merchant_id" = ${p(entry.merchantId)} and "environment" = ${p(entry.environment)} ` +
        `and "currency" = ${p(entry.currency)} and "kind" in (${kinds})) = ${entry.lines.length} and ${statement.guard}`,
      { gate: true },
    );
  }

  /**
   * `post` for postings of the same accounts (merchant, environment, currency and kinds), as writes
   * of a one-statement phase: each posting is written only if its `gate` wrote (its request's claim
   * and payment). The accounts are locked once, in the same order as `applyLines` takes them (so a
   * phase and a transaction touching the same accounts cannot deadlock), and each balance moves once
   * by the sum of the postings that went through; each posting keeps its own transaction and
   * entries. A balance taken below zero fails the whole statement (CHECK), which the caller turns
   * into `insufficientBalance` as `post` does.
   */
  addPostings(statement: OneStatement, postings: readonly { entry: LedgerPosting; gate: string | undefined }[]): void {
    const p = (value: unknown, cast?: string) => statement.param(value, cast);
    const first = postings[0]!.entry;
    const now = this.clock.now().toISOString();
    const exists = (gate: string | undefined) => (gate ? `exists (select 1 from ${quote(gate)})` : 'true');
    const kinds = [...first.lines].map((line) => line.kind).sort((a, b) => accountKinds.indexOf(a) - accountKinds.indexOf(b));
    statement.from(undefined);
    // The postings whose requests wrote (by position): only these move the balances.
    statement.add('ledger_passed', postings.map(({ gate }, index) => `select ${index} as "i" where ${exists(gate)}`).join(' union all '));
    const scope = `"merchant_id" = ${p(first.merchantId)} and "environment" = ${p(first.environment)} and "currency" = ${p(first.currency)}`;
    // Row locks in the sorted order: FOR UPDATE locks the rows after sorting them.
    statement.add(
      'ledger_locked',
      `select "id" from "ledger_accounts" where ${scope} and "kind" in (${kinds.map((kind) => p(kind)).join(', ')}) and exists (select 1 from "ledger_passed") ` +
        `order by case "kind" ${kinds.map((kind, index) => `when ${p(kind)} then ${index}`).join(' ')} end for update`,
    );
    const amounts = postings.flatMap(({ entry }, index) => entry.lines.map((line) => `(${index}, ${p(line.kind, 'text')}, ${p(line.amountMinor, 'bigint')})`)).join(', ');
    statement.add(
      'ledger_balances',
      `update "ledger_accounts" as "a" set "balance_minor" = "a"."balance_minor" + "d"."amount", "updated_at" = ${p(now)} ` +
        `from (select "v"."kind", sum("v"."amount")::bigint as "amount" from (values ${amounts}) as "v" ("i", "kind", "amount") ` +
        `where "v"."i" in (select "i" from "ledger_passed") group by "v"."kind") as "d" ` +
        `where "a"."id" in (select "id" from "ledger_locked") and "a"."kind" = "d"."kind" returning "a"."id", "a"."kind"`,
    );
    postings.forEach(({ entry, gate }, index) => {
      const id = this.newId();
      statement.from(gate);
      statement.add(`ledger_transaction_${index}`, statement.insertRow('ledger_transactions', transactionRow(id, entry, now)));
      const entries = entry.lines.map((line) => `(${p(this.newId(), 'text')}, ${p(line.kind, 'text')}, ${p(line.amountMinor, 'bigint')})`).join(', ');
      statement.add(
        `ledger_entries_${index}`,
        `insert into "ledger_entries" ("id", "transaction_id", "account_id", "amount_minor", "created_at") ` +
          `select "v"."id", ${p(id, 'text')}, "b"."id", "v"."amount", ${p(now, 'text')} from (values ${entries}) as "v" ("id", "kind", "amount") ` +
          `join "ledger_balances" as "b" on "b"."kind" = "v"."kind" where ${exists(gate)}`,
      );
    });
  }

  /**
   * A posting as rows of PostgreSQL's outcome statement (postgres/payment-outcomes-statement.ts):
   * its transaction row and its entries (kind and amount; the statement finds the account ids).
   */
  postingRows(entry: LedgerPosting, now: string) {
    const transaction = transactionRow(this.newId(), entry, now);
    return { transaction, entries: entry.lines.map((line) => ({ id: this.newId(), transaction_id: transaction.id, kind: line.kind, amount_minor: line.amountMinor })) };
  }

  /** The kinds a posting moves, in the order their rows are locked (as `applyLines` takes them). */
  lockOrder(entry: LedgerPosting): AccountKind[] {
    return entry.lines.map((line) => line.kind).sort((a, b) => accountKinds.indexOf(a) - accountKinds.indexOf(b));
  }

  now(): string {
    return this.clock.now().toISOString();
  }

  /** Postings that `addPostings` may write in one statement: same merchant, environment, currency and kinds. */
  accountsKey(entry: LedgerPosting): string {
    return [entry.merchantId, entry.environment, entry.currency, ...entry.lines.map((line) => line.kind).sort()].join('|');
  }

  async balances(scope: TenantScope): Promise<Balance[]> {
    // A test balance shows its float before any activity: opening it is the one write a read does.
    if (scope.environment === 'test') await this.db.transaction().execute((trx) => this.openAccounts(trx, scope, TEST_OPENING_CURRENCY));
    const rows = await this.db
      .selectFrom('ledger_accounts')
      .select(['currency', 'kind', 'balance_minor'])
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .where('kind', 'in', ['available', 'reserved'])
      .orderBy('currency')
      .execute();
    const byCurrency = new Map<Currency, Balance>();
    for (const row of rows) {
      const currency = row.currency as Currency;
      const balance = byCurrency.get(currency) ?? { currency, availableMinor: 0, reservedMinor: 0 };
      if (row.kind === 'available') balance.availableMinor = Number(row.balance_minor);
      else balance.reservedMinor = Number(row.balance_minor);
      byCurrency.set(currency, balance);
    }
    return [...byCurrency.values()];
  }

  /** One currency's available and reserved balances as the caller's transaction sees them. */
  async balanceIn(trx: Kysely<Database>, scope: TenantScope, currency: Currency): Promise<Balance> {
    const rows = await trx
      .selectFrom('ledger_accounts')
      .select(['kind', 'balance_minor'])
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .where('currency', '=', currency)
      .where('kind', 'in', ['available', 'reserved'])
      .execute();
    const of = (kind: AccountKind) => Number(rows.find((row) => row.kind === kind)?.balance_minor ?? 0);
    return { currency, availableMinor: of('available'), reservedMinor: of('reserved') };
  }

  async transactions(scope: TenantScope, filters: BalanceTransactionFilters, page: PageRequest): Promise<Page<BalanceTransaction>> {
    return listPage({ all: balanceTransactionRows(this.db, scope, {}), filtered: balanceTransactionRows(this.db, scope, filters) }, page, balanceTransactionFromRow);
  }

  /**
   * The transactions and their entries first, the balances last: on PostgreSQL an account's row
   * stays locked from its UPDATE to the commit, and every posting of a merchant meets on the same
   * rows, so the fewer statements after the UPDATEs, the more postings go through each second.
   * `entries` share one merchant, environment and currency.
   */
  private async postGroup(trx: Transaction<Database> | Kysely<Database>, entries: readonly LedgerPosting[], opened?: Map<AccountKind, string>): Promise<void> {
    const first = entries[0]!;
    const now = this.clock.now().toISOString();
    const accounts = opened ?? (await this.accountsFor(trx, first, first.currency));
    const transactions = entries.map((entry) => transactionRow(this.newId(), entry, now));
    await this.transactionRows.execute(trx, transactions);
    await this.entryRows.execute(
      trx,
      entries.flatMap((entry, index) =>
        entry.lines.map((line) => ({
          id: this.newId(),
          transaction_id: transactions[index]!.id,
          account_id: accounts.get(line.kind)!,
          amount_minor: line.amountMinor,
          created_at: now,
        })),
      ),
    );
    if (this.oneBalanceUpdate) await this.applyLinesAtOnce(trx, entries, now, accounts);
    else await this.applyLines(trx, entries, now);
  }

  /**
   * SQLite: the same moves as applyLines in one UPDATE by account id. SQLite has one writer and no
   * row locks, so the order in which the rows change does not matter, and one statement costs less
   * than one per account. The accounts' check (never overdrawn) holds row by row as before.
   */
  private async applyLinesAtOnce(trx: Transaction<Database> | Kysely<Database>, entries: readonly LedgerPosting[], now: string, accounts: Map<AccountKind, string>): Promise<void> {
    const first = entries[0]!;
    const moves = new Map<string, number>();
    for (const line of entries.flatMap((entry) => entry.lines)) {
      const id = accounts.get(line.kind);
      if (!id) throw new Error(`ledger account ${line.kind} of ${first.merchantId} is missing`);
      moves.set(id, (moves.get(id) ?? 0) + line.amountMinor);
    }
    const ids = [...moves.keys()];
    const parameters = [...ids.flatMap((id) => [id, moves.get(id)!]), now, ...ids];
    try {
      const { rows } = await trx.executeQuery(CompiledQuery.raw(this.balanceUpdateText(ids.length), parameters));
      if (rows.length !== ids.length) throw new Error(`ledger accounts of ${first.merchantId} are missing`);
    } catch (error) {
      if (isCheckViolation(error))
        throw insufficientBalance(-entries.flatMap((entry) => entry.lines).reduce((sum, line) => sum + (line.kind === 'available' ? line.amountMinor : 0), 0), first.currency);
      throw error;
    }
  }

  private balanceUpdateText(accountCount: number): string {
    let text = this.balanceUpdateTexts.get(accountCount);
    if (!text) {
      const cases = Array.from({ length: accountCount }, () => 'when ? then ?').join(' ');
      const ids = Array.from({ length: accountCount }, () => '?').join(', ');
      text = `update "ledger_accounts" set "balance_minor" = "balance_minor" + case "id" ${cases} end, "updated_at" = ? where "id" in (${ids}) returning "id"`;
      this.balanceUpdateTexts.set(accountCount, text);
    }
    return text;
  }

  /**
   * Adds the lines to their accounts' balances, one UPDATE per account, always in the same account
   * order, whatever the postings', so two transactions touching the same accounts take their row
   * locks in one order and cannot deadlock (PostgreSQL).
   */
  private async applyLines(trx: Transaction<Database> | Kysely<Database>, entries: readonly LedgerPosting[], now: string): Promise<void> {
    const first = entries[0]!;
    const moves = new Map<AccountKind, number>();
    for (const line of entries.flatMap((entry) => entry.lines)) moves.set(line.kind, (moves.get(line.kind) ?? 0) + line.amountMinor);
    const lockOrder = [...moves.keys()].sort((a, b) => accountKinds.indexOf(a) - accountKinds.indexOf(b));
    try {
      for (const kind of lockOrder) {
        const row = await this.moveBalance.first(trx, moves.get(kind)!, now, first.merchantId, first.environment, first.currency, kind);
        if (!row) throw new Error(`ledger account ${kind} of ${first.merchantId} is missing`);
      }
    } catch (error) {
      if (isCheckViolation(error)) throw insufficientBalance(-(moves.get('available') ?? 0), first.currency);
      throw error;
    }
  }

  /**
   * The ids of the scope's accounts in a currency, opening them on first use. Accounts are never
   * deleted, so ids read from committed rows are remembered; ids of accounts this transaction
   * opened are not, as it may yet roll back.
   */
  private async accountsFor(trx: Transaction<Database> | Kysely<Database>, scope: TenantScope, currency: Currency): Promise<Map<AccountKind, string>> {
    const key = `${scope.merchantId} ${scope.environment} ${currency}`;
    const known = this.knownAccounts.get(key);
    if (known) return known;
    const existing = await this.accountIds(trx, scope, currency);
    if (existing.size === accountKinds.length) {
      if (this.knownAccounts.size >= KNOWN_ACCOUNTS_LIMIT) this.knownAccounts.clear();
      this.knownAccounts.set(key, existing);
      return existing;
    }
    return this.openAccounts(trx, scope, currency);
  }

  /**
   * The scope's accounts in one currency, created on first use. A test `available` account is
   * born with the sandbox float, posted like any other transaction so the entries still add up.
   */
  private async openAccounts(trx: Transaction<Database> | Kysely<Database>, scope: TenantScope, currency: Currency): Promise<Map<AccountKind, string>> {
    const existing = await this.accountIds(trx, scope, currency);
    // Every posting after the first finds its accounts: a read, no write.
    if (existing.size === accountKinds.length) return existing;
    const now = this.clock.now().toISOString();
    const opened = await trx
      .insertInto('ledger_accounts')
      .values(
        accountKinds.map((kind) => ({
          id: this.newId(),
          merchant_id: scope.merchantId,
          environment: scope.environment,
          currency,
          kind,
          balance_minor: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['merchant_id', 'environment', 'currency', 'kind']).doNothing())
      .returning(['kind'])
      .execute();
    const accounts = await this.accountIds(trx, scope, currency);
    if (scope.environment === 'test' && this.sandboxFloatMinor > 0 && opened.some((row) => row.kind === 'available')) {
      await this.postGroup(
        trx,
        [
          {
            merchantId: scope.merchantId,
            environment: scope.environment,
            currency,
            type: 'sandbox_float',
            source: { type: 'account', id: accounts.get('available')!, reference: null },
            description: 'Sandbox float: the test balance’s starting money',
            lines: [
              { kind: 'sandbox_float', amountMinor: -this.sandboxFloatMinor },
              { kind: 'available', amountMinor: this.sandboxFloatMinor },
            ],
          },
        ],
        accounts,
      );
    }
    return accounts;
  }

  private async accountIds(trx: Transaction<Database> | Kysely<Database>, scope: TenantScope, currency: Currency): Promise<Map<AccountKind, string>> {
    const rows = await trx
      .selectFrom('ledger_accounts')
      .select(['id', 'kind'])
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .where('currency', '=', currency)
      .execute();
    return new Map(rows.map((row) => [row.kind as AccountKind, row.id]));
  }
}

/** A page of the scope's balance transactions, newest first (exported for the query-plan test). */
export function balanceTransactionQuery(db: Kysely<Database>, scope: TenantScope, filters: BalanceTransactionFilters, page: PageRequest) {
  const { query, idColumn } = balanceTransactionRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The scope's balance transactions that the filters keep, before paging. */
export function balanceTransactionRows(db: Kysely<Database>, scope: TenantScope, filters: BalanceTransactionFilters) {
  return listRows(db.selectFrom('ledger_transactions').selectAll(), {
    scope,
    filters: [['settlement_id', '=', filters.settlementId], ['type', '=', filters.type], ...createdWithin(filters)],
  });
}
