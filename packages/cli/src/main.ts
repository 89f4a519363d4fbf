/** `akwe` of @akwe/cli: the developer commands alone, for a merchant's project (`npx akwe listen`). */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { developerCommands } from './developer-commands.js';

function version(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}

export function buildDeveloperCli(): Command {
  const program = new Command('akwe')
    .description('Akwe developer commands: listen, trigger, payments, payouts and events, over HTTP with an API key (docs/cli.md)')
    .version(version(), '-V, --version')
    .showHelpAfterError()
    .exitOverride();
  for (const command of developerCommands()) program.addCommand(command);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs one command line; answers the exit code (an error is printed as `akwe: <message>`). */
export async function runDeveloperCli(argv: string[]): Promise<number> {
  try {
    await buildDeveloperCli().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof Error) {
      process.stderr.write(`akwe: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
