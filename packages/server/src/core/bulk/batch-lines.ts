// The checks of one batch line, on plain values: what a single payout would be refused for
// (payout-service create: country, operator paying out there, phone of that country, amount
// within the operator's limits), plus what only a batch can get wrong (a reference twice).
// Every problem of a line is reported, not only the first, and the checker keeps the batch's
// totals so that a later balance check needs no second pass.
import { amountBoundMessage } from '../shared/amount-units.js';
import { KNOWN_CURRENCIES, unsupportedCurrencyMessage } from '../catalog/currency-check.js';
import { type CatalogCountry, type CatalogOperator, type CountryCode, type Currency, type OperatorCatalog } from '../catalog/operator-catalog.js';
import { feeFor } from '../ledger/ledger.js';
import { normalizePhone } from '../phones/phone-number.js';
import { countryOfPhone, predictForE164 } from '../phones/operator-prediction.js';
import { metadataLimits, type Metadata } from '../shared/metadata.js';
import { readAmount } from './batch-amount.js';
import type { BatchLineProblem, BatchProblemCode } from './batch-problems.js';

/** A line as the merchant wrote it: CSV cells (strings) or a JSON item (amount a number). */
export interface BatchLineInput {
  beneficiaryName?: string;
  phone?: string;
  amount?: string | number;
  currency?: string;
  reference?: string;
  country?: string;
  operator?: string;
  description?: string;
  metadata?: Readonly<Record<string, string>>;
}

/** A line that passed every check: the values a payout is created from. */
export interface BatchItem {
  /** The row it came from: the spreadsheet row for a CSV import (header = 1), the position in `items` (from 1) otherwise. */
  row: number;
  beneficiaryName: string;
  /** E.164. */
  phone: string;
  amountMinor: number;
  /** The operator's payout fee on this amount, reserved with it. */
  feeMinor: number;
  currency: Currency;
  reference: string;
  country: CountryCode;
  /** The canonical slug, whatever alias the line used. */
  operator: string;
  description: string | null;
  metadata: Metadata;
}

export type BatchLineCheck = { ok: true; item: BatchItem } | { ok: false; problems: BatchLineProblem[] };

/** What the valid lines of one currency add up to. */
export interface BatchCurrencyTotal {
  currency: Currency;
  lines: number;
  amountMinor: number;
  feeMinor: number;
}

// The payout contract's lengths (its payout-schemas.ts under http/contracts), so a line that passes here
// also passes as a payout; a beneficiary name takes the room of a first and a last name.
export const batchLineLimits = { beneficiaryName: 200, reference: 100, description: 255 } as const;
const referencePattern = /^[A-Za-z0-9._:-]+$/;

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

export class BatchLineChecker {
  readonly #catalog: OperatorCatalog;
  readonly #firstRowOfReference = new Map<string, number>();
  readonly #totals = new Map<Currency, BatchCurrencyTotal>();

  readonly #defaultCountry: string | undefined;

  /** `defaultCountry`: the batch's country, for lines with a national number and no country of their own. */
  constructor(catalog: OperatorCatalog, options: { defaultCountry?: string } = {}) {
    this.#catalog = catalog;
    this.#defaultCountry = options.defaultCountry;
  }

  /**
   * Checks one line. `row` names it in problems (a CSV row number, or whatever numbering the
   * caller documents); `earlierProblems` are problems already found for it (while reading the
   * file) and come first in the answer. Lines must be checked in order: the first line with a
   * reference keeps it, later ones are duplicates.
   */
  check(row: number, line: BatchLineInput, earlierProblems: readonly BatchLineProblem[] = []): BatchLineCheck {
    const problems = [...earlierProblems];
    const refuse = (field: string, code: BatchProblemCode, message: string): undefined => {
      // A field refused earlier (its value unreadable) is not reported again as missing.
      if (!earlierProblems.some((problem) => problem.field === field)) problems.push({ row, field, code, message });
      return undefined;
    };
    const required = (field: string, value: string | undefined): string | undefined => present(value) ?? refuse(field, 'validation_error', `${field} is required.`);
    const bounded = (field: string, value: string | undefined, max: number): string | undefined =>
      value !== undefined && value.length > max ? refuse(field, 'validation_error', `${field} has at most ${max} characters; got ${value.length}.`) : value;

    const beneficiaryName = bounded('beneficiary_name', required('beneficiary_name', line.beneficiaryName), batchLineLimits.beneficiaryName);
    const reference = this.#reference(row, required('reference', line.reference), refuse);
    const amount =
      line.amount === undefined || (typeof line.amount === 'string' && present(line.amount) === undefined)
        ? refuse('amount', 'validation_error', 'amount is required.')
        : readAmount(line.amount);
    const amountMinor = amount === undefined ? undefined : amount.ok ? amount.amountMinor : refuse('amount', 'validation_error', amount.message);
    const rawCurrency = required('currency', line.currency);
    const phone = required('phone', line.phone);
    const country = this.#country(present(line.country), phone, refuse);
    const currency = this.#currency(rawCurrency, country, refuse);
    const e164 = phone === undefined || country === undefined ? undefined : this.#phone(country, phone, refuse);
    const operator = this.#operator(country, present(line.operator), e164, refuse);
    if (operator !== undefined && amountMinor !== undefined && country !== undefined) {
      const { minAmountMinor, maxAmountMinor } = operator.payout;
      const subject = `payout through ${operator.slug}`;
      if (amountMinor < minAmountMinor)
        refuse('amount', 'amount_too_low', amountBoundMessage({ bound: 'minimum', limitMinor: minAmountMinor, subject, sentMinor: amountMinor }, 'minor'));
      if (amountMinor > maxAmountMinor)
        refuse('amount', 'amount_too_high', amountBoundMessage({ bound: 'maximum', limitMinor: maxAmountMinor, subject, sentMinor: amountMinor }, 'minor'));
    }
    const description = bounded('description', present(line.description), batchLineLimits.description);
    const metadata = this.#metadata(line.metadata ?? {}, refuse);

    if (problems.length > 0) return { ok: false, problems };
    // Every value below was checked above; the conditions only convince the type checker.
    if (
      beneficiaryName === undefined ||
      reference === undefined ||
      amountMinor === undefined ||
      currency === undefined ||
      country === undefined ||
      e164 === undefined ||
      operator === undefined
    ) {
      throw new Error('batch line passed its checks with a value missing');
    }
    const feeMinor = feeFor(operator.payout.fee, amountMinor);
    this.#addToTotals(currency, amountMinor, feeMinor);
    return {
      ok: true,
      item: {
        row,
        beneficiaryName,
        phone: e164,
        amountMinor,
        feeMinor,
        currency,
        reference,
        country: country.code,
        operator: operator.slug,
        description: description ?? null,
        metadata,
      },
    };
  }

  /** Totals of the valid lines so far, one per currency (in the order the currencies first appeared). */
  totals(): BatchCurrencyTotal[] {
    return [...this.#totals.values()].map((total) => ({ ...total }));
  }

  #reference(row: number, reference: string | undefined, refuse: Refuse): string | undefined {
    if (reference === undefined) return undefined;
    // Every line takes part, valid or not: a reference belongs to the first line that names it.
    const firstRow = this.#firstRowOfReference.get(reference);
    if (firstRow === undefined) this.#firstRowOfReference.set(reference, row);
    if (reference.length > batchLineLimits.reference)
      return refuse('reference', 'validation_error', `reference has at most ${batchLineLimits.reference} characters; got ${reference.length}.`);
    if (!referencePattern.test(reference)) return refuse('reference', 'validation_error', 'reference may hold only letters, digits and . _ : - (it is used in URLs).');
    if (firstRow !== undefined) return refuse('reference', 'duplicate_reference', `Reference ${reference} is already used on row ${firstRow}.`);
    return reference;
  }

  /** Payouts go out in the country's currency (payout-service), so another one cannot be honoured. */
  #currency(raw: string | undefined, country: CatalogCountry | undefined, refuse: Refuse): Currency | undefined {
    if (raw === undefined) return undefined;
    const code = raw.toUpperCase();
    const accepted: readonly string[] = country ? [country.defaultCurrency] : KNOWN_CURRENCIES;
    if (accepted.includes(code)) return code as Currency;
    return refuse('currency', 'unsupported_currency', unsupportedCurrencyMessage(country?.code, accepted, raw));
  }

  /** The line's country, or the one its international number belongs to. */
  #country(raw: string | undefined, phone: string | undefined, refuse: Refuse): CatalogCountry | undefined {
    if (raw === undefined && phone === undefined) return undefined; // the missing phone is the problem reported
    const found = countryOfPhone(this.#catalog, phone ?? '', raw, this.#defaultCountry);
    return found.ok ? found.country : refuse(found.field, found.code, found.message);
  }

  #phone(country: CatalogCountry, phone: string, refuse: Refuse): string | undefined {
    const check = normalizePhone(country.code, phone);
    return check.ok ? check.e164 : refuse('phone', 'invalid_phone', check.message);
  }

  #operator(country: CatalogCountry | undefined, raw: string | undefined, e164: string | undefined, refuse: Refuse): CatalogOperator | undefined {
    if (country === undefined) return undefined; // checked once the country is known
    if (raw === undefined) {
      if (e164 === undefined) return undefined; // the phone's problem is the one reported
      // No operator given: the one the regulator's plan issued the number to (an explicit one always wins).
      const predicted = predictForE164(country, e164).operator;
      const operator = predicted === null ? undefined : this.#catalog.operatorFor(country.code, predicted, 'payout');
      return operator ?? refuse('operator', 'operator_required', `No operator given, and none can be predicted from ${e164}: give operator (see the payout operator catalog).`);
    }
    const operator = this.#catalog.operatorFor(country.code, raw, 'payout');
    if (operator === undefined) {
      return refuse('operator', 'invalid_operator', `Operator ${raw} does not pay out in ${country.name}; see the payout operator catalog.`);
    }
    return operator;
  }

  #metadata(metadata: Readonly<Record<string, string>>, refuse: Refuse): Metadata {
    const entries = Object.entries(metadata);
    if (entries.length > metadataLimits.keys) refuse('metadata', 'validation_error', `metadata holds at most ${metadataLimits.keys} keys; got ${entries.length}.`);
    const kept: Array<[string, string]> = [];
    for (const [key, value] of entries) {
      const field = `metadata.${key}`;
      if (key.length === 0 || key.length > metadataLimits.keyLength) refuse(field, 'validation_error', `metadata keys have 1 to ${metadataLimits.keyLength} characters.`);
      else if (typeof value !== 'string' || value.length > metadataLimits.valueLength)
        refuse(field, 'validation_error', `metadata values are text of at most ${metadataLimits.valueLength} characters.`);
      else kept.push([key, value]);
    }
    return Object.fromEntries(kept);
  }

  #addToTotals(currency: Currency, amountMinor: number, feeMinor: number): void {
    const total = this.#totals.get(currency) ?? { currency, lines: 0, amountMinor: 0, feeMinor: 0 };
    this.#totals.set(currency, { currency, lines: total.lines + 1, amountMinor: total.amountMinor + amountMinor, feeMinor: total.feeMinor + feeMinor });
  }
}

type Refuse = (field: string, code: BatchProblemCode, message: string) => undefined;
