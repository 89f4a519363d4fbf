/**
 * `@akwe/cli` as a merchant gets it: the SDK and the CLI packed (`npm pack`), both tarballs
 * installed in a project folder outside the repository (their other dependencies from the npm
 * registry), then `npx akwe trigger` and `npx akwe listen` run from that folder against a real
 * `akwe serve`. Nothing of the repository's node_modules can help it: a dependency the package
 * forgot, a file missing from `files` or a bin that does not start fails here. The handler must
 * receive the payout.completed that trigger caused, signed with the secret listen printed.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { SIGNATURE_HEADER, verifySignature } from '../../src/core/webhooks/webhook-signature.js';
import { freePort, startAkwe, startCommand, stopGroup, waitForUrl, type AkweProcess, type AkweResult } from '../support/child-process.js';

const packagesDir = fileURLToPath(new URL('../../../', import.meta.url));
const repositoryRoot = join(packagesDir, '..');
const HANDLER_STATUS = 202;

interface Received {
  body: string;
  signature: string;
  envelope: { id: string; type: string; data: { object: { reference: string | null } } };
}

function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<AkweResult> {
  return startCommand(command, args, options).exited;
}

async function mustRun(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<string> {
  const result = await run(command, args, options);
  assert.equal(result.code, 0, `${command} ${args.join(' ')} exited with ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  return result.stdout;
}

/** `npm pack` of one workspace into `destination`; answers the tarball's path. */
async function pack(workspace: 'sdk' | 'cli', destination: string): Promise<string> {
  const folder = join(packagesDir, workspace);
  assert.ok(existsSync(join(folder, 'dist', 'index.js')), `packages/${workspace}/dist is missing: run \`npm run build\` (npm install and npm test build it)`);
  // The dist/ the build made, packed as it is: prepack would compile it again while other test
  // files import it (the server's `akwe` runs @akwe/cli's dist/), and could hand them half a file.
  const stdout = await mustRun('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], { cwd: folder });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(destination, packed!.filename);
}

describe('@akwe/cli packed and installed outside the repository', { timeout: 300_000 }, () => {
  let folder: string;
  let project: string;
  let server: AkweProcess;
  let baseUrl: string;
  let key: string;
  let handler: Server;
  let handlerUrl: string;
  const received: Received[] = [];
  const running: AkweProcess[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'akwe-cli-package-'));
    assert.ok(relative(realpathSync(repositoryRoot), realpathSync(folder)).startsWith('..'), `${folder} must be outside the repository`);
    const tarballs = join(folder, 'tarballs');
    mkdirSync(tarballs);
    const sdk = await pack('sdk', tarballs);
    const cli = await pack('cli', tarballs);

    project = join(folder, 'merchant-shop');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'merchant-shop', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    await mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', sdk, cli], { cwd: project });

    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const serverEnv = { AKWE_DEV: 'true', AKWE_DATA_DIR: join(folder, 'data'), LOG_LEVEL: 'silent', SANDBOX_PAYOUT_DELAY_MS: '200' };
    server = startAkwe(['serve'], { env: { ...serverEnv, PORT: String(port), HOST: '127.0.0.1' }, cwd: folder });
    key = (await server.waitForStdout(/ak_test_[A-Za-z0-9_-]{20,}/)).trim();
    await waitForUrl(`${baseUrl}/health`, { process: server });

    handler = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ body, signature: String(request.headers[SIGNATURE_HEADER.toLowerCase()] ?? ''), envelope: JSON.parse(body) as Received['envelope'] });
        response.writeHead(HANDLER_STATUS).end();
      });
    });
    handler.listen(0, '127.0.0.1');
    await new Promise((resolve) => handler.once('listening', resolve));
    handlerUrl = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/webhooks`;
  });

  after(async () => {
    for (const each of running) stopGroup(each);
    await Promise.all(running.map((each) => each.exited));
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await new Promise((resolve) => handler?.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  /** `npx akwe …` in the merchant's project, with the key and server in the environment. */
  const npxAkwe = (args: string[]) => ({
    command: 'npx',
    // `--` keeps npx from reading the command's own options (--help) as its own.
    args: ['--no', '--', 'akwe', ...args],
    options: { cwd: project, env: { AKWE_API_KEY: key, AKWE_BASE_URL: baseUrl, AKWE_CLI_STATE_DIR: join(folder, 'cli-state') } },
  });

  it('installs with the SDK and commander as its only dependencies, nothing of the server', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', '@akwe', 'cli', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.deepEqual(Object.keys(installed.dependencies).sort(), ['@akwe/sdk', 'commander']);
    assert.equal(existsSync(join(project, 'node_modules', '@akwe', 'server')), false);
    assert.equal(existsSync(join(project, 'node_modules', 'fastify')), false);
    for (const name of ['sdk', 'cli']) assert.equal(existsSync(join(project, 'node_modules', '@akwe', name, 'dist', '.tsbuildinfo')), false, `@akwe/${name} ships no build state`);
  });

  it('offers the developer commands, and no admin command', async () => {
    const { command, args, options } = npxAkwe(['--help']);
    const help = await mustRun(command, args, options);
    for (const name of ['listen', 'trigger', 'events', 'payments', 'payouts']) assert.match(help, new RegExp(`^ {2}${name}\\b`, 'm'), help);
    for (const name of ['serve', 'merchants', 'keys', 'migrate']) assert.doesNotMatch(help, new RegExp(`^ {2}${name}\\b`, 'm'), help);
  });

  it("in the repository, `npx akwe` is the server's: the admin commands beside the same developer commands", async () => {
    // Both workspaces name a bin `akwe`; whichever npm linked, the server's program answers there.
    const help = await mustRun('npx', ['--no', '--', 'akwe', '--help'], { cwd: repositoryRoot });
    for (const name of ['serve', 'merchants', 'keys', 'listen', 'trigger', 'payouts']) assert.match(help, new RegExp(`^ {2}${name}\\b`, 'm'), help);
  });

  it('listen forwards the payout.completed that trigger caused, signed with the secret it printed; payouts get and events resend read it', async () => {
    const listenCall = npxAkwe(['listen', '--forward-to', handlerUrl, '--events', 'payout.*']);
    const listener = startCommand(listenCall.command, listenCall.args, listenCall.options);
    running.push(listener);
    const secret = (await listener.waitForStdout(/whsec_[A-Za-z0-9_-]+/)).trim();
    await listener.waitForStdout(/Ready: listening/);

    const triggerCall = npxAkwe(['trigger', 'payout.completed', '--json']);
    const triggered = JSON.parse(await mustRun(triggerCall.command, triggerCall.args, triggerCall.options)) as { event: string; object: string; reference: string };
    assert.equal(triggered.event, 'payout.completed');
    assert.equal(triggered.object, 'payout');

    let completed: Received | undefined;
    for (let waited = 0; !completed && waited < 30_000; waited += 100) {
      completed = received.find((each) => each.envelope.type === 'payout.completed' && each.envelope.data.object.reference === triggered.reference);
      if (!completed) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(completed, `the handler never received payout.completed for ${triggered.reference}; it got ${received.map((each) => each.envelope.type).join(', ')}`);
    assert.equal(verifySignature(completed.body, completed.signature, secret).ok, true);
    assert.equal(verifySignature(completed.body, completed.signature, 'whsec_another').ok, false);
    await listener.waitForStdout(new RegExp(`payout\\.completed ${completed.envelope.id} -> ${HANDLER_STATUS}`));

    const getCall = npxAkwe(['payouts', 'get', triggered.reference, '--json']);
    assert.equal((JSON.parse(await mustRun(getCall.command, getCall.args, getCall.options)) as { status: string }).status, 'COMPLETED');
    // No endpoint is registered: the resend is accepted and queues no delivery.
    const resendCall = npxAkwe(['events', 'resend', completed.envelope.id, '--json']);
    assert.deepEqual((JSON.parse(await mustRun(resendCall.command, resendCall.args, resendCall.options)) as { data: unknown[] }).data, []);
  });

  it("prints an API error with its code and, for a hint, the error's doc_url; exits 1", async () => {
    const { command, args, options } = npxAkwe(['payments', 'list', '--api-key', 'ak_test_not_a_real_key_0123456789']);
    const refused = await run(command, args, options);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^akwe: unauthenticated: .*\n {2}hint: \S+\/docs\/errors#unauthenticated\n$/);
  });
});
