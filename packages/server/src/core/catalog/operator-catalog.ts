// Operator catalog: which countries, currencies and Mobile Money operators Akwe serves.
// The catalog is data (operators.json beside this file); this module only validates and
// indexes it. Validation is plain TypeScript so that every error names the exact JSON path
// (e.g. `catalog: countries[1].operators[0].slug must be a non-empty string`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const countryCodes = ['BJ', 'TG', 'CI'] as const;
export type CountryCode = (typeof countryCodes)[number];

export const currencies = ['XOF', 'XAF'] as const;
export type Currency = (typeof currencies)[number];

/** What Akwe charges on one operation: a share in basis points (150 = 1.5 %) plus a fixed part. */
export interface FeeSchedule {
  percentBps: number;
  fixedMinor: number;
}

export interface OperatorCapability {
  supported: boolean;
  minAmountMinor: number;
  maxAmountMinor: number;
  fee: FeeSchedule;
}

/** Fees when a catalog file gives none (docs/ledger.md "Fees"). */
export const defaultFees: Readonly<Record<'collect' | 'payout', FeeSchedule>> = Object.freeze({
  collect: Object.freeze({ percentBps: 150, fixedMinor: 0 }),
  payout: Object.freeze({ percentBps: 100, fixedMinor: 5_000 }),
});

export interface CatalogOperator {
  slug: string;
  label: string;
  gatewayCode: string;
  aliases: readonly string[];
  requiresOtp: boolean;
  collect: OperatorCapability;
  payout: OperatorCapability;
}

/**
 * Which operator a mobile number was issued to, by the regulator's numbering plan: the prefix of
 * the national number (E.164 without the country code) -> canonical operator slug.
 */
export interface NumberingPlan {
  /** Where the prefixes come from (the regulator's plan), and when they were last checked. */
  source: string;
  asOf: string;
  /** Numbers can move to another operator and keep their prefix (mobile number portability). */
  portability: boolean;
  prefixes: ReadonlyMap<string, string>;
  /** Operators any number of the country may use (a wallet that is not a network: Wave). */
  anyNumber: readonly string[];
}

export interface CatalogCountry {
  code: CountryCode;
  name: string;
  currencies: readonly Currency[];
  defaultCurrency: Currency;
  operators: readonly CatalogOperator[];
  /** Absent: no operator is predicted from numbers of this country. */
  numbering?: NumberingPlan;
}

// Slugs and aliases travel in request bodies (earlier contract: operator max 32 chars) and are
// matched case-insensitively, so the catalog itself keeps them lower-case and bounded.
const slugPattern = /^[a-z][a-z0-9_]*$/;
const maxSlugLength = 32;

type Json = Record<string, unknown>;

function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && (countryCodes as readonly string[]).includes(value);
}

function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (currencies as readonly string[]).includes(value);
}

/** Collects the failing path so every message reads `<source>: <path> <problem>`. */
class Validator {
  constructor(private readonly source: string) {}

  fail(path: string, problem: string): never {
    throw new Error(`${this.source}: ${path} ${problem}`);
  }

  object(value: unknown, path: string, allowed: readonly string[]): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path || 'root', 'must be an object');
    // Unknown keys are refused so that a typo ("alias", "requiresOtp") cannot silently drop data.
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail(path === '' ? key : `${path}.${key}`, 'is not a known field');
    }
    return value as Json;
  }

  /** An object whose keys are data (any key allowed). */
  record(value: unknown, path: string): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'must be an object');
    return value as Json;
  }

  array(value: unknown, path: string, nonEmpty: boolean): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    if (nonEmpty && value.length === 0) this.fail(path, 'must not be empty');
    return value;
  }

  string(value: unknown, path: string): string {
    if (typeof value !== 'string' || value.trim() === '') this.fail(path, 'must be a non-empty string');
    return value;
  }

  slug(value: unknown, path: string): string {
    const text = this.string(value, path);
    if (!slugPattern.test(text) || text.length > maxSlugLength) {
      this.fail(path, `must be a lower-case slug (a-z, 0-9, _; starting with a letter; at most ${maxSlugLength} characters)`);
    }
    return text;
  }

  boolean(value: unknown, path: string): boolean {
    if (typeof value !== 'boolean') this.fail(path, 'must be a boolean');
    return value;
  }

  positiveInteger(value: unknown, path: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      this.fail(path, 'must be a positive integer (minor units)');
    }
    return value;
  }

  nonNegativeInteger(value: unknown, path: string): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) this.fail(path, 'must be a whole number, 0 or more');
    return value;
  }
}

function parseFee(v: Validator, raw: unknown, path: string, fallback: FeeSchedule): FeeSchedule {
  if (raw === undefined) return fallback;
  const obj = v.object(raw, path, ['percent_bps', 'fixed_minor']);
  const percentBps = v.nonNegativeInteger(obj['percent_bps'], `${path}.percent_bps`);
  if (percentBps >= 10_000) v.fail(`${path}.percent_bps`, 'must be below 10000 (100 %)');
  return Object.freeze({ percentBps, fixedMinor: v.nonNegativeInteger(obj['fixed_minor'], `${path}.fixed_minor`) });
}

function parseCapability(v: Validator, raw: unknown, path: string, direction: 'collect' | 'payout'): OperatorCapability {
  const obj = v.object(raw, path, ['supported', 'min_amount_minor', 'max_amount_minor', 'fee']);
  const supported = v.boolean(obj['supported'], `${path}.supported`);
  const minAmountMinor = v.positiveInteger(obj['min_amount_minor'], `${path}.min_amount_minor`);
  const maxAmountMinor = v.positiveInteger(obj['max_amount_minor'], `${path}.max_amount_minor`);
  if (minAmountMinor > maxAmountMinor) {
    v.fail(`${path}.min_amount_minor`, `(${minAmountMinor}) must not exceed max_amount_minor (${maxAmountMinor})`);
  }
  const fee = parseFee(v, obj['fee'], `${path}.fee`, defaultFees[direction]);
  return Object.freeze({ supported, minAmountMinor, maxAmountMinor, fee });
}

const operatorKeys = ['slug', 'label', 'gateway_code', 'aliases', 'requires_otp', 'collect', 'payout'] as const;

function parseOperator(v: Validator, raw: unknown, path: string): CatalogOperator {
  const obj = v.object(raw, path, operatorKeys);
  const slug = v.slug(obj['slug'], `${path}.slug`);
  const label = v.string(obj['label'], `${path}.label`);
  const gatewayCode = v.string(obj['gateway_code'], `${path}.gateway_code`);
  // Aliases are optional in the published contract; absent means none.
  const rawAliases = obj['aliases'] === undefined ? [] : v.array(obj['aliases'], `${path}.aliases`, false);
  const aliases = rawAliases.map((alias, i) => v.slug(alias, `${path}.aliases[${i}]`));
  const requiresOtp = v.boolean(obj['requires_otp'], `${path}.requires_otp`);
  const collect = parseCapability(v, obj['collect'], `${path}.collect`, 'collect');
  const payout = parseCapability(v, obj['payout'], `${path}.payout`, 'payout');
  return Object.freeze({
    slug,
    label,
    gatewayCode,
    aliases: Object.freeze(aliases),
    requiresOtp,
    collect,
    payout,
  });
}

interface IndexedCountry {
  country: CatalogCountry;
  /** Lower-cased slug or alias -> canonical operator. */
  byName: ReadonlyMap<string, CatalogOperator>;
}

function parseNumbering(v: Validator, raw: unknown, path: string, operators: readonly CatalogOperator[]): NumberingPlan {
  const obj = v.object(raw, path, ['source', 'as_of', 'portability', 'prefixes', 'any_number']);
  const source = v.string(obj['source'], `${path}.source`);
  const asOf = v.string(obj['as_of'], `${path}.as_of`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf)) v.fail(`${path}.as_of`, 'must be a date (YYYY-MM-DD)');
  const portability = v.boolean(obj['portability'], `${path}.portability`);
  const slugs = new Set(operators.map((o) => o.slug));
  const own = (slug: unknown, at: string): string => {
    const text = v.slug(slug, at);
    if (!slugs.has(text)) v.fail(at, `must be the slug of one of the country's operators (${[...slugs].join(', ')})`);
    return text;
  };
  const prefixesRaw = v.record(obj['prefixes'], `${path}.prefixes`);
  const prefixes = new Map<string, string>();
  for (const [prefix, slug] of Object.entries(prefixesRaw)) {
    if (!/^\d{1,6}$/.test(prefix)) v.fail(`${path}.prefixes.${prefix}`, 'must be the first 1 to 6 digits of a national number');
    prefixes.set(prefix, own(slug, `${path}.prefixes.${prefix}`));
  }
  const anyNumber = v.array(obj['any_number'] ?? [], `${path}.any_number`, false).map((slug, i) => own(slug, `${path}.any_number[${i}]`));
  return Object.freeze({ source, asOf, portability, prefixes, anyNumber: Object.freeze(anyNumber) });
}

function parseCountry(v: Validator, raw: unknown, path: string): IndexedCountry {
  const obj = v.object(raw, path, ['code', 'name', 'currencies', 'default_currency', 'operators', 'numbering']);
  const code = obj['code'];
  if (!isCountryCode(code)) v.fail(`${path}.code`, `must be one of ${countryCodes.join(', ')}`);
  const name = v.string(obj['name'], `${path}.name`);

  const countryCurrencies = v.array(obj['currencies'], `${path}.currencies`, true).map((currency, i) => {
    if (!isCurrency(currency)) v.fail(`${path}.currencies[${i}]`, `must be one of ${currencies.join(', ')}`);
    return currency;
  });
  countryCurrencies.forEach((currency, i) => {
    if (countryCurrencies.indexOf(currency) !== i) v.fail(`${path}.currencies[${i}]`, `duplicates ${currency}`);
  });
  const defaultCurrency = obj['default_currency'];
  if (!isCurrency(defaultCurrency) || !countryCurrencies.includes(defaultCurrency)) {
    v.fail(`${path}.default_currency`, `must be one of the country's currencies (${countryCurrencies.join(', ')})`);
  }

  const operators = v.array(obj['operators'], `${path}.operators`, true).map((op, i) => parseOperator(v, op, `${path}.operators[${i}]`));

  // Slugs and aliases share one case-insensitive namespace per country: a name must lead to
  // exactly one operator, otherwise lookup would depend on file order.
  const byName = new Map<string, CatalogOperator>();
  operators.forEach((op, i) => {
    const names: Array<[string, string]> = [
      [op.slug, `${path}.operators[${i}].slug`],
      ...op.aliases.map((alias, j): [string, string] => [alias, `${path}.operators[${i}].aliases[${j}]`]),
    ];
    for (const [name, namePath] of names) {
      const key = name.toLowerCase();
      const owner = byName.get(key);
      if (owner !== undefined) v.fail(namePath, `"${name}" is already used by operator ${owner.slug} in ${code}`);
      byName.set(key, op);
    }
  });

  const numbering = obj['numbering'] === undefined ? undefined : parseNumbering(v, obj['numbering'], `${path}.numbering`, operators);
  const country: CatalogCountry = Object.freeze({
    code,
    name,
    currencies: Object.freeze(countryCurrencies),
    defaultCurrency,
    operators: Object.freeze(operators),
    ...(numbering ? { numbering } : {}),
  });
  return { country, byName };
}

export class OperatorCatalog {
  readonly version: string;
  readonly #countries: readonly CatalogCountry[];
  readonly #byCode: ReadonlyMap<string, IndexedCountry>;

  private constructor(version: string, indexed: readonly IndexedCountry[]) {
    this.version = version;
    this.#countries = Object.freeze(indexed.map((entry) => entry.country));
    this.#byCode = new Map(indexed.map((entry) => [entry.country.code, entry]));
    Object.freeze(this);
  }

  /** Validates raw catalog JSON; throws an Error naming the first bad path. */
  static fromData(data: unknown): OperatorCatalog {
    return OperatorCatalog.#parse(data, 'catalog');
  }

  /** Reads and validates a catalog file; every error message names the file. */
  static fromFile(path: string): OperatorCatalog {
    const source = `catalog ${path}`;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`${source}: cannot read file (${(err as Error).message})`, { cause: err });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`${source}: invalid JSON (${(err as Error).message})`, { cause: err });
    }
    return OperatorCatalog.#parse(data, source);
  }

  static #parse(data: unknown, source: string): OperatorCatalog {
    const v = new Validator(source);
    const root = v.object(data, '', ['version', 'countries']);
    const version = v.string(root['version'], 'version');
    const indexed = v.array(root['countries'], 'countries', true).map((c, i) => parseCountry(v, c, `countries[${i}]`));
    indexed.forEach((entry, i) => {
      const first = indexed.findIndex((other) => other.country.code === entry.country.code);
      if (first !== i) v.fail(`countries[${i}].code`, `duplicates countries[${first}].code (${entry.country.code})`);
    });
    return new OperatorCatalog(version, indexed);
  }

  countries(): readonly CatalogCountry[] {
    return this.#countries;
  }

  /** By ISO code, case-insensitive (`bj` is Benin), like operator slugs. */
  country(code: string): CatalogCountry | undefined {
    return this.#byCode.get(code.toUpperCase())?.country;
  }

  /** The canonical slugs a slug or alias names in any country (list filters). */
  slugsNamed(slugOrAlias: string): string[] {
    return this.countries().flatMap((country) => this.findOperator(country.code, slugOrAlias)?.slug ?? []);
  }

  /** The operator a slug or alias names in the country, when it collects (or pays out) there. */
  operatorFor(country: string, slugOrAlias: string, direction: 'collect' | 'payout'): CatalogOperator | undefined {
    const operator = this.findOperator(country, slugOrAlias);
    return operator?.[direction].supported ? operator : undefined;
  }

  /** Slug or alias, case-insensitive; always returns the canonical operator of that country. */
  findOperator(country: string, slugOrAlias: string): CatalogOperator | undefined {
    if (typeof slugOrAlias !== 'string') return undefined; // callers may pass unchecked input
    return this.#byCode.get(country.toUpperCase())?.byName.get(slugOrAlias.toLowerCase());
  }
}

let defaultCatalog: OperatorCatalog | undefined;

/** The catalog shipped in operators.json beside this module (read once; it is immutable). */
export function loadDefaultCatalog(): OperatorCatalog {
  defaultCatalog ??= OperatorCatalog.fromFile(fileURLToPath(new URL('./operators.json', import.meta.url)));
  return defaultCatalog;
}
