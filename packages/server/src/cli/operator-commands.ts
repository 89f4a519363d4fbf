import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { systemClock } from '../core/shared/clock.js';
import { resolveSecret } from '../secret.js';
import { output, table } from './output.js';

/** `akwe operators check`: each configured live connector asked something harmless, its state printed. */
export function operatorCommands(): Command {
  const operators = new Command('operators').description('live operator connectors (OPERATORS_FILE)');
  operators
    .command('check')
    .description('fetch a token and call a harmless endpoint of every route of every configured operator; exits 1 if one fails')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const config = loadConfig();
      if (!config.operatorsFile) throw new Error('OPERATORS_FILE is not set: no live operator is configured (docs/operators.md)');
      const [{ loadDefaultCatalog, OperatorCatalog }, { loadOperatorsFile }] = await Promise.all([
        import('../core/catalog/operator-catalog.js'),
        import('../operators/operators-file.js'),
      ]);
      const catalog = config.catalogFile ? OperatorCatalog.fromFile(config.catalogFile) : loadDefaultCatalog();
      const configured = loadOperatorsFile(config.operatorsFile, {
        catalog,
        publicUrl: config.publicUrl,
        serverSecret: () => resolveSecret(config),
        clock: systemClock,
        leaseSeconds: config.idempotencyLeaseSeconds,
      });
      const results = await Promise.all(
        configured.map(async (entry) => ({
          operator: entry.slug,
          route: entry.label,
          connector: entry.family,
          checks: entry.connector.check ? await entry.connector.check() : [{ part: '-', ok: true, detail: 'nothing to check' }],
        })),
      );
      const failed = results.some((result) => result.checks.some((check) => !check.ok));
      output(options.json, { ok: !failed, operators: results }, () =>
        table(
          results.flatMap((result) =>
            result.checks.map((check) => ({
              operator: result.operator,
              route: result.route,
              connector: result.connector,
              part: check.part,
              state: check.ok ? 'ok' : 'FAILED',
              detail: check.detail,
            })),
          ),
        ),
      );
      if (failed) process.exitCode = 1;
    });
  return operators;
}
