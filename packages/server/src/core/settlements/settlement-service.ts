import type { CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import type { StoredEvent } from '../events/stored-event.js';
import { csvChunks, type CsvExport } from '../exports/export-service.js';
import { csvDialects, type CsvDialectName } from '../exports/csv-cells.js';
import { balanceTransactionColumns } from '../exports/export-columns.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import { feeFor, type BalanceTransaction, type LedgerReader } from '../ledger/ledger.js';
import { payoutPostings } from '../ledger/payout-postings.js';
import { settlementPostings, type SettlementMoney } from '../ledger/settlement-postings.js';
import type { PaymentContext } from '../payments/payment-service.js';
import type { PayoutStatus } from '../payouts/payout.js';
import type { PayoutService } from '../payouts/payout-service.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import { checkMetadata, type Metadata } from '../shared/metadata.js';
import { notFoundIn } from '../shared/not-found.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import { isFinalSettlement, type Settlement, type SettlementDestination, type SettlementOrigin, type SettlementStatus } from './settlement.js';
import type { SettlementAccount } from './settlement-account.js';
import type { SettlementFilters, SettlementStore, StatementTotal } from './settlement-store.js';

export interface CreateSettlementInput {
  /** The settlement's id when the caller chose it (an approved request's: its execution, resumed, finds it); a new one otherwise. */
  id?: string;
  /** The settlement account's id. */
  accountId: string;
  currency: string;
  /** Centimes leaving the available balance, fee included; the whole available balance when absent. */
  amountMinor?: number;
  /** Yours, unique per merchant and environment; the settlement's id when absent. */
  reference?: string;
  description?: string;
  metadata?: Metadata;
  origin?: SettlementOrigin;
}

/** A settlement's statement: its frame, and its lines summed per balance-transaction type. */
export interface SettlementStatement {
  settlement: Settlement;
  totals: StatementTotal[];
  lineCount: number;
  availableChangeMinor: number;
  reservedChangeMinor: number;
  feeMinor: number;
}

export interface SettlementServiceDeps {
  store: SettlementStore;
  /** Where settlements may go: the account if usable now, else the refusal (not_found, cooling, removed). */
  accounts: { usable(ctx: TenantScope, id: string): Promise<SettlementAccount> };
  ledger: Pick<LedgerReader, 'balances'>;
  /** Reads a statement's lines page by page, oldest first (the CSV). */
  statementLines: (settlementId: string, page: { after?: string; limit: number }) => Promise<BalanceTransaction[]>;
  payouts: Pick<PayoutService, 'prepare' | 'initiated'>;
  catalog: OperatorCatalog;
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  /** Rows per read of a statement's CSV. */
  pageSize?: number;
}

/** Which settlement status a wallet settlement's payout status means. */
const statusOfPayout: Record<PayoutStatus, SettlementStatus> = {
  PENDING: 'pending',
  PROCESSING: 'in_transit',
  COMPLETED: 'paid',
  FAILED: 'failed',
  CANCELLED: 'failed',
};

/**
 * Settlements (docs/settlements.md): a merchant's available balance, in one currency, to its own
 * settlement account. A wallet settlement is sent by a payout made with it (the payout workers hand
 * it off at most once, with recorded phases) and follows that payout to `paid` or `failed`; a bank
 * one waits for an administrator (`markPaid` / `markFailed`). The settlement, its reservation, its
 * payout, its events and the stamping of the balance transactions its statement covers commit together.
 */
export class SettlementService {
  constructor(private readonly deps: SettlementServiceDeps) {}

  async create(ctx: PaymentContext, input: CreateSettlementInput, request: RecordedRequest<Settlement> = {}): Promise<Settlement> {
    const { account, amountMinor } = await this.prepare(ctx, input);
    const id = input.id ?? this.deps.newId();
    const reference = input.reference ?? id;
    const now = this.now();
    const operator = account.kind === 'wallet' ? this.walletOperator(account) : undefined;
    const feeMinor = operator ? feeFor(operator.payout.fee, amountMinor) : 0;
    if (amountMinor - feeMinor < 1) {
      throw AkweError.ofField(
        'amount_too_low',
        'amount',
        `A settlement of ${amountMinor / 100} ${account.currency} would leave nothing once its fee of ${feeMinor / 100} is taken.`,
      );
    }
    const draft: Settlement = {
      id,
      merchantId: ctx.merchantId,
      environment: ctx.environment,
      reference,
      accountId: account.id,
      kind: account.kind,
      status: 'pending',
      origin: input.origin ?? 'api',
      amountMinor,
      feeMinor,
      currency: account.currency,
      sequence: 0,
      destination: destinationOf(account),
      payoutId: operator ? id : null,
      bankReference: null,
      failureCode: null,
      failureMessage: null,
      openingAvailableMinor: 0,
      closingAvailableMinor: 0,
      openingReservedMinor: 0,
      closingReservedMinor: 0,
      description: input.description ?? null,
      metadata: checkMetadata(input.metadata),
      createdAt: now,
      updatedAt: now,
      settledAt: null,
      version: 1,
    };
    const payout = operator
      ? {
          ...this.deps.payouts.prepare(ctx, {
            id,
            reference: `settlement:${id}`,
            amountMinor: amountMinor - feeMinor,
            feeMinor,
            currency: account.currency,
            phone: account.phone!,
            country: account.country,
            operator: account.operator!,
            recipientFirstName: account.holderName,
            description: `Settlement ${reference}`,
            metadata: { settlement_id: id, settlement_reference: reference },
          }),
          settlementId: id,
        }
      : undefined;
    // The answer (and so the request's claim) holds the statement frame, known only inside the transaction.
    let claim: ReturnType<typeof finishWrite>;
    const stored = await this.deps.store.insert({
      draft,
      payout: payout && { payout, events: this.deps.payouts.initiated(payout).events },
      reservation: payout ? payoutPostings.reserved(payout) : settlementPostings.reserved(moneyOf(draft)),
      finish: (settlement) => {
        claim = finishWrite(request, settlement.id, settlement);
        return { events: [this.deps.events.settlement('created', settlement)], claim };
      },
    });
    reportCommitted(request, claim);
    return stored;
  }

  /**
   * The checks a settlement passes before anything is written (the account, its currency, an amount
   * to settle), and the amount it would move now: the one asked, or the whole available balance.
   */
  async prepare(ctx: PaymentContext, input: CreateSettlementInput): Promise<{ account: SettlementAccount; amountMinor: number }> {
    // Live money leaves only for an active, validated merchant; in test the sandbox float moves freely.
    if (ctx.environment === 'live') {
      if (ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
      if (ctx.merchant.kycStatus !== 'validated') throw new AkweError('kyc_required');
    }
    const account = await this.deps.accounts.usable(ctx, input.accountId);
    if (input.currency.toUpperCase() !== account.currency) {
      throw AkweError.ofField('settlement_currency_mismatch', 'currency', `Settlement account ${account.id} receives ${account.currency}; got ${input.currency}.`);
    }
    const amountMinor = input.amountMinor ?? (await this.available(ctx, account.currency));
    if (amountMinor <= 0) throw new AkweError('nothing_to_settle', `Your ${ctx.environment} available balance in ${account.currency} is zero.`);
    return { account, amountMinor };
  }

  async get(ctx: TenantScope, referenceOrId: string): Promise<Settlement> {
    const settlement = await this.deps.store.find(ctx, referenceOrId);
    if (!settlement) throw await notFoundIn(ctx, 'settlement', referenceOrId, (other) => this.deps.store.find(other, referenceOrId));
    return settlement;
  }

  list(ctx: TenantScope, filters: SettlementFilters, page: PageRequest): Promise<Page<Settlement>> {
    return this.deps.store.list(ctx, filters, page);
  }

  async statement(ctx: TenantScope, referenceOrId: string): Promise<SettlementStatement> {
    const settlement = await this.get(ctx, referenceOrId);
    const totals = await this.deps.store.statementTotals(settlement.id);
    const sum = (pick: (total: StatementTotal) => number) => totals.reduce((all, total) => all + pick(total), 0);
    return {
      settlement,
      totals,
      lineCount: sum((total) => total.count),
      availableChangeMinor: sum((total) => total.availableChangeMinor),
      reservedChangeMinor: sum((total) => total.reservedChangeMinor),
      feeMinor: sum((total) => total.feeMinor),
    };
  }

  /** The statement's lines as a CSV file, oldest first, read page by page as the reader takes them. */
  async statementCsv(ctx: TenantScope, referenceOrId: string, delimiter: CsvDialectName = 'comma'): Promise<CsvExport> {
    const settlement = await this.get(ctx, referenceOrId);
    return {
      fileName: `akwe-settlement-${settlement.reference.replace(/[^A-Za-z0-9._-]/g, '_')}-statement.csv`,
      chunks: csvChunks(balanceTransactionColumns, (page) => this.deps.statementLines(settlement.id, page), this.deps.pageSize ?? 1000, csvDialects[delimiter]),
    };
  }

  /** Moves wallet settlements to their payout's outcome: in transit, paid or failed. Returns how many moved. */
  async followDue(limit = 50): Promise<number> {
    let moved = 0;
    for (const { settlement, payoutStatus, payoutFailureCode, payoutMessage } of await this.deps.store.toFollow(limit)) {
      const status = statusOfPayout[payoutStatus];
      if (status === settlement.status || isFinalSettlement(settlement.status)) continue;
      const now = this.now();
      const failed = status === 'failed';
      const next: Settlement = {
        ...settlement,
        status,
        failureCode: failed ? (payoutFailureCode ?? 'operator_declined') : null,
        failureMessage: failed ? payoutMessage : null,
        settledAt: isFinalSettlement(status) ? now : null,
        updatedAt: now,
      };
      const events: StoredEvent[] = status === 'paid' ? [this.deps.events.settlement('paid', next)] : failed ? [this.deps.events.settlement('failed', next)] : [];
      // The payout's own commit moved the money; a second worker on the same row finds its version gone.
      if (await this.deps.store.save({ next, expectedVersion: settlement.version, events })) moved += 1;
    }
    return moved;
  }

  /** An administrator paid a bank settlement outside Akwe: `paid`, with the bank's reference. */
  async markPaid(id: string, bankReference: string): Promise<Settlement> {
    const settlement = await this.bankSettlement(id);
    if (settlement.status === 'paid' && settlement.bankReference === bankReference) return settlement;
    if (settlement.status !== 'pending')
      throw new AkweError('invalid_state_transition', `Settlement ${id} is ${settlement.status}; only a pending bank settlement can be marked paid.`);
    const now = this.now();
    const next: Settlement = { ...settlement, status: 'paid', bankReference, settledAt: now, updatedAt: now };
    return this.saveOrRetry(settlement, next, () => this.markPaid(id, bankReference), [settlementPostings.paid(moneyOf(next))]);
  }

  /** An administrator could not pay a bank settlement (or the bank returned it): `failed`, its money released. */
  async markFailed(id: string, reason: string): Promise<Settlement> {
    const settlement = await this.bankSettlement(id);
    if (settlement.status === 'failed') return settlement;
    if (settlement.status !== 'pending')
      throw new AkweError('invalid_state_transition', `Settlement ${id} is ${settlement.status}; only a pending bank settlement can be marked failed.`);
    const now = this.now();
    const next: Settlement = { ...settlement, status: 'failed', failureCode: 'bank_rejected', failureMessage: reason, settledAt: now, updatedAt: now };
    return this.saveOrRetry(settlement, next, () => this.markFailed(id, reason), [settlementPostings.released(moneyOf(next))]);
  }

  /** Bank settlements waiting for an administrator, any merchant, oldest first (the CLI's list). */
  awaitingBank(limit: number): Promise<Settlement[]> {
    return this.deps.store.awaitingBank(limit);
  }

  private async saveOrRetry(current: Settlement, next: Settlement, again: () => Promise<Settlement>, ledger: SettlementChangeLedger): Promise<Settlement> {
    const event = this.deps.events.settlement(next.status === 'paid' ? 'paid' : 'failed', next);
    if (await this.deps.store.save({ next, expectedVersion: current.version, events: [event], ledger })) return { ...next, version: current.version + 1 };
    return again(); // moved meanwhile: answer what it became
  }

  private async bankSettlement(id: string): Promise<Settlement> {
    const settlement = await this.deps.store.findAnyById(id);
    if (!settlement) throw new AkweError('not_found', `No settlement ${id}.`);
    if (settlement.kind !== 'bank') throw new AkweError('invalid_state_transition', `Settlement ${id} goes to a wallet: its payout decides its outcome.`);
    return settlement;
  }

  private walletOperator(account: SettlementAccount): CatalogOperator {
    const operator = this.deps.catalog.operatorFor(account.country, account.operator!, 'payout');
    if (!operator) throw new AkweError('invalid_operator', `Operator ${account.operator} no longer pays out in ${account.country}; register another settlement account.`);
    return operator;
  }

  private async available(ctx: TenantScope, currency: string): Promise<number> {
    return (await this.deps.ledger.balances(ctx)).find((balance) => balance.currency === currency)?.availableMinor ?? 0;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

type SettlementChangeLedger = NonNullable<Parameters<SettlementStore['save']>[0]['ledger']>;

function moneyOf(settlement: Settlement): SettlementMoney {
  return {
    merchantId: settlement.merchantId,
    environment: settlement.environment,
    currency: settlement.currency,
    settlementId: settlement.id,
    reference: settlement.reference,
    netMinor: settlement.amountMinor - settlement.feeMinor,
    feeMinor: settlement.feeMinor,
  };
}

function destinationOf(account: SettlementAccount): SettlementDestination {
  if (account.kind === 'wallet') return { kind: 'wallet', country: account.country, operator: account.operator!, phone: account.phone!, holderName: account.holderName };
  return { kind: 'bank', country: account.country, iban: account.iban!, bankName: account.bankName, holderName: account.holderName };
}
