/**
 * OPERATORS_FILE: which live connector serves which catalog operator, with its credentials.
 * Read once at start; every problem in it is reported at once (ConfigError), and secrets given as
 * `env:NAME` are read from the environment. The result is the live side of the OperatorRegistry.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ConfigError } from '../config.js';
import type { CatalogCountry, OperatorCatalog } from '../core/catalog/operator-catalog.js';
import { routeFlows, type OperatorConnector, type RouteFlow } from '../core/operators/operator-connector.js';
import type { Clock } from '../core/ports.js';
import { connectorFamilies } from './connector-families.js';
import { SecretValue } from './secret-value.js';
import { leaseMisfit } from './lease-fit.js';
import { DEFAULT_LEASE_SECONDS } from '../core/operators/recorded-call.js';

export interface OperatorsFileContext {
  catalog: OperatorCatalog;
  publicUrl: string;
  /** The server's secret, for what a connector must sign (Wave's return URLs). */
  serverSecret: () => string;
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  fetchImpl?: typeof fetch;
  /** IDEMPOTENCY_LEASE_SECONDS: every entry's calls must fit in it (lease-fit.ts); 60 when not given. */
  leaseSeconds?: number;
}

/** One route of a catalog operator: a connector with its own credentials, in the file's order. */
export interface ConfiguredOperator {
  slug: string;
  gatewayCode: string;
  family: string;
  /** Unique among the operator's routes: the entry's `route`, else its connector's name. */
  route: string;
  /** `<slug>/<route>`, e.g. `mtn_bj/mtn-momo`. */
  label: string;
  /** The flows the entry restricts new requests to (`flows`); undefined: all its connector offers. */
  flows?: readonly RouteFlow[];
  /** The entry's `low_float_minor`: under this balance (centimes) new payouts go to another route. */
  lowFloatMinor?: number;
  connector: OperatorConnector;
}

/** The fields of an entry that are about routing, not the connector (kept out of the family's schema). */
const ROUTE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);

const ENV_PREFIX = 'env:';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads and checks the file; the connectors it configures, or a ConfigError listing every problem. */
export function loadOperatorsFile(path: string, context: OperatorsFileContext): ConfiguredOperator[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError([`OPERATORS_FILE ${path}: ${(error as Error).message}`]);
  }
  return parseOperatorsConfig(data, `OPERATORS_FILE ${path}`, context);
}

export function parseOperatorsConfig(data: unknown, source: string, context: OperatorsFileContext): ConfiguredOperator[] {
  const problems: string[] = [];
  const env = context.env ?? process.env;
  if (!isRecord(data) || !isRecord(data['operators']) || Object.keys(data).some((key) => key !== 'operators' && key !== '$schema')) {
    throw new ConfigError([`${source}: must be an object { "operators": { "<catalog slug>": { "connector": ... } } }`]);
  }
  const configured: ConfiguredOperator[] = [];
  const servedCodes = new Map<string, string>();
  for (const [slug, value] of Object.entries(data['operators'])) {
    const at = `${source}: operators.${slug}`;
    const country = context.catalog.countries().find((c) => c.operators.some((o) => o.slug === slug));
    const operator = country?.operators.find((o) => o.slug === slug);
    if (!country || !operator) {
      problems.push(`${at} is not an operator slug of the catalog (e.g. mtn_bj, mtn_ci, wave_ci)`);
      continue;
    }
    const other = servedCodes.get(operator.gatewayCode);
    if (other) problems.push(`${at}: ${operator.label} is configured twice (also as ${other})`);
    servedCodes.set(operator.gatewayCode, slug);
    // One object is the operator's only route; a list its routes in order.
    const entries = Array.isArray(value) ? value : [value];
    if (entries.length === 0) problems.push(`${at} is an empty list: give at least one route`);
    const names = new Set<string>();
    entries.forEach((entry: unknown, index) => {
      const where = Array.isArray(value) ? `${at}[${index}]` : at;
      const route = parseRoute(entry, where, { slug, operatorLabel: operator.label, gatewayCode: operator.gatewayCode, country, context, env, problems });
      if (!route) return;
      if (names.has(route.route)) {
        problems.push(`${where}: the route name ${JSON.stringify(route.route)} is used twice for ${slug}; name each route with "route"`);
        return;
      }
      names.add(route.route);
      configured.push(route);
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return configured;
}

interface RouteContext {
  slug: string;
  operatorLabel: string;
  gatewayCode: string;
  country: CatalogCountry;
  context: OperatorsFileContext;
  env: NodeJS.ProcessEnv;
  problems: string[];
}

/** One entry (one route) checked and built, or undefined with its problems recorded. */
function parseRoute(entry: unknown, at: string, route: RouteContext): ConfiguredOperator | undefined {
  const { problems } = route;
  if (!isRecord(entry)) {
    problems.push(`${at} must be an object { "connector": ... }`);
    return undefined;
  }
  const { route: routeName, flows, low_float_minor: lowFloat, ...connectorEntry } = entry;
  const familyName = connectorEntry['connector'];
  const family = typeof familyName === 'string' ? connectorFamilies.get(familyName) : undefined;
  if (!family) {
    problems.push(`${at}.connector must be one of ${[...connectorFamilies.keys()].join(', ')} (got ${JSON.stringify(familyName)})`);
    return undefined;
  }
  if (!family.gatewayCodes.includes(route.gatewayCode)) {
    problems.push(`${at}: the ${family.name} connector cannot serve ${route.operatorLabel} (it serves ${family.gatewayCodes.join(', ')})`);
    return undefined;
  }
  const before = problems.length;
  if (routeName !== undefined && (typeof routeName !== 'string' || !ROUTE_NAME.test(routeName))) {
    problems.push(`${at}.route must be a name of lowercase letters, digits, - and _ (at most 32), e.g. "mtn-momo-2"`);
  }
  const flowList = flows === undefined ? undefined : Array.isArray(flows) ? flows : null;
  if (flowList === null || flowList?.length === 0 || flowList?.some((flow) => !(routeFlows as readonly unknown[]).includes(flow))) {
    problems.push(`${at}.flows must be a non-empty list of ${routeFlows.map((f) => JSON.stringify(f)).join(', ')}`);
  }
  if (lowFloat !== undefined && (typeof lowFloat !== 'number' || !Number.isSafeInteger(lowFloat) || lowFloat < 0)) {
    problems.push(`${at}.low_float_minor must be a whole number of centimes, 0 or more (e.g. 50000000 for 500 000 FCFA)`);
  }
  const validate = ajv.compile(family.schema);
  if (!validate(connectorEntry)) {
    for (const error of validate.errors ?? []) {
      const where = `${at}${error.instancePath.replaceAll('/', '.')}`;
      const detail = error.keyword === 'additionalProperties' ? `has an unknown field ${JSON.stringify(error.params['additionalProperty'])}` : error.message;
      problems.push(`${where} ${detail}`);
    }
  }
  if (problems.length > before) return undefined;
  const misfit = leaseMisfit(family, connectorEntry, route.context.leaseSeconds ?? DEFAULT_LEASE_SECONDS, at);
  if (misfit) {
    problems.push(misfit);
    return undefined;
  }
  const secret = (value: string, field: string): SecretValue => {
    if (!value.startsWith(ENV_PREFIX)) return new SecretValue(value);
    const name = value.slice(ENV_PREFIX.length);
    const resolved = route.env[name];
    if (resolved === undefined || resolved === '') problems.push(`${at}.${field} names the environment variable ${name}, which is not set`);
    return new SecretValue(resolved ?? '');
  };
  const { context } = route;
  const connector = family.build(connectorEntry as never, {
    slug: route.slug,
    country: route.country,
    secret,
    publicUrl: context.publicUrl,
    serverSecret: context.serverSecret,
    clock: context.clock,
    fetchImpl: context.fetchImpl,
  });
  if (problems.length > before) return undefined;
  if (lowFloat !== undefined && !connector.balance) {
    problems.push(`${at}.low_float_minor: this ${family.name} entry cannot read its balance (docs/operations.md "Floats"), so no float can be watched`);
    return undefined;
  }
  const name = (routeName as string | undefined) ?? family.name;
  return {
    slug: route.slug,
    gatewayCode: route.gatewayCode,
    family: family.name,
    route: name,
    label: `${route.slug}/${name}`,
    ...(flowList ? { flows: flowList as RouteFlow[] } : {}),
    ...(lowFloat !== undefined ? { lowFloatMinor: lowFloat as number } : {}),
    connector,
  };
}
