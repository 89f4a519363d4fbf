/**
 * PROVIDER_COSTS_FILE (docs/operations.md "Revenue"): what each route's provider charges Akwe, per
 * flow, so the revenue report shows the margin per route. Read once; every problem in it is
 * reported at once (ConfigError).
 *
 *   { "costs": { "mtn_bj/mtn-momo": { "collect": { "percent_bps": 80, "fixed_minor": 0 },
 *                                      "payout": { "percent_bps": 0, "fixed_minor": 5000 } } } }
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config.js';
import { costFlows, type CostFlow, type ProviderCost, type ProviderCosts } from '../core/revenue/provider-costs.js';

const ROUTE_LABEL = /^[a-z0-9_]+\/[a-z0-9][a-z0-9_-]{0,31}$/;
const MAX_BPS = 10_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isWhole(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

export function loadProviderCostsFile(path: string): ProviderCosts {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError([`PROVIDER_COSTS_FILE ${path}: ${(error as Error).message}`]);
  }
  return parseProviderCosts(data, `PROVIDER_COSTS_FILE ${path}`);
}

export function parseProviderCosts(data: unknown, source: string): ProviderCosts {
  if (!isRecord(data) || !isRecord(data['costs']) || Object.keys(data).some((key) => key !== 'costs' && key !== '$schema')) {
    throw new ConfigError([`${source}: must be an object { "costs": { "<operator>/<route>": { "collect": { "percent_bps": 80, "fixed_minor": 0 } } } }`]);
  }
  const problems: string[] = [];
  const costs = new Map<string, Partial<Record<CostFlow, ProviderCost>>>();
  for (const [label, flows] of Object.entries(data['costs'])) {
    const at = `${source}: costs.${label}`;
    if (!ROUTE_LABEL.test(label)) problems.push(`${at}: a route is named <operator slug>/<route>, e.g. mtn_bj/mtn-momo`);
    if (!isRecord(flows)) {
      problems.push(`${at} must be an object of flows (${costFlows.join(', ')})`);
      continue;
    }
    const byFlow: Partial<Record<CostFlow, ProviderCost>> = {};
    for (const [flow, cost] of Object.entries(flows)) {
      if (!(costFlows as readonly string[]).includes(flow)) {
        problems.push(`${at}.${flow} is not a flow: use ${costFlows.join(', ')}`);
        continue;
      }
      const fields = isRecord(cost) ? cost : {};
      const percent = fields['percent_bps'] ?? 0;
      const fixed = fields['fixed_minor'] ?? 0;
      const unknown = Object.keys(fields).filter((key) => key !== 'percent_bps' && key !== 'fixed_minor');
      if (!isRecord(cost) || unknown.length > 0) problems.push(`${at}.${flow} must be { "percent_bps": <0..10000>, "fixed_minor": <centimes> }`);
      else if (!isWhole(percent, MAX_BPS)) problems.push(`${at}.${flow}.percent_bps must be a whole number of basis points from 0 to ${MAX_BPS}`);
      else if (!isWhole(fixed, Number.MAX_SAFE_INTEGER)) problems.push(`${at}.${flow}.fixed_minor must be a whole number of centimes, 0 or more`);
      else byFlow[flow as CostFlow] = { percentBps: percent, fixedMinor: fixed };
    }
    costs.set(label, byFlow);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return costs;
}
