/** CLI output: `--json` prints one JSON document for scripts; otherwise short lines for people. */
export function output(json: boolean | undefined, data: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
}

// One table for every command, the developer commands' (@akwe/cli) and the admin commands'.
export { table } from '@akwe/cli';
