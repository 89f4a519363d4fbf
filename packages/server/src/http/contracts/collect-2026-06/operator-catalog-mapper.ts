import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';
import { operatorAvailability } from '../../../core/operators/operator-availability.js';
import type { OperatorConnectors } from '../../../core/operators/operator-connector.js';
import type { Environment } from '../../../core/shared/environment.js';
import { toMajorUnitsCeil, toMajorUnitsFloor } from '../../../core/shared/money.js';
import { catalogCountries, countryFields, operatorIdentity } from '../../shared/operator-catalog-body.js';

export const CURRENT_API_VERSION = '2026-06';

/**
 * The current contract's catalog: collect operators only, amounts in major units, each with its
 * status and what it takes in the key's environment (read from the connectors at each request).
 */
export function currentCatalogBody(catalog: OperatorCatalog, connectors: OperatorConnectors, environment: Environment) {
  return {
    object: 'collect.operator_catalog' as const,
    api_version: CURRENT_API_VERSION,
    catalog_version: catalog.version,
    countries: catalogCountries(catalog, {
      flow: 'collect',
      operator: (operator) => ({
        ...operatorIdentity(operator),
        aliases: [...operator.aliases],
        requires_otp: operator.requiresOtp,
        min_amount: toMajorUnitsCeil(operator.collect.minAmountMinor),
        max_amount: toMajorUnitsFloor(operator.collect.maxAmountMinor),
        ...collectAvailability(connectors, environment, operator),
      }),
      country: countryFields,
    }),
  };
}

function collectAvailability(connectors: OperatorConnectors, environment: Environment, operator: Parameters<typeof operatorAvailability>[2]) {
  const { status, supports } = operatorAvailability(connectors, environment, operator);
  return { status, supports: { direct: supports.direct, hosted: supports.hosted, refunds: supports.refunds } };
}
