import type { Currency } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import type { LedgerReader } from '../ledger/ledger.js';
import { transferPostings } from '../ledger/transfer-postings.js';
import type { Merchant } from '../merchants/merchant.js';
import type { PaymentContext } from '../payments/payment-service.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import { looksLikeId } from '../shared/ids.js';
import { checkMetadata, type Metadata } from '../shared/metadata.js';
import { notFoundIn } from '../shared/not-found.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import { receivedSide, type Transfer } from './transfer.js';
import type { TransferFilters, TransferStore } from './transfer-store.js';

export interface CreateTransferInput {
  /** The transfer's id when the caller chose it (an approved request's: its execution, resumed, finds it); a new one otherwise. */
  id?: string;
  /** The receiving merchant's id (GET /api/v1/account shows each merchant its own). */
  receiver: string;
  amountMinor: number;
  currency: string;
  reference: string;
  description?: string;
  metadata?: Metadata;
}

export interface TransferLimits {
  /** The largest single transfer (centimes; TRANSFER_MAX_MINOR). */
  maxMinor: number;
  /** The most one sender may send per UTC day, per environment and currency (TRANSFER_DAILY_MAX_MINOR). */
  dailyMaxMinor: number;
}

/** 2 000 000 FCFA a transfer, 10 000 000 FCFA a day (centimes). */
export const DEFAULT_TRANSFER_LIMITS: TransferLimits = { maxMinor: 200_000_000, dailyMaxMinor: 1_000_000_000 };

export interface TransferServiceDeps {
  store: TransferStore;
  ledger: Pick<LedgerReader, 'balances'>;
  merchants: { findById(id: string): Promise<Merchant | undefined> };
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  limits: TransferLimits;
}

/**
 * Wallet transfers between merchants (docs/transfers.md): both sides, their balance transactions and
 * events commit together, or nothing does. Every refusal is decided before or inside that one
 * transaction, so a refused transfer moves nothing.
 */
export class TransferService {
  constructor(private readonly deps: TransferServiceDeps) {}

  async create(ctx: PaymentContext, input: CreateTransferInput, request: RecordedRequest<Transfer> = {}): Promise<Transfer> {
    const { receiver, currency } = await this.prepare(ctx, input);
    const now = this.deps.clock.now();
    const sent: Transfer = {
      id: input.id ?? this.deps.newId(),
      merchantId: ctx.merchantId,
      environment: ctx.environment,
      direction: 'sent',
      senderId: ctx.merchantId,
      receiverId: receiver.id,
      reference: input.reference,
      amountMinor: input.amountMinor,
      currency,
      description: input.description ?? null,
      metadata: checkMetadata(input.metadata),
      createdAt: now.toISOString(),
    };
    const received = receivedSide(sent);
    const claim = finishWrite(request, sent.id, sent);
    await this.deps.store.insert({
      sent,
      received,
      events: [this.deps.events.transfer('sent', sent), this.deps.events.transfer('received', received)],
      ledger: transferPostings(sent),
      claim,
      dailyMaxMinor: this.deps.limits.dailyMaxMinor,
      dayStart: utcDayStart(now),
    });
    reportCommitted(request, claim);
    return sent;
  }

  /**
   * The checks a transfer passes before anything is written (the account, the receiver, the
   * currency, the single-transfer limit): what a submission for approval is checked against too.
   * The balance and the daily limit are checked when it is written.
   */
  async prepare(ctx: PaymentContext, input: CreateTransferInput): Promise<{ receiver: Merchant; currency: Currency }> {
    // Live money leaves only for an active, validated merchant; in test the sandbox float moves freely.
    if (ctx.environment === 'live') {
      if (ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
      if (ctx.merchant.kycStatus !== 'validated') throw new AkweError('kyc_required');
    }
    const receiverId = input.receiver.toLowerCase();
    if (receiverId === ctx.merchantId) throw new AkweError('transfer_to_self', undefined, { field: 'receiver' });
    const receiver = looksLikeId(receiverId) ? await this.deps.merchants.findById(receiverId) : undefined;
    if (!receiver) throw new AkweError('unknown_receiver', `No merchant ${input.receiver}.`, { field: 'receiver' });
    if (receiver.status !== 'active') throw new AkweError('receiver_inactive', undefined, { field: 'receiver' });
    const currency = await this.balanceCurrency(ctx, input.currency);
    const { maxMinor } = this.deps.limits;
    if (input.amountMinor > maxMinor) {
      throw new AkweError('transfer_limit_exceeded', `A transfer moves at most ${maxMinor / 100} ${currency}; this one asks ${input.amountMinor / 100}.`, { field: 'amount' });
    }
    checkMetadata(input.metadata);
    return { receiver, currency };
  }

  async get(ctx: TenantScope, referenceOrId: string): Promise<Transfer> {
    const transfer = await this.deps.store.find(ctx, referenceOrId);
    if (!transfer) throw await notFoundIn(ctx, 'transfer', referenceOrId, (other) => this.deps.store.find(other, referenceOrId));
    return transfer;
  }

  list(ctx: TenantScope, filters: TransferFilters, page: PageRequest): Promise<Page<Transfer>> {
    return this.deps.store.list(ctx, filters, page);
  }

  /** The sender's balance in the currency asked: a transfer moves money only within one currency. */
  private async balanceCurrency(ctx: TenantScope, asked: string): Promise<Currency> {
    const held = (await this.deps.ledger.balances(ctx)).map((balance) => balance.currency);
    const currency = held.find((each) => each === asked.toUpperCase());
    if (currency === undefined) {
      const holds = held.length > 0 ? `holds ${held.join(', ')}` : 'holds no currency yet';
      throw AkweError.ofField('unsupported_currency', 'currency', `A transfer moves money in a currency of your ${ctx.environment} balance, which ${holds}; got ${asked}.`);
    }
    return currency;
  }
}

function utcDayStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
}
