import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { ReconciliationRun } from '../core/reconciliation/reconciliation-run.js';
import { runToWire } from '../http/admin/reconciliation-schemas.js';
import { systemClock } from '../core/shared/clock.js';
import { discrepancyRow } from '../storage/repositories/discrepancy-repository.js';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

function positive(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 10_000) throw new InvalidArgumentError('a whole number from 1 to 10000');
  return parsed;
}

function runSummary(run: ReconciliationRun): string {
  const c = run.counts;
  return [
    `run ${run.id}: ${run.route} from ${run.periodStart} to ${run.periodEnd}, ${run.lineCount} lines in the report`,
    `matched ${c.matched}; missing at the provider ${c.missing_at_provider}; missing at Akwe ${c.missing_at_akwe}; amount differs ${c.amount_differs}; status differs ${c.status_differs}`,
    `collected: provider ${run.providerCollectedMinor}, Akwe ${run.akweCollectedMinor}; paid out: provider ${run.providerPaidOutMinor}, Akwe ${run.akwePaidOutMinor} (centimes)`,
  ].join('\n');
}

/** `akwe reconcile`: providers' reports matched against our records, and the discrepancies for a person to decide. */
export function reconcileCommands(): Command {
  const reconcile = new Command('reconcile').description("reconciliation: providers' reports and operator discrepancies (docs/operations.md, docs/operators.md)");
  reconcile
    .command('import')
    .description("match a provider's report (CSV) against our payments, payouts and refunds; each mismatch becomes a discrepancy")
    .argument('<provider>', 'the report format: mtn-momo, wave, orange-money, fedapay or pawapay')
    .argument('<file>', "the provider's report, as exported")
    .option('--route <name>', "the operators file's route the report is of (default: the provider's name)")
    .option('--date <YYYY-MM-DD>', 'the UTC day the report covers (default: the days of its lines)')
    .option('--json', 'print JSON')
    .action(async (provider: string, file: string, options: { route?: string; date?: string; json?: boolean }) => {
      const text = readFileSync(file, 'utf8');
      await withServices(async (services) => {
        const { run, created } = await services.reconciliation.importReport({
          provider,
          text,
          fileName: basename(file),
          source: 'cli',
          ...(options.route === undefined ? {} : { route: options.route }),
          ...(options.date === undefined ? {} : { day: options.date }),
        });
        output(options.json, { ...runToWire(run), already_imported: !created }, () => `${created ? '' : 'already imported, nothing recorded again: '}${runSummary(run)}`);
      });
    });
  reconcile
    .command('runs')
    .description('reconciliation runs, newest first')
    .option('--route <name>', 'only this route')
    .option('--limit <n>', 'at most this many', positive, 20)
    .option('--json', 'print JSON')
    .action(async (options: { route?: string; limit: number; json?: boolean }) => {
      await withServices(async (services) => {
        const page = await services.reconciliation.listRuns({ limit: options.limit, ...(options.route === undefined ? {} : { route: options.route }) });
        output(options.json, { data: page.data.map(runToWire) }, () =>
          table(
            page.data.map((run) => ({
              id: run.id,
              route: run.route,
              day: run.periodStart.slice(0, 10),
              matched: String(run.counts.matched),
              mismatched: String(run.counts.missing_at_provider + run.counts.missing_at_akwe + run.counts.amount_differs + run.counts.status_differs),
              at: run.createdAt,
            })),
          ),
        );
      });
    });
  reconcile
    .command('discrepancies')
    .description('list operator discrepancies still to decide, newest first (--all: decided ones too)')
    .option('--all', 'include the ones already resolved')
    .option('--limit <n>', 'at most this many', positive, 100)
    .option('--json', 'print JSON')
    .action(async (options: { all?: boolean; limit: number; json?: boolean }) => {
      await withServices(async (services) => {
        const found = await services.discrepancies.list({ unresolvedOnly: !options.all, limit: options.limit });
        output(options.json, { data: found.map(discrepancyRow) }, () =>
          table(
            found.map((d) => ({
              id: d.id,
              kind: d.kind,
              at: d.createdAt,
              env: d.environment,
              resource: `${d.resourceType} ${d.reference}${d.route ? ` (${d.route})` : ''}`,
              operator: d.operator,
              ours: d.ourStatus,
              'operator says': d.operatorStatus,
              resolved: d.resolvedAt ? `${d.resolvedAt} (${d.resolution})` : 'no',
            })),
          ),
        );
      });
    });
  reconcile
    .command('resolve')
    .description('mark a discrepancy decided, with what was done (e.g. "refunded the customer by hand")')
    .argument('<id>', 'discrepancy id')
    .requiredOption('--note <text>', 'what was decided and done')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { note: string; json?: boolean }) => {
      await withServices(async (services) => {
        const resolved = await services.discrepancies.resolve(id, options.note, systemClock.now().toISOString());
        if (!resolved) throw new Error(`no discrepancy ${id}`);
        output(options.json, discrepancyRow(resolved), () => `discrepancy ${resolved.id} resolved at ${resolved.resolvedAt}: ${resolved.resolution}`);
      });
    });
  return reconcile;
}
