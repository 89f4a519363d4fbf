#!/usr/bin/env node
// The developer commands alone (listen, trigger, payments, payouts, events), from the compiled
// dist/ that `npm pack` (prepack) and the repository's `npm install` build.
//
// In the Akwe repository both workspaces name a bin `akwe` and npm links only one of them as
// `npx akwe`; there the server's package sits beside this one, and its `akwe` (the admin commands
// and these same developer commands, imported from this package) answers instead. A merchant's
// project never has the server's package, so this one answers there.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

function serverBin() {
  try {
    return createRequire(import.meta.url).resolve('@akwe/server/bin/akwe.js');
  } catch {
    return undefined;
  }
}

const server = serverBin();
if (server) {
  await import(pathToFileURL(server).href);
} else {
  const { runDeveloperCli } = await import('../dist/main.js');
  const exitCode = await runDeveloperCli(process.argv.slice(2));
  // listen runs until a signal; every other command ends here.
  if (exitCode !== 0) process.exit(exitCode);
}
