/**
 * The daily reconciliation, where a provider's API offers statements (docs/operations.md
 * "Reconciliation"): each route whose connector can fetch statements gets a run of the day before,
 * once the day is `settleHours` old (a provider's statement may lag behind). A route with a run
 * covering that day already (from this job, a person or the CLI) is left alone, so every worker may
 * run the job; the same file twice is one run anyway.
 */
import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import type { OperatorConnectors, StatementFetch } from '../operators/operator-connector.js';
import type { Clock } from '../ports.js';
import type { ReconciliationService } from './reconciliation-service.js';

const DAY_MS = 86_400_000;

export interface StatementRoute {
  route: string;
  provider: string;
  /** The statements to read for the route, one per wallet (each key once). */
  fetches: StatementFetch[];
}

/** The live routes whose connectors fetch statements, from the catalog's operators. */
export function statementRoutes(catalog: OperatorCatalog, connectors: OperatorConnectors): StatementRoute[] {
  const routes = new Map<string, StatementRoute>();
  for (const country of catalog.countries()) {
    for (const operator of country.operators) {
      for (const route of connectors.routesFor('live', operator.gatewayCode)) {
        const fetch = route.connector.statements;
        if (!fetch) continue;
        const entry = routes.get(route.name) ?? { route: route.name, provider: route.connector.family, fetches: [] };
        if (!entry.fetches.some((known) => known.key === fetch.key)) entry.fetches.push(fetch);
        routes.set(route.name, entry);
      }
    }
  }
  return [...routes.values()];
}

/** Several statements of one format as one report: the first header kept, the others' dropped. */
export function joinStatements(texts: readonly string[]): string {
  const [first, ...rest] = texts.map((text) => text.replace(/^\ufeff/, ''));
  if (first === undefined) return '';
  const withEnd = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\r\n`);
  return [withEnd(first), ...rest.map((text) => withEnd(text.replace(/^[^\n]*\n?/, '')))].join('');
}

export class DailyStatements {
  constructor(
    private readonly deps: {
      reconciliation: ReconciliationService;
      routes: () => StatementRoute[];
      clock: Clock;
      /** Hours after midnight UTC before the day before is fetched. */
      settleHours: number;
      onFailure?: (route: string, error: unknown) => void;
    },
  ) {}

  /** The day to reconcile now (YYYY-MM-DD): yesterday, once settled; undefined before. */
  dueDay(): string | undefined {
    const now = this.deps.clock.now().getTime();
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    if (now - today < this.deps.settleHours * 3_600_000) return undefined;
    return new Date(today - DAY_MS).toISOString().slice(0, 10);
  }

  /** Runs what is due; the number of runs made. A route that fails is told of and tried again next pass. */
  async runDue(): Promise<number> {
    const day = this.dueDay();
    if (day === undefined) return 0;
    let made = 0;
    for (const route of this.deps.routes()) {
      if (await this.deps.reconciliation.hasRunFor(route.route, day)) continue;
      try {
        const texts = [];
        for (const fetch of route.fetches) texts.push(await fetch.fetch(day));
        const { created } = await this.deps.reconciliation.importReport({
          provider: route.provider,
          route: route.route,
          text: joinStatements(texts),
          day,
          fileName: `${route.route}-statement-${day}.csv`,
          source: 'scheduled',
        });
        if (created) made += 1;
      } catch (error) {
        this.deps.onFailure?.(route.route, error);
      }
    }
    return made;
  }
}
