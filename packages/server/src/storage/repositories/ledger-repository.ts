import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Currency } from '../../core/catalog/operator-catalog.js';
import { accountKinds, insufficientBalance, type AccountKind, type Balance, type BalanceTransaction, type BalanceTransactionType, type LedgerPosting } from '../../core/ledger/ledger.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { IdSource } from '../../core/ports.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import { isCheckViolation } from '../check-violation.js';
import { keysetQuery, toPage } from '../keyset-page.js';
import type { Database, LedgerTransactionTable } from '../schema.js';

export interface BalanceTransactionFilters {
  type?: BalanceTransactionType;
  createdGte?: string;
  createdLte?: string;
}

/** Scopes whose account ids are remembered before the memory is emptied and read again. */
const KNOWN_ACCOUNTS_LIMIT = 10_000;

/** The currency every test balance is opened in at first sight, so it shows its float at once. */
const TEST_OPENING_CURRENCY: Currency = 'XOF';

function transactionFromRow(row: Selectable<LedgerTransactionTable>): BalanceTransaction {
  return {
    id: row.id,
    type: row.type as BalanceTransactionType,
    currency: row.currency as Currency,
    environment: row.environment as Environment,
    availableChangeMinor: Number(row.available_change_minor),
    reservedChangeMinor: Number(row.reserved_change_minor),
    feeMinor: Number(row.fee_minor),
    source: { type: row.source_type as LedgerPosting['source']['type'], id: row.source_id, reference: row.source_reference },
    description: row.description,
    createdAt: row.created_at,
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

  constructor(
    private readonly db: Kysely<Database>,
    private readonly newId: IdSource,
    private readonly clock: { now(): Date },
    /** Centimes a test balance starts with (PRODUCT.md "Sandbox"); live balances start at zero. */
    private readonly sandboxFloatMinor: number,
  ) {}

  async post(trx: Transaction<Database> | Kysely<Database>, postings: readonly LedgerPosting[]): Promise<void> {
    for (const entry of postings) await this.postOne(trx, entry);
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

  async transactions(scope: TenantScope, filters: BalanceTransactionFilters, page: PageRequest): Promise<Page<BalanceTransaction>> {
    const rows = await balanceTransactionQuery(this.db, scope, filters, page).execute();
    return toPage(rows.map(transactionFromRow), page);
  }

  /**
   * The transaction and its entries first, the balances last: on PostgreSQL an account's row stays
   * locked from its UPDATE to the commit, and every posting of a merchant meets on the same rows,
   * so the fewer statements after the UPDATEs, the more postings go through each second.
   */
  private async postOne(trx: Transaction<Database> | Kysely<Database>, entry: LedgerPosting, opened?: Map<AccountKind, string>): Promise<void> {
    const now = this.clock.now().toISOString();
    const id = this.newId();
    const change = (kind: AccountKind) => entry.lines.filter((line) => line.kind === kind).reduce((sum, line) => sum + line.amountMinor, 0);
    const accounts = opened ?? (await this.accountsFor(trx, entry, entry.currency));
    await trx
      .insertInto('ledger_transactions')
      .values({
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
      })
      .execute();
    await trx
      .insertInto('ledger_entries')
      .values(entry.lines.map((line) => ({ id: this.newId(), transaction_id: id, account_id: accounts.get(line.kind)!, amount_minor: line.amountMinor, created_at: now })))
      .execute();
    await this.applyLines(trx, entry, accounts, now);
  }

  /**
   * Adds each line to its account's balance, always in the same account order, whatever the
   * posting's, so two transactions touching the same accounts take their row locks in one order
   * and cannot deadlock (PostgreSQL).
   */
  private async applyLines(trx: Transaction<Database> | Kysely<Database>, entry: LedgerPosting, accounts: Map<AccountKind, string>, now: string): Promise<void> {
    const lockOrder = [...entry.lines].sort((a, b) => accountKinds.indexOf(a.kind) - accountKinds.indexOf(b.kind));
    try {
      for (const line of lockOrder) {
        const result = await trx
          .updateTable('ledger_accounts')
          .set((eb) => ({ balance_minor: eb('balance_minor', '+', line.amountMinor), updated_at: now }))
          .where('id', '=', accounts.get(line.kind)!)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw new Error(`ledger account ${line.kind} of ${entry.merchantId} is missing`);
      }
    } catch (error) {
      if (isCheckViolation(error)) throw insufficientBalance(-entry.lines.filter((l) => l.kind === 'available').reduce((sum, l) => sum + l.amountMinor, 0), entry.currency);
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
      .values(accountKinds.map((kind) => ({ id: this.newId(), merchant_id: scope.merchantId, environment: scope.environment, currency, kind, balance_minor: 0, created_at: now, updated_at: now })))
      .onConflict((oc) => oc.columns(['merchant_id', 'environment', 'currency', 'kind']).doNothing())
      .returning(['kind'])
      .execute();
    const accounts = await this.accountIds(trx, scope, currency);
    if (scope.environment === 'test' && this.sandboxFloatMinor > 0 && opened.some((row) => row.kind === 'available')) {
      await this.postOne(trx, {
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
      }, accounts);
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
  let query = db.selectFrom('ledger_transactions').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
  if (filters.type) query = query.where('type', '=', filters.type);
  if (filters.createdGte) query = query.where('created_at', '>=', filters.createdGte);
  if (filters.createdLte) query = query.where('created_at', '<=', filters.createdLte);
  return keysetQuery(query, 'id', page);
}
