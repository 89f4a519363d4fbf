import type { Currency } from '../catalog/operator-catalog.js';
import { AkweError, type ErrorCode } from '../errors/index.js';
import type { LedgerReader } from '../ledger/ledger.js';
import type { Merchant } from '../merchants/merchant.js';
import type { PaymentContext } from '../payments/payment-service.js';
import type { Clock } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import type { Metadata } from '../shared/metadata.js';
import { notFoundIn } from '../shared/not-found.js';
import type { Settlement, SettlementOrigin } from './settlement.js';
import {
  DEFAULT_SCHEDULE_MINIMUM_MINOR,
  scheduleAnchorRanges,
  unsetSchedule,
  type ScheduleRunOutcome,
  type SettlementInterval,
  type SettlementSchedule,
} from './settlement-schedule.js';
import type { SettlementScheduleStore } from './settlement-schedule-store.js';
import { nextRunAfter, runAtOrBefore } from './settlement-schedule-times.js';
import type { SettlementAccountStore } from './settlement-account-store.js';

export interface PutScheduleInput {
  interval: SettlementInterval;
  /** Weekly: ISO weekday 1 (Monday) to 7, default 1; monthly: day 1 to 28, default 1; refused otherwise. */
  anchor?: number;
  /** Required unless the interval is off. */
  accountId?: string;
  minimumMinor?: number;
  reserveMinor?: number;
}

/** What a schedule asks of the settlements core (SettlementService.create). */
export interface ScheduleSettlements {
  create(
    ctx: PaymentContext,
    input: { accountId: string; currency: string; amountMinor?: number; reference?: string; description?: string; metadata?: Metadata; origin?: SettlementOrigin },
  ): Promise<Settlement>;
}

export interface SettlementScheduleServiceDeps {
  store: SettlementScheduleStore;
  /** The settlement accounts a schedule may name (the accounts' own store: one lookup for both). */
  accounts: Pick<SettlementAccountStore, 'find'>;
  settlements: ScheduleSettlements;
  ledger: Pick<LedgerReader, 'balances'>;
  merchants: { findById(id: string): Promise<Merchant | undefined> };
  clock: Clock;
  /** How long a worker's claim on a run lasts: past it, another worker tries the run again (ms). */
  claimMs?: number;
}

/** A settlement is local work (a wallet one's payout is handed off by the payout worker): minutes are plenty. */
const DEFAULT_CLAIM_MS = 5 * 60_000;

/** The settlements core's refusals that a run records under a name of its own. */
const outcomeOfError: Partial<Record<ErrorCode, ScheduleRunOutcome>> = {
  settlement_account_cooling: 'account_cooling',
  settlement_account_removed: 'account_removed',
};

/**
 * Settlement schedules (docs/settlements.md "Schedule"): per merchant, environment and currency, when
 * the available balance is settled by itself, and the runs that do it. A run claims its schedule
 * (no two workers run the same one), settles `available - reserve` if that reaches the minimum,
 * and records what happened. Its settlement's reference names the run (`auto-<currency>-<date>`),
 * so a worker that died after settling and before recording finds the settlement on the retry
 * instead of making a second one.
 */
export class SettlementScheduleService {
  private readonly claimMs: number;

  constructor(private readonly deps: SettlementScheduleServiceDeps) {
    this.claimMs = deps.claimMs ?? DEFAULT_CLAIM_MS;
  }

  async put(ctx: TenantScope, askedCurrency: string, input: PutScheduleInput): Promise<SettlementSchedule> {
    const anchor = checkedAnchor(input.interval, input.anchor);
    if (input.interval !== 'off' && input.accountId === undefined) {
      throw AkweError.ofField('validation_error', 'settlement_account', `A ${input.interval} schedule needs the settlement_account it settles to.`);
    }
    const currency = await this.balanceCurrency(ctx, askedCurrency);
    const accountId = input.accountId === undefined ? null : await this.checkedAccount(ctx, input.accountId, currency);
    const now = this.deps.clock.now();
    const current = (await this.deps.store.find(ctx, currency)) ?? unsetSchedule(ctx, currency);
    return this.deps.store.put({
      ...current,
      interval: input.interval,
      anchor,
      accountId,
      minimumMinor: input.minimumMinor ?? DEFAULT_SCHEDULE_MINIMUM_MINOR,
      reserveMinor: input.reserveMinor ?? 0,
      nextRunAt: nextRunAfter(input.interval, anchor, now)?.toISOString() ?? null,
      createdAt: current.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    });
  }

  /** The currency's schedule; one never set reads as off with the defaults. */
  async get(ctx: TenantScope, askedCurrency: string): Promise<SettlementSchedule> {
    const stored = await this.deps.store.find(ctx, askedCurrency.toUpperCase());
    return stored ?? unsetSchedule(ctx, await this.balanceCurrency(ctx, askedCurrency));
  }

  /** A schedule per currency of the balance (never set: off), and any other set before, by currency. */
  async list(ctx: TenantScope): Promise<SettlementSchedule[]> {
    const [stored, balances] = await Promise.all([this.deps.store.list(ctx), this.deps.ledger.balances(ctx)]);
    const byCurrency = new Map<string, SettlementSchedule>(stored.map((schedule) => [schedule.currency, schedule]));
    for (const { currency } of balances) if (!byCurrency.has(currency)) byCurrency.set(currency, unsetSchedule(ctx, currency));
    return [...byCurrency.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  }

  /**
   * Runs the schedules due now, at most `limit`; resolves to how many it ran. A run that fails
   * unexpectedly (the database, say) is left claimed, so it is tried again once the claim ends;
   * the others of the pass still run, and the first such failure is thrown afterwards to be logged.
   */
  async runDue(limit = 20): Promise<number> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.store.claimDue(now.toISOString(), new Date(now.getTime() + this.claimMs).toISOString(), limit);
    let failure: unknown;
    for (const { schedule } of claimed) {
      try {
        const { outcome, settlementId } = await this.settle(schedule, now);
        await this.deps.store.recordRun(schedule, {
          lastRunAt: now.toISOString(),
          lastOutcome: outcome,
          lastSettlementId: settlementId,
          // From the claim's instant: a run late by days schedules the next future one, not the missed ones.
          nextRunAt: nextRunAfter(schedule.interval, schedule.anchor, now)?.toISOString() ?? null,
        });
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
    return claimed.length;
  }

  private async settle(schedule: SettlementSchedule, now: Date): Promise<{ outcome: ScheduleRunOutcome; settlementId: string | null }> {
    const scope: TenantScope = { merchantId: schedule.merchantId, environment: schedule.environment };
    // The run this one stands for (the latest it may have missed) names the settlement: every try of
    // the same run asks for the same reference, and the settlements core makes at most one.
    const standsFor = runAtOrBefore(schedule.interval, schedule.anchor, now) ?? now;
    const reference = `auto-${schedule.currency}-${standsFor.toISOString().slice(0, 10)}`;
    // An earlier try that settled and died before recording: its settlement took the money, so the
    // balance would now read as below the minimum. Found first, it is recorded as this run's.
    const earlier = await this.madeEarlier(scope, reference);
    if (earlier) return earlier;

    const merchant = await this.deps.merchants.findById(schedule.merchantId);
    if (!merchant) return { outcome: 'merchant_not_found', settlementId: null };
    // The PUT refuses a running schedule without an account; a row edited by hand still gets a clear outcome.
    if (schedule.accountId === null) return { outcome: 'not_found', settlementId: null };
    const balance = (await this.deps.ledger.balances(scope)).find((each) => each.currency === schedule.currency);
    const amountMinor = (balance?.availableMinor ?? 0) - schedule.reserveMinor;
    if (amountMinor < schedule.minimumMinor) return { outcome: 'below_minimum', settlementId: null };

    try {
      const settlement = await this.deps.settlements.create(
        { ...scope, merchant },
        { accountId: schedule.accountId, currency: schedule.currency, amountMinor, reference, description: `Scheduled ${schedule.interval} settlement`, origin: 'schedule' },
      );
      return { outcome: 'settled', settlementId: settlement.id };
    } catch (error) {
      if (!(error instanceof AkweError)) throw error;
      // Another try of the same run settled between the look above and this one.
      if (error.code === 'duplicate_reference') return (await this.madeEarlier(scope, reference)) ?? { outcome: 'duplicate_reference', settlementId: null };
      return { outcome: outcomeOfError[error.code] ?? error.code, settlementId: null };
    }
  }

  /** The run's settlement if one exists: settled by a schedule, or a merchant's own under the run's reference (refused). */
  private async madeEarlier(scope: TenantScope, reference: string): Promise<{ outcome: ScheduleRunOutcome; settlementId: string | null } | undefined> {
    const earlier = await this.deps.store.findSettlement(scope, reference);
    if (!earlier) return undefined;
    return earlier.origin === 'schedule' ? { outcome: 'settled', settlementId: earlier.id } : { outcome: 'duplicate_reference', settlementId: null };
  }

  /** A currency of the scope's balance, as transfers check it: schedules settle what the balance holds. */
  private async balanceCurrency(ctx: TenantScope, asked: string): Promise<Currency> {
    const held = (await this.deps.ledger.balances(ctx)).map((balance) => balance.currency);
    const currency = held.find((each) => each === asked.toUpperCase());
    if (currency === undefined) {
      const holds = held.length > 0 ? `holds ${held.join(', ')}` : 'holds no currency yet';
      throw AkweError.ofField('unsupported_currency', 'currency', `A schedule settles a currency of your ${ctx.environment} balance, which ${holds}; got ${asked}.`);
    }
    return currency;
  }

  /** The account exists in this scope, is not removed and holds the currency; cooling is fine (a run waits for it). */
  private async checkedAccount(ctx: TenantScope, id: string, currency: Currency): Promise<string> {
    const find = (scope: TenantScope) => this.deps.accounts.find(scope, id);
    const account = await find(ctx);
    if (!account) {
      const missing = await notFoundIn(ctx, 'settlement account', id, find);
      throw AkweError.ofField('not_found', 'settlement_account', missing.message);
    }
    if (account.removedAt !== null)
      throw AkweError.ofField('settlement_account_removed', 'settlement_account', `The settlement account ${account.id} was removed on ${account.removedAt}.`);
    if (account.currency !== currency) {
      throw AkweError.ofField(
        'settlement_currency_mismatch',
        'settlement_account',
        `The settlement account ${account.id} receives ${account.currency}; this schedule settles ${currency}.`,
      );
    }
    return account.id;
  }
}

function checkedAnchor(interval: SettlementInterval, anchor: number | undefined): number | null {
  if (interval === 'off' || interval === 'daily') {
    if (anchor !== undefined) throw AkweError.ofField('validation_error', 'anchor', `A ${interval} schedule takes no anchor (weekly: a weekday 1 to 7; monthly: a day 1 to 28).`);
    return null;
  }
  const { min, max } = scheduleAnchorRanges[interval];
  const chosen = anchor ?? 1;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max) {
    const meaning = interval === 'weekly' ? 'an ISO weekday, 1 = Monday to 7 = Sunday' : 'a day of the month every month has, 1 to 28';
    throw AkweError.ofField('validation_error', 'anchor', `A ${interval} anchor is ${meaning}; got ${anchor}.`);
  }
  return chosen;
}
