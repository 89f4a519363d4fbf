import type { CatalogCountry, CatalogOperator, OperatorCatalog } from '../../core/catalog/operator-catalog.js';

/** How one contract renders the catalog; the walk over countries and operators is shared. */
export interface CatalogRendering<Country, Operator> {
  /** A country lists the operators supporting this flow. */
  flow: 'collect' | 'payout';
  /** The contract's fields of one listed operator. */
  operator(operator: CatalogOperator): Operator;
  /** The contract's fields of one country, given its listed operators and the ones it leaves out. */
  country(country: CatalogCountry, operators: Operator[], leftOut: CatalogOperator[]): Country;
}

/** Every country of the catalog, in its order, rendered the contract's way. */
export function catalogCountries<Country, Operator>(catalog: OperatorCatalog, rendering: CatalogRendering<Country, Operator>): Country[] {
  return catalog.countries().map((country) => {
    const listed = country.operators.filter((operator) => operator[rendering.flow].supported);
    const leftOut = country.operators.filter((operator) => !operator[rendering.flow].supported);
    return rendering.country(country, listed.map(rendering.operator), leftOut);
  });
}

/** The country fields the current collect and the payout catalogs share. */
export function countryFields<Operator>(country: CatalogCountry, operators: Operator[]) {
  return { code: country.code, name: country.name, currencies: [...country.currencies], default_currency: country.defaultCurrency, operators };
}

/** Every catalog names an operator with these first. */
export function operatorIdentity(operator: CatalogOperator) {
  return { slug: operator.slug, label: operator.label, gateway_code: operator.gatewayCode };
}
