import type { CatalogCountry, CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import { normalizePhone } from '../phones/phone-number.js';

/** What a payment's input must be against the operator catalog: country, operator, phone, amount. */
export class CollectCatalog {
  constructor(private readonly catalog: OperatorCatalog) {}

  /** The canonical slugs a slug or alias names in any country; an unknown one is refused, not silently empty. */
  canonicalOperators(slugOrAlias: string): string[] {
    const slugs = this.catalog.slugsNamed(slugOrAlias);
    if (slugs.length === 0) throw new AkweError('validation_error', `Unknown operator ${slugOrAlias}; see the operator catalog.`, { field: 'operator' });
    return slugs;
  }

  /** A country of the catalog; an unknown one is refused (invalid_operator). */
  country(code: string): CatalogCountry {
    const country = this.catalog.country(code);
    if (!country) throw new AkweError('invalid_operator', `Country ${code} is not supported; see the operator catalog.`, { field: 'country' });
    return country;
  }

  /** An operator that collects in `country`. */
  operator(country: CatalogCountry, slug: string): CatalogOperator {
    const operator = this.catalog.operatorFor(country.code, slug, 'collect');
    if (!operator) {
      throw new AkweError('invalid_operator', `Operator ${slug} does not collect in ${country.name}; see the operator catalog.`, { field: 'operator' });
    }
    return operator;
  }

  /** A phone number of `country`, as E.164; `field` names it in the error. */
  phone(country: CatalogCountry, raw: string, field: string): string {
    const check = normalizePhone(country.code, raw);
    if (!check.ok) throw new AkweError('invalid_phone', check.message, { field });
    return check.e164;
  }

  /** The amount within the operator's collection limits (or, without one, the country's widest). */
  checkAmount(amountMinor: number, country: CatalogCountry, operator: CatalogOperator | undefined): void {
    const limits = operator ? [operator.collect] : country.operators.filter((o) => o.collect.supported).map((o) => o.collect);
    const min = Math.min(...limits.map((l) => l.minAmountMinor));
    const max = Math.max(...limits.map((l) => l.maxAmountMinor));
    const subject = operator ? `payment through ${operator.slug}` : 'payment';
    if (amountMinor < min) throw AkweError.ofAmount({ bound: 'minimum', limitMinor: min, subject, sentMinor: amountMinor });
    if (amountMinor > max) throw AkweError.ofAmount({ bound: 'maximum', limitMinor: max, subject, sentMinor: amountMinor });
  }
}
