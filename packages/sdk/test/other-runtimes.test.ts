/**
 * The quick start under Bun, Deno and an edge runtime (installed from the npm registry as dev
 * dependencies): the SDK is built as it is published (dist/, ESM), a script imports it and, against
 * a real server, creates a payment, finds it by iterating a list, and verifies a webhook signed by
 * the server's own signing code, refusing it with another secret. The edge runtime is Vercel's
 * `edge-runtime` (the one `next dev` uses for edge routes): a VM context with Web APIs only, no
 * `process`, `Buffer` or `require`. It runs classic scripts, not modules, so there dist/ is bundled
 * by esbuild into one script (platform neutral: a `node:` import would fail the bundle).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EdgeRuntime } from 'edge-runtime';
import { build as bundle } from 'esbuild';
import { signatureHeader } from '../../server/src/core/webhooks/webhook-signature.js';
import { startRealServer, type RealServer } from './support/real-server.js';

const require = createRequire(import.meta.url);
const sdkRoot = fileURLToPath(new URL('..', import.meta.url));

interface QuickStartResult {
  runtime: string;
  status: string;
  listed: boolean;
  eventType: string;
  refusedCode: string;
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The binary an npm package's `bin` names, resolved from the workspace's node_modules. */
function binaryOf(name: 'bun' | 'deno'): string {
  return join(sdkRoot, '..', '..', 'node_modules', '.bin', name);
}

describe('the quick start on Bun, Deno and an edge runtime', { timeout: 180_000 }, () => {
  let server: RealServer;
  let folder: string;
  let key: string;

  before(async () => {
    server = await startRealServer();
    key = (await server.testApp.newMerchant()).testKey;
    folder = mkdtempSync(join(tmpdir(), 'akwe-sdk-runtimes-'));
    const tsc = require.resolve('typescript/bin/tsc');
    const build = await run(process.execPath, [tsc, '-p', join(sdkRoot, 'tsconfig.build.json'), '--outDir', join(folder, 'sdk')], sdkRoot);
    assert.equal(build.code, 0, build.stdout + build.stderr);
  });
  after(async () => {
    await server?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /**
   * The quick start's statements, with this run's server, key and a server-signed webhook written
   * in; `Akwe` and `SignatureVerificationError` in scope, top-level `await` allowed, the outcome left
   * in `answer`.
   */
  function quickStartBody(runtime: string): string {
    const secret = 'whsec_quick_start_secret';
    const body = JSON.stringify({ id: '0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52', type: 'collect.payment.completed', data: { object: { reference: 'order-1' } } });
    const header = signatureHeader(body, [secret], Math.floor(Date.now() / 1000));
    const reference = `quick-start-${runtime}-${Date.now()}`;
    return `
const akwe = new Akwe(${JSON.stringify(key)}, { baseUrl: ${JSON.stringify(server.baseUrl)} });
const payment = await akwe.payments.create({
  reference: ${JSON.stringify(reference)}, amount: 5000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj',
  customer: { phone: '+2290197000000' },
});
let listed = false;
for await (const each of akwe.payments.list({ limit: 1 })) if (each.id === payment.id) listed = true;
const body = ${JSON.stringify(body)};
const event = await Akwe.webhooks.constructEvent(body, ${JSON.stringify(header)}, ${JSON.stringify(secret)});
let refusedCode = 'accepted';
try {
  await Akwe.webhooks.constructEvent(body, ${JSON.stringify(header)}, 'whsec_another');
} catch (error) {
  refusedCode = error instanceof SignatureVerificationError ? error.code : String(error);
}
const answer = { runtime: ${JSON.stringify(runtime)}, status: payment.status, listed, eventType: event.type, refusedCode };
`;
  }

  /** The quick start as a plain ES module importing dist/, printing its answer. */
  function quickStart(runtime: string): string {
    const script = `import { Akwe, SignatureVerificationError } from './sdk/index.js';
${quickStartBody(runtime)}
console.log(JSON.stringify(answer));
`;
    const file = join(folder, `quick-start-${runtime}.mjs`);
    writeFileSync(file, script);
    return file;
  }

  const runtimes: Array<[name: 'bun' | 'deno', args: (file: string) => string[]]> = [
    ['bun', (file) => ['run', file]],
    ['deno', (file) => ['run', '--allow-net=127.0.0.1', '--allow-read', '--no-prompt', '--no-config', file]],
  ];

  for (const [runtime, args] of runtimes) {
    it(`creates a payment, iterates a list and verifies a webhook on ${runtime}`, async () => {
      const version = await run(binaryOf(runtime), ['--version'], folder);
      assert.equal(version.code, 0, `${runtime} is installed (npm install puts it in node_modules/.bin): ${version.stderr}`);
      const result = await run(binaryOf(runtime), args(quickStart(runtime)), folder);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const answer = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as QuickStartResult;
      assert.deepEqual(answer, { runtime, status: 'completed', listed: true, eventType: 'collect.payment.completed', refusedCode: 'signature_mismatch' });
    });
  }

  it('creates a payment, iterates a list and verifies a webhook on an edge runtime (no process, no Buffer)', async () => {
    const bundled = await bundle({
      entryPoints: [join(folder, 'sdk', 'index.js')],
      bundle: true,
      format: 'iife',
      globalName: 'AkweSdk',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
    });
    const edge = new EdgeRuntime({ initialCode: bundled.outputFiles[0]!.text });
    // The answer crosses realms as JSON: objects made in the VM have the VM's prototypes.
    const outcome = (await edge.evaluate(`(async () => {
const { Akwe, SignatureVerificationError } = AkweSdk;
${quickStartBody('edge-runtime')}
return JSON.stringify({ ...answer, process: typeof process, Buffer: typeof Buffer, require: typeof require });
})()`)) as string;
    assert.deepEqual(JSON.parse(outcome), {
      runtime: 'edge-runtime',
      status: 'completed',
      listed: true,
      eventType: 'collect.payment.completed',
      refusedCode: 'signature_mismatch',
      process: 'undefined',
      Buffer: 'undefined',
      require: 'undefined',
    });
  });
});
