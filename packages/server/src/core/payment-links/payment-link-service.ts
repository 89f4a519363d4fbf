import { randomBytes } from 'node:crypto';
import type { CatalogCountry, Currency, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import type { Merchant } from '../merchants/merchant.js';
import type { Payment } from '../payments/payment.js';
import type { PaymentContext, PaymentService } from '../payments/payment-service.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import { checkMetadata, type Metadata } from '../shared/metadata.js';
import { MINOR_PER_MAJOR } from '../shared/money.js';
import { notFoundIn } from '../shared/not-found.js';
import { mapPage, type Page, type PageRequest } from '../shared/pagination.js';
import { paymentLinkStatus, type PaymentLink, type PaymentLinkView } from './payment-link.js';
import type { PaymentLinkFilters, PaymentLinkStore } from './payment-link-store.js';

export interface CreatePaymentLinkInput {
  /** Fixed amount (centimes); absent for an open amount. */
  amountMinor?: number;
  minAmountMinor?: number;
  maxAmountMinor?: number;
  currency?: string;
  /** One country, or `countries` for several (not both). */
  country?: string;
  countries?: string[];
  description: string;
  /** Default true; false: single use. */
  reusable?: boolean;
  maxPayments?: number;
  expiresAt?: string;
  returnUrl?: string;
  metadata?: Metadata;
}

/** PATCH: what is given changes, what is absent stays; null clears. Amounts, currency and countries never change. */
export interface UpdatePaymentLinkInput {
  description?: string;
  maxPayments?: number | null;
  expiresAt?: string | null;
  returnUrl?: string | null;
  metadata?: Metadata;
}

export const PAYMENT_LINK_DESCRIPTION_MAX_LENGTH = 255;
export const PAYMENT_LINK_MAX_PAYMENTS = 1_000_000;

/** 24 random bytes, base64url: 32 characters, 192 bits, not guessable and not the link's id. */
export function newPaymentLinkSlug(): string {
  return randomBytes(24).toString('base64url');
}

export function looksLikePaymentLinkSlug(value: string): boolean {
  return /^[A-Za-z0-9_-]{32}$/.test(value);
}

export interface PaymentLinkServiceDeps {
  store: PaymentLinkStore;
  payments: Pick<PaymentService, 'create'>;
  /** The merchant whose name the page shows and whose status live payments need. */
  merchants: { getMerchant(id: string): Promise<Merchant> };
  catalog: OperatorCatalog;
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  newSlug?: () => string;
}

/** What the public page opens: the link, its counts and status, and its merchant. */
export interface PaymentLinkPage extends PaymentLinkView {
  merchant: Merchant;
}

/**
 * Payment links (docs/payment-links.md): the merchant manages them with an API key; a customer opens
 * one by its slug alone and pays through a hosted payment that carries the link's id. Every change
 * emits its event in its own transaction; how many payments completed is counted from the payments.
 */
export class PaymentLinkService {
  constructor(private readonly deps: PaymentLinkServiceDeps) {}

  async create(ctx: PaymentContext, input: CreatePaymentLinkInput, request: RecordedRequest<PaymentLinkView> = {}): Promise<PaymentLinkView> {
    // Live collection works before KYC, never for a suspended merchant (docs/decisions.md).
    if (ctx.environment === 'live' && ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
    const countries = this.countries(input);
    const currency = this.currency(countries, input.currency);
    const amounts = this.amounts(countries, input);
    const reusable = input.reusable ?? true;
    const now = this.deps.clock.now();
    const link: PaymentLink = {
      id: this.deps.newId(),
      merchantId: ctx.merchantId,
      environment: ctx.environment,
      slug: (this.deps.newSlug ?? newPaymentLinkSlug)(),
      ...amounts,
      currency,
      countries: countries.map((c) => c.code),
      description: checkDescription(input.description),
      reusable,
      maxPayments: checkMaxPayments(input.maxPayments, reusable),
      expiresAt: checkExpiry(input.expiresAt, now),
      returnUrl: input.returnUrl ?? null,
      metadata: checkMetadata(input.metadata),
      deactivatedAt: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
    };
    const view = this.viewOf(link, 0);
    const claim = finishWrite(request, link.id, view);
    await this.deps.store.insert(link, [this.deps.events.paymentLink('created', view)], claim);
    reportCommitted(request, claim);
    return view;
  }

  async get(ctx: TenantScope, id: string): Promise<PaymentLinkView> {
    const link = await this.deps.store.find(ctx, id);
    if (!link) throw await notFoundIn(ctx, 'payment link', id, (other) => this.deps.store.find(other, id));
    const counts = await this.deps.store.completedPayments(ctx, [link.id]);
    return this.viewOf(link, counts.get(link.id) ?? 0);
  }

  async list(ctx: TenantScope, filters: PaymentLinkFilters, page: PageRequest): Promise<Page<PaymentLinkView>> {
    const links = await this.deps.store.list(ctx, filters, page);
    const counts = await this.deps.store.completedPayments(
      ctx,
      links.data.map((link) => link.id),
    );
    return mapPage(links, (link) => this.viewOf(link, counts.get(link.id) ?? 0));
  }

  async update(ctx: TenantScope, id: string, patch: UpdatePaymentLinkInput): Promise<PaymentLinkView> {
    const current = await this.get(ctx, id);
    const { link } = current;
    if (link.deactivatedAt !== null) throw new AkweError('payment_link_inactive', `Payment link ${link.id} was deactivated at ${link.deactivatedAt}; it cannot be changed.`);
    const now = this.deps.clock.now();
    const next: PaymentLink = {
      ...link,
      description: patch.description === undefined ? link.description : checkDescription(patch.description),
      maxPayments: patch.maxPayments === undefined ? link.maxPayments : checkMaxPayments(patch.maxPayments ?? undefined, link.reusable),
      expiresAt: patch.expiresAt === undefined ? link.expiresAt : checkExpiry(patch.expiresAt ?? undefined, now),
      returnUrl: patch.returnUrl === undefined ? link.returnUrl : patch.returnUrl,
      metadata: patch.metadata === undefined ? link.metadata : checkMetadata(patch.metadata),
      updatedAt: now.toISOString(),
      version: link.version + 1,
    };
    const view = this.viewOf(next, current.completedPayments);
    if (!(await this.deps.store.save(next, link.version, [this.deps.events.paymentLink('updated', view)]))) return this.update(ctx, id, patch);
    return view;
  }

  /** No payment through it from then on; it stays readable. Deactivating it again answers it as it is. */
  async deactivate(ctx: TenantScope, id: string): Promise<PaymentLinkView> {
    const current = await this.get(ctx, id);
    if (current.link.deactivatedAt !== null) return current;
    const now = this.deps.clock.now().toISOString();
    const next: PaymentLink = { ...current.link, deactivatedAt: now, updatedAt: now, version: current.link.version + 1 };
    const view = this.viewOf(next, current.completedPayments);
    if (!(await this.deps.store.save(next, current.link.version, [this.deps.events.paymentLink('deactivated', view)]))) return this.deactivate(ctx, id);
    return view;
  }

  /** The public page's view by slug; undefined for an unknown or malformed slug. */
  async open(slug: string): Promise<PaymentLinkPage | undefined> {
    if (!looksLikePaymentLinkSlug(slug)) return undefined;
    const link = await this.deps.store.findBySlug(slug);
    if (!link) return undefined;
    const counts = await this.deps.store.completedPayments(link, [link.id]);
    const merchant = await this.deps.merchants.getMerchant(link.merchantId);
    return { ...this.viewOf(link, counts.get(link.id) ?? 0), merchant };
  }

  /**
   * A customer pays through the link: a hosted payment of the link's merchant and environment, with
   * the link's id, description, return_url and metadata. Refused (nothing written) when the link is
   * not active, the amount is out of its bounds, or the country is not one of its countries.
   */
  async pay(slug: string, input: { amountMinor?: number; country?: string }): Promise<{ page: PaymentLinkPage; payment: Payment }> {
    const page = await this.open(slug);
    if (!page) throw new AkweError('not_found', 'No such payment link.');
    const { link, merchant } = page;
    if (page.status !== 'active') throw new AkweError('payment_link_inactive', `The payment link is ${page.status}.`);
    const country = input.country ?? (link.countries.length === 1 ? link.countries[0] : undefined);
    if (country === undefined || !(link.countries as string[]).includes(country)) {
      throw AkweError.ofField('validation_error', 'country', `Choose the country to pay from: ${link.countries.join(', ')}.`);
    }
    const amountMinor = link.amountMinor ?? input.amountMinor;
    if (amountMinor === undefined) throw AkweError.ofField('validation_error', 'amount', 'Type the amount to pay.');
    const bounds = this.openBounds(link, this.deps.catalog.country(country)!);
    if (link.amountMinor === null && amountMinor < bounds.min) throw AkweError.ofAmount({ bound: 'minimum', limitMinor: bounds.min, subject: 'payment', sentMinor: amountMinor });
    if (link.amountMinor === null && amountMinor > bounds.max) throw AkweError.ofAmount({ bound: 'maximum', limitMinor: bounds.max, subject: 'payment', sentMinor: amountMinor });
    const ctx: PaymentContext = { merchantId: link.merchantId, environment: link.environment, merchant };
    const payment = await this.deps.payments.create(ctx, {
      reference: `link_${this.deps.newId().replace(/-/g, '')}`,
      amountMinor,
      currency: link.currency,
      country,
      mode: 'hosted',
      description: link.description,
      returnUrl: link.returnUrl ?? undefined,
      metadata: link.metadata,
      paymentLinkId: link.id,
      paymentLinkLimit: usesLimit(link),
    });
    return { page, payment };
  }

  /** An open link's bounds in `country`: its own, within the catalog's limits for collecting there. */
  openBounds(link: PaymentLink, country: CatalogCountry): { min: number; max: number } {
    const limits = country.operators.filter((o) => o.collect.supported).map((o) => o.collect);
    const catalogMin = Math.min(...limits.map((l) => l.minAmountMinor));
    const catalogMax = Math.max(...limits.map((l) => l.maxAmountMinor));
    return { min: Math.max(link.minAmountMinor ?? catalogMin, catalogMin), max: Math.min(link.maxAmountMinor ?? catalogMax, catalogMax) };
  }

  private viewOf(link: PaymentLink, completedPayments: number): PaymentLinkView {
    return { id: link.id, link, completedPayments, status: paymentLinkStatus(link, completedPayments, this.deps.clock.now().toISOString()) };
  }

  private countries(input: CreatePaymentLinkInput): CatalogCountry[] {
    if (input.country !== undefined && input.countries !== undefined) throw AkweError.ofField('validation_error', 'countries', 'Send country or countries, not both.');
    const codes = input.countries ?? (input.country === undefined ? [] : [input.country]);
    if (codes.length === 0) throw AkweError.ofField('validation_error', 'country', 'A payment link needs its country (or countries).');
    if (new Set(codes).size !== codes.length) throw AkweError.ofField('validation_error', 'countries', 'countries names each country once.');
    return codes.map((code) => {
      const country = this.deps.catalog.country(code);
      if (!country) throw AkweError.ofField('invalid_operator', input.countries ? 'countries' : 'country', `Country ${code} is not supported; see the operator catalog.`);
      return country;
    });
  }

  private currency(countries: CatalogCountry[], given: string | undefined): Currency {
    const currency = given ?? countries[0]!.defaultCurrency;
    for (const country of countries) {
      if (!(country.currencies as readonly string[]).includes(currency)) {
        throw AkweError.ofField('unsupported_currency', 'currency', `${country.code} collects in ${country.currencies.join(', ')}, not ${currency}.`);
      }
    }
    return currency as Currency;
  }

  private amounts(countries: CatalogCountry[], input: CreatePaymentLinkInput): Pick<PaymentLink, 'amountMinor' | 'minAmountMinor' | 'maxAmountMinor'> {
    for (const [field, value] of [
      ['amount_minor', input.amountMinor],
      ['min_amount_minor', input.minAmountMinor],
      ['max_amount_minor', input.maxAmountMinor],
    ] as const) {
      if (value !== undefined && value % MINOR_PER_MAJOR !== 0) {
        throw AkweError.ofField('validation_error', field, `${field} is in centimes and must be whole FCFA (a multiple of ${MINOR_PER_MAJOR}); got ${value}.`);
      }
    }
    if (input.amountMinor !== undefined) {
      if (input.minAmountMinor !== undefined || input.maxAmountMinor !== undefined) {
        throw AkweError.ofField('validation_error', 'amount_minor', 'A link has a fixed amount_minor or bounds (min_amount_minor, max_amount_minor) for an open amount, not both.');
      }
      for (const country of countries) withinCatalog(country, input.amountMinor, 'amount_minor');
      return { amountMinor: input.amountMinor, minAmountMinor: null, maxAmountMinor: null };
    }
    if (input.minAmountMinor !== undefined && input.maxAmountMinor !== undefined && input.minAmountMinor > input.maxAmountMinor) {
      throw AkweError.ofField('validation_error', 'min_amount_minor', 'min_amount_minor is above max_amount_minor.');
    }
    for (const country of countries) {
      if (input.minAmountMinor !== undefined) withinCatalog(country, input.minAmountMinor, 'min_amount_minor');
      if (input.maxAmountMinor !== undefined) withinCatalog(country, input.maxAmountMinor, 'max_amount_minor');
    }
    return { amountMinor: null, minAmountMinor: input.minAmountMinor ?? null, maxAmountMinor: input.maxAmountMinor ?? null };
  }
}

/** An amount some operator of the country collects (the catalog's widest limits). */
function withinCatalog(country: CatalogCountry, amountMinor: number, field: string): void {
  const limits = country.operators.filter((o) => o.collect.supported).map((o) => o.collect);
  const min = Math.min(...limits.map((l) => l.minAmountMinor));
  const max = Math.max(...limits.map((l) => l.maxAmountMinor));
  const bound = amountMinor < min ? ('minimum' as const) : amountMinor > max ? ('maximum' as const) : undefined;
  if (bound === undefined) return;
  const error = AkweError.ofAmount({ bound, limitMinor: bound === 'minimum' ? min : max, subject: `payment in ${country.code}`, sentMinor: amountMinor });
  throw new AkweError(error.code, error.message, { field, details: [{ field, message: error.message }], amountBound: error.amountBound });
}

/** How many payments the link takes: 1 when single use, else max_payments (undefined: no limit, nothing to reserve). */
function usesLimit(link: PaymentLink): number | undefined {
  return link.reusable ? (link.maxPayments ?? undefined) : 1;
}

function checkDescription(description: string): string {
  const trimmed = description.trim();
  if (trimmed.length === 0 || trimmed.length > PAYMENT_LINK_DESCRIPTION_MAX_LENGTH) {
    throw AkweError.ofField('validation_error', 'description', `description says what is sold, 1 to ${PAYMENT_LINK_DESCRIPTION_MAX_LENGTH} characters.`);
  }
  return trimmed;
}

function checkMaxPayments(maxPayments: number | undefined, reusable: boolean): number | null {
  if (maxPayments === undefined) return null;
  if (!Number.isInteger(maxPayments) || maxPayments < 1 || maxPayments > PAYMENT_LINK_MAX_PAYMENTS) {
    throw AkweError.ofField('validation_error', 'max_payments', `max_payments is from 1 to ${PAYMENT_LINK_MAX_PAYMENTS}.`);
  }
  if (!reusable && maxPayments !== 1) throw AkweError.ofField('validation_error', 'max_payments', 'A single-use link (reusable: false) takes one payment.');
  return maxPayments;
}

function checkExpiry(expiresAt: string | undefined, now: Date): string | null {
  if (expiresAt === undefined) return null;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) throw AkweError.ofField('validation_error', 'expires_at', 'expires_at is an ISO 8601 instant.');
  if (at <= now.getTime()) throw AkweError.ofField('validation_error', 'expires_at', 'expires_at is in the past.');
  return new Date(at).toISOString();
}
