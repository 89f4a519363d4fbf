import type { CatalogCountry, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import { normalizePhone } from '../phones/phone-number.js';
import type { Clock, IdSource } from '../ports.js';
import type { Environment, TenantScope } from '../shared/environment.js';
import { checkMetadata, type Metadata } from '../shared/metadata.js';
import { notFoundIn } from '../shared/not-found.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import { checkIban, ribToIban } from './iban.js';
import { settlementAccountKinds, type SettlementAccount, type SettlementAccountKind } from './settlement-account.js';
import type { SettlementAccountFilters, SettlementAccountStore } from './settlement-account-store.js';

/** A new settlement account, as the merchant describes it; which fields apply depends on `kind`. */
export interface CreateSettlementAccountInput {
  kind: SettlementAccountKind;
  /** Wallet and RIB: required. Bank with an IBAN: optional, the IBAN's country when absent. */
  country?: string;
  holderName: string;
  /** Wallet: a catalog operator that pays out in the country, and the wallet's number. */
  operator?: string;
  phone?: string;
  /** Bank: the IBAN, or a 24-character UEMOA RIB of `country` (one of the two). */
  iban?: string;
  rib?: string;
  bankName?: string | null;
  description?: string | null;
  metadata?: Metadata;
}

/** PATCH: what is given changes, what is absent stays; null clears an optional text. */
export interface UpdateSettlementAccountInput {
  /** Accepted only when it is the account's kind already. */
  kind?: string;
  country?: string;
  holderName?: string;
  operator?: string;
  phone?: string;
  iban?: string;
  rib?: string;
  bankName?: string | null;
  description?: string | null;
  /** Replaces the whole set. */
  metadata?: Metadata;
}

/** How long a new or changed account waits before it is usable, per environment (ms). */
export interface SettlementAccountCooling {
  liveMs: number;
  testMs: number;
}

/** 24 h in live (SETTLEMENT_ACCOUNT_COOLING_MS); none in test, so test settlements can be tried at once. */
export const DEFAULT_SETTLEMENT_ACCOUNT_COOLING: SettlementAccountCooling = { liveMs: 24 * 3_600_000, testMs: 0 };

export const HOLDER_NAME_MAX_LENGTH = 140;
export const BANK_NAME_MAX_LENGTH = 140;
export const ACCOUNT_DESCRIPTION_MAX_LENGTH = 255;

export interface SettlementAccountServiceDeps {
  store: SettlementAccountStore;
  catalog: OperatorCatalog;
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  cooling: SettlementAccountCooling;
}

/** Where money goes: a change to any of these restarts the cooling period. */
type Destination = Pick<SettlementAccount, 'country' | 'currency' | 'holderName' | 'operator' | 'phone' | 'iban' | 'bankName'>;
const destinationFields: ReadonlyArray<keyof Destination> = ['country', 'holderName', 'operator', 'phone', 'iban', 'bankName'];

/**
 * Settlement accounts (docs/settlements.md "Settlement accounts"): where a merchant's settlements go. A new account,
 * and one whose destination changed, is usable only after the cooling period of its environment, so
 * a stolen key cannot redirect funds at once; every change emits an event in its own transaction.
 */
export class SettlementAccountService {
  constructor(private readonly deps: SettlementAccountServiceDeps) {}

  async create(ctx: TenantScope, input: CreateSettlementAccountInput, request: RecordedRequest<SettlementAccount> = {}): Promise<SettlementAccount> {
    if (!(settlementAccountKinds as readonly string[]).includes(input.kind)) {
      throw AkweError.ofField('validation_error', 'kind', `kind is ${settlementAccountKinds.join(' or ')}.`);
    }
    const destination = this.destination(input.kind, {
      country: input.country,
      holderName: input.holderName,
      operator: input.operator,
      phone: input.phone,
      iban: input.iban,
      rib: input.rib,
      bankName: input.bankName ?? null,
    });
    const now = this.deps.clock.now();
    const account: SettlementAccount = {
      id: this.deps.newId(),
      merchantId: ctx.merchantId,
      environment: ctx.environment,
      kind: input.kind,
      ...destination,
      description: checkDescription(input.description),
      metadata: checkMetadata(input.metadata),
      usableFrom: this.usableFrom(ctx.environment, now),
      removedAt: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
    };
    const claim = finishWrite(request, account.id, account);
    await this.deps.store.insert(account, [this.deps.events.settlementAccount('created', account)], claim);
    reportCommitted(request, claim);
    return account;
  }

  async update(ctx: TenantScope, id: string, patch: UpdateSettlementAccountInput): Promise<SettlementAccount> {
    const current = await this.get(ctx, id);
    if (patch.kind !== undefined && patch.kind !== current.kind) {
      throw AkweError.ofField('validation_error', 'kind', `An account’s kind cannot change: this one is a ${current.kind} account. Register a new account instead.`);
    }
    if (current.removedAt !== null)
      throw new AkweError('settlement_account_removed', `Settlement account ${current.id} was removed at ${current.removedAt}; it cannot be changed.`);
    const destination = !changesDestination(patch)
      ? current
      : this.destination(current.kind, {
          country: patch.country ?? current.country,
          holderName: patch.holderName ?? current.holderName,
          operator: patch.operator ?? current.operator ?? undefined,
          phone: patch.phone ?? current.phone ?? undefined,
          // A new RIB replaces the IBAN; a country change alone re-checks the IBAN against it.
          iban: patch.rib === undefined ? (patch.iban ?? current.iban ?? undefined) : patch.iban,
          rib: patch.rib,
          bankName: patch.bankName === undefined ? current.bankName : patch.bankName,
        });
    const described = {
      description: patch.description === undefined ? current.description : checkDescription(patch.description),
      metadata: patch.metadata === undefined ? current.metadata : checkMetadata(patch.metadata),
    };
    const moved = destinationFields.some((field) => destination[field] !== current[field]);
    if (!moved && described.description === current.description && sameMetadata(described.metadata, current.metadata)) return current;

    const now = this.deps.clock.now();
    const next: SettlementAccount = {
      ...current,
      ...destination,
      ...described,
      usableFrom: moved ? this.usableFrom(current.environment, now) : current.usableFrom,
      updatedAt: now.toISOString(),
      version: current.version + 1,
    };
    // Changed meanwhile by another request: apply this patch to what it became.
    if (!(await this.deps.store.save(next, current.version, [this.deps.events.settlementAccount('updated', next)]))) return this.update(ctx, id, patch);
    return next;
  }

  /** Removed for good (it stays readable); removing it again answers it as it is. */
  async remove(ctx: TenantScope, id: string): Promise<SettlementAccount> {
    const current = await this.get(ctx, id);
    if (current.removedAt !== null) return current;
    const now = this.deps.clock.now().toISOString();
    const next: SettlementAccount = { ...current, removedAt: now, updatedAt: now, version: current.version + 1 };
    if (!(await this.deps.store.save(next, current.version, [this.deps.events.settlementAccount('removed', next)]))) return this.remove(ctx, id);
    return next;
  }

  async get(ctx: TenantScope, id: string): Promise<SettlementAccount> {
    const account = await this.deps.store.find(ctx, id);
    if (!account) throw await notFoundIn(ctx, 'settlement account', id, (other) => this.deps.store.find(other, id));
    return account;
  }

  list(ctx: TenantScope, filters: SettlementAccountFilters, page: PageRequest): Promise<Page<SettlementAccount>> {
    return this.deps.store.list(ctx, filters, page);
  }

  /**
   * The account, if a settlement may go to it now (the service's clock); otherwise 404 not_found,
   * 409 settlement_account_removed, or 409 settlement_account_cooling naming when it becomes usable.
   */
  async usable(ctx: TenantScope, id: string): Promise<SettlementAccount> {
    const account = await this.get(ctx, id);
    if (account.removedAt !== null) throw new AkweError('settlement_account_removed', `Settlement account ${account.id} was removed at ${account.removedAt}.`);
    if (Date.parse(account.usableFrom) > this.deps.clock.now().getTime()) {
      throw new AkweError(
        'settlement_account_cooling',
        `Settlement account ${account.id} was created or changed recently and is usable from ${account.usableFrom} (the cooling period protects you from a stolen key redirecting funds).`,
      );
    }
    return account;
  }

  private usableFrom(environment: Environment, now: Date): string {
    const coolingMs = environment === 'live' ? this.deps.cooling.liveMs : this.deps.cooling.testMs;
    return new Date(now.getTime() + coolingMs).toISOString();
  }

  /** Where the money of an account of `kind` goes, every field checked; nothing is stored here. */
  private destination(
    kind: SettlementAccountKind,
    given: { country?: string; holderName: string; operator?: string; phone?: string; iban?: string; rib?: string; bankName: string | null },
  ): Destination {
    const holderName = given.holderName.trim();
    if (holderName.length === 0 || holderName.length > HOLDER_NAME_MAX_LENGTH) {
      throw AkweError.ofField('validation_error', 'holder_name', `holder_name is the account holder’s name, 1 to ${HOLDER_NAME_MAX_LENGTH} characters.`);
    }
    return kind === 'wallet' ? { holderName, ...this.wallet(given) } : { holderName, ...this.bank(given) };
  }

  private wallet(given: { country?: string; operator?: string; phone?: string; iban?: string; rib?: string; bankName: string | null }) {
    for (const [field, value] of [
      ['iban', given.iban],
      ['rib', given.rib],
      ['bank_name', given.bankName ?? undefined],
    ] as const) {
      if (value !== undefined) throw AkweError.ofField('validation_error', field, `${field} is for bank accounts; a wallet account has operator and phone.`);
    }
    if (given.country === undefined) throw AkweError.ofField('validation_error', 'country', 'A wallet account needs its country.');
    if (given.operator === undefined) throw AkweError.ofField('validation_error', 'operator', 'A wallet account needs its operator.');
    if (given.phone === undefined) throw AkweError.ofField('validation_error', 'phone', 'A wallet account needs its phone number.');
    const country = this.deps.catalog.country(given.country);
    if (!country) throw AkweError.ofField('invalid_operator', 'country', `Country ${given.country} is not supported; see the payout operator catalog.`);
    const operator = this.deps.catalog.operatorFor(country.code, given.operator, 'payout');
    if (!operator) throw AkweError.ofField('invalid_operator', 'operator', `Operator ${given.operator} does not pay out in ${country.name}; see the payout operator catalog.`);
    const phone = normalizePhone(country.code, given.phone);
    if (!phone.ok) throw AkweError.ofField('invalid_phone', 'phone', phone.message);
    return { country: country.code, currency: country.defaultCurrency, operator: operator.slug, phone: phone.e164, iban: null, bankName: null };
  }

  private bank(given: { country?: string; operator?: string; phone?: string; iban?: string; rib?: string; bankName: string | null }) {
    for (const [field, value] of [
      ['operator', given.operator],
      ['phone', given.phone],
    ] as const) {
      if (value !== undefined) throw AkweError.ofField('validation_error', field, `${field} is for wallet accounts; a bank account has iban (or rib) and bank_name.`);
    }
    if (given.iban !== undefined && given.rib !== undefined) throw AkweError.ofField('validation_error', 'rib', 'Send the IBAN or the RIB, not both.');
    if (given.iban === undefined && given.rib === undefined) throw AkweError.ofField('validation_error', 'iban', 'A bank account needs its IBAN (or its UEMOA RIB with country).');
    if (given.rib !== undefined && given.country === undefined)
      throw AkweError.ofField('validation_error', 'country', 'A RIB is read with the account’s country: send country too.');
    const named = given.country === undefined ? undefined : this.servedCountry(given.country);
    const field = given.rib !== undefined ? 'rib' : 'iban';
    const checked = given.rib !== undefined ? ribToIban(named!.code, given.rib) : checkIban(given.iban!);
    if (!checked.ok) throw AkweError.ofField('invalid_iban', field, checked.message);
    const country = this.deps.catalog.country(checked.country);
    if (!country) throw AkweError.ofField('invalid_iban', field, `The IBAN is of ${checked.country}; Akwe settles to bank accounts in ${this.servedCodes()}.`);
    if (named !== undefined && named.code !== country.code) {
      throw AkweError.ofField('invalid_iban', field, `The IBAN is of ${country.code}, the account of ${named.code}: a bank settlement account is in the country of its IBAN.`);
    }
    const bankName = given.bankName === null ? null : given.bankName.trim() || null;
    if (bankName !== null && bankName.length > BANK_NAME_MAX_LENGTH)
      throw AkweError.ofField('validation_error', 'bank_name', `bank_name is at most ${BANK_NAME_MAX_LENGTH} characters.`);
    return { country: country.code, currency: country.defaultCurrency, operator: null, phone: null, iban: checked.iban, bankName };
  }

  private servedCountry(code: string): CatalogCountry {
    const country = this.deps.catalog.country(code);
    if (!country) throw AkweError.ofField('validation_error', 'country', `Akwe settles to bank accounts in ${this.servedCodes()}; got ${code}.`);
    return country;
  }

  private servedCodes(): string {
    return this.deps.catalog
      .countries()
      .map((each) => each.code)
      .join(', ');
  }
}

/** Whether a patch names a field of where the money goes (else the destination is not checked again). */
function changesDestination(patch: UpdateSettlementAccountInput): boolean {
  return [patch.country, patch.holderName, patch.operator, patch.phone, patch.iban, patch.rib, patch.bankName].some((value) => value !== undefined);
}

function checkDescription(description: string | null | undefined): string | null {
  if (description === undefined || description === null) return null;
  if (description.length > ACCOUNT_DESCRIPTION_MAX_LENGTH) {
    throw AkweError.ofField('validation_error', 'description', `description is at most ${ACCOUNT_DESCRIPTION_MAX_LENGTH} characters.`);
  }
  return description;
}

function sameMetadata(a: Metadata, b: Metadata): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
