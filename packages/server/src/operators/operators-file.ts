/**
 * OPERATORS_FILE: which live connector serves which catalog operator, with its credentials.
 * Read once at start; every problem in it is reported at once (ConfigError), and secrets given as
 * `env:NAME` are read from the environment. The result is the live side of the OperatorRegistry.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ConfigError } from '../config.js';
import type { OperatorCatalog } from '../core/catalog/operator-catalog.js';
import type { OperatorConnector } from '../core/operators/operator-connector.js';
import type { Clock } from '../core/ports.js';
import { connectorFamilies } from './connector-families.js';
import { SecretValue } from './secret-value.js';
import { leaseMisfit } from './lease-fit.js';
import { DEFAULT_LEASE_SECONDS } from '../core/operators/recorded-call.js';

export interface OperatorsFileContext {
  catalog: OperatorCatalog;
  publicUrl: string;
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  fetchImpl?: typeof fetch;
  /** IDEMPOTENCY_LEASE_SECONDS: every entry's calls must fit in it (lease-fit.ts); 60 when not given. */
  leaseSeconds?: number;
}

export interface ConfiguredOperator {
  slug: string;
  gatewayCode: string;
  family: string;
  connector: OperatorConnector;
}

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
  for (const [slug, entry] of Object.entries(data['operators'])) {
    const at = `${source}: operators.${slug}`;
    const country = context.catalog.countries().find((c) => c.operators.some((o) => o.slug === slug));
    const operator = country?.operators.find((o) => o.slug === slug);
    if (!country || !operator) {
      problems.push(`${at} is not an operator slug of the catalog (e.g. mtn_bj, mtn_ci, wave_ci)`);
      continue;
    }
    const familyName = isRecord(entry) ? entry['connector'] : undefined;
    const family = typeof familyName === 'string' ? connectorFamilies.get(familyName) : undefined;
    if (!family) {
      problems.push(`${at}.connector must be one of ${[...connectorFamilies.keys()].join(', ')} (got ${JSON.stringify(familyName)})`);
      continue;
    }
    if (!family.gatewayCodes.includes(operator.gatewayCode)) {
      problems.push(`${at}: the ${family.name} connector cannot serve ${operator.label} (it serves ${family.gatewayCodes.join(', ')})`);
      continue;
    }
    const validate = ajv.compile(family.schema);
    if (!validate(entry)) {
      for (const error of validate.errors ?? []) {
        const where = `${at}${error.instancePath.replaceAll('/', '.')}`;
        const detail = error.keyword === 'additionalProperties' ? `has an unknown field ${JSON.stringify(error.params['additionalProperty'])}` : error.message;
        problems.push(`${where} ${detail}`);
      }
      continue;
    }
    const misfit = leaseMisfit(family, entry, context.leaseSeconds ?? DEFAULT_LEASE_SECONDS, at);
    if (misfit) {
      problems.push(misfit);
      continue;
    }
    const before = problems.length;
    const secret = (value: string, field: string): SecretValue => {
      if (!value.startsWith(ENV_PREFIX)) return new SecretValue(value);
      const name = value.slice(ENV_PREFIX.length);
      const resolved = env[name];
      if (resolved === undefined || resolved === '') problems.push(`${at}.${field} names the environment variable ${name}, which is not set`);
      return new SecretValue(resolved ?? '');
    };
    const connector = family.build(entry as never, { slug, country, secret, publicUrl: context.publicUrl, clock: context.clock, fetchImpl: context.fetchImpl });
    if (problems.length > before) continue;
    const other = servedCodes.get(operator.gatewayCode);
    if (other) problems.push(`${at}: ${operator.label} is configured twice (also as ${other})`);
    servedCodes.set(operator.gatewayCode, slug);
    configured.push({ slug, gatewayCode: operator.gatewayCode, family: family.name, connector });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return configured;
}
