import { Command, InvalidArgumentError } from 'commander';
import { systemClock } from '../core/shared/clock.js';
import { discrepancyRow } from '../storage/repositories/discrepancy-repository.js';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

function positive(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 10_000) throw new InvalidArgumentError('a whole number from 1 to 10000');
  return parsed;
}

/** `akwe reconcile`: what operators reported that our records refused, for a person to decide. */
export function reconcileCommands(): Command {
  const reconcile = new Command('reconcile').description('operator discrepancies: answers our state machine refused (docs/operators.md)');
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
              at: d.createdAt,
              env: d.environment,
              resource: `${d.resourceType} ${d.reference}`,
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
