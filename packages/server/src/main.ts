/** The `akwe` command line: serve | worker | migrate | merchants | keys | webhooks | operators | reconcile | settlements | mocks; listen | trigger | events | payments | payouts (over HTTP with an API key). */
import { createRequire } from 'node:module';
import { developerCommands } from '@akwe/cli';
import { Command, CommanderError } from 'commander';
import { keyCommands } from './cli/key-commands.js';
import { merchantCommands } from './cli/merchant-commands.js';
import { adminCommands } from './cli/admin-commands.js';
import { mockCommands } from './cli/mock-commands.js';
import { operatorCommands } from './cli/operator-commands.js';
import { reconcileCommands } from './cli/reconcile-commands.js';
import { serveCommands } from './cli/serve-commands.js';
import { settlementCommands } from './cli/settlement-commands.js';
import { revenueCommands } from './cli/revenue-commands.js';
import { webhookCommands } from './cli/webhook-commands.js';
import { ConfigError } from './config.js';
import { errorCatalog } from './core/errors/error-catalog.js';
import { AkweError } from './core/errors/index.js';

/** `0.1.0 (compiled)`: bin/akwe.js says which it started, so a deploy can check it runs the build. */
function versionText(): string {
  const { version } = createRequire(import.meta.url)('../package.json') as { version: string };
  return `${version} (${process.env.AKWE_RUNNING_FROM ?? 'source'})`;
}

function hintFor(code: string): string | undefined {
  return (errorCatalog as Record<string, { action?: string }>)[code]?.action;
}

export function buildCli(): Command {
  const program = new Command('akwe')
    .description('Akwe: Mobile Money gateway for Benin, Togo and Côte d’Ivoire')
    .version(versionText(), '-V, --version', 'The version, and whether the compiled build or the sources run.')
    .showHelpAfterError()
    .exitOverride();
  for (const command of serveCommands()) program.addCommand(command);
  program.addCommand(merchantCommands());
  program.addCommand(adminCommands());
  program.addCommand(keyCommands());
  program.addCommand(webhookCommands());
  program.addCommand(operatorCommands());
  program.addCommand(reconcileCommands());
  program.addCommand(settlementCommands());
  program.addCommand(revenueCommands());
  program.addCommand(mockCommands());
  // The developer commands are @akwe/cli's (packages/cli), the same a merchant installs; here an API
  // error's hint is its `action` from the error catalog.
  for (const command of developerCommands({ hintFor })) program.addCommand(command);
  for (const command of program.commands) command.exitOverride();
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildCli().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof ConfigError || error instanceof AkweError || error instanceof Error) {
      process.stderr.write(`akwe: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

const exitCode = await runCli(process.argv.slice(2));
// serve and worker keep running until a signal; every other command ends here.
if (exitCode !== 0) process.exit(exitCode);
