/**
 * `akwe listen` and `akwe trigger` end to end, as a developer runs them: a real `akwe serve`
 * (SQLite, AKWE_DEV, its demo test key), a local handler, listen forwarding to it, trigger making
 * the sandbox payout. The handler must receive payout.completed signed with the secret listen
 * printed, and listen must print the handler's answer. Stopped and started again with --after the
 * last id it printed, listen forwards what happened while it was down, once. SQLite only: the
 * stream itself is tested on both databases in event-stream.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SIGNATURE_HEADER, verifySignature } from '../../src/core/webhooks/webhook-signature.js';
import { freePort, runAkwe, runAkweJson, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';

interface Received {
  body: string;
  signature: string;
  envelope: { id: string; type: string; data: { object: { id: string; reference: string | null; payment_id?: string } } };
}

const HANDLER_STATUS = 202;

describe('akwe listen and akwe trigger', { timeout: 120_000 }, () => {
  let folder: string;
  let server: AkweProcess;
  let baseUrl: string;
  let key: string;
  let serverEnv: Record<string, string>;
  let handler: Server;
  let handlerUrl: string;
  const received: Received[] = [];
  const listeners: AkweProcess[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'akwe-cli-listen-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    serverEnv = { AKWE_DEV: 'true', AKWE_DATA_DIR: join(folder, 'data'), LOG_LEVEL: 'silent', SANDBOX_PAYOUT_DELAY_MS: '200' };
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
    for (const listener of listeners) if (listener.child.exitCode === null) listener.child.kill('SIGTERM');
    await Promise.all(listeners.map((listener) => listener.exited));
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await new Promise((resolve) => handler?.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  const cli = (args: string[]) => ({ env: { AKWE_API_KEY: key, AKWE_BASE_URL: baseUrl, AKWE_CLI_STATE_DIR: join(folder, 'cli-state') }, cwd: folder, args });

  async function startListen(extra: string[] = []): Promise<{ listener: AkweProcess; secret: string }> {
    const { env, cwd, args } = cli(['listen', '--forward-to', handlerUrl, '--events', 'payout.*', ...extra]);
    const listener = startAkwe(args, { env, cwd });
    listeners.push(listener);
    const secret = (await listener.waitForStdout(/whsec_[A-Za-z0-9_-]+/)).trim();
    await listener.waitForStdout(/Ready: listening/);
    return { listener, secret };
  }

  async function trigger(type: string): Promise<string> {
    const { env, cwd, args } = cli(['trigger', type, '--json']);
    const result = await runAkwe(args, { env, cwd });
    assert.equal(result.code, 0, result.stderr);
    return (JSON.parse(result.stdout) as { reference: string }).reference;
  }

  async function receivedEvent(type: string, reference: string): Promise<Received> {
    return receivedEventWhere(type, (object) => object.reference === reference);
  }

  async function receivedEventWhere(type: string, matches: (object: Received['envelope']['data']['object']) => boolean): Promise<Received> {
    for (let waited = 0; waited < 30_000; waited += 100) {
      const found = received.find((each) => each.envelope.type === type && matches(each.envelope.data.object));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`the handler never received that ${type}; it got ${received.map((each) => each.envelope.type).join(', ')}`);
  }

  it('refuses to trigger with a live key', async () => {
    const result = await runAkwe(['trigger', 'payout.completed', '--api-key', 'ak_live_not_a_test_key', '--base-url', 'http://127.0.0.1:1'], { cwd: folder });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /test key/);
  });

  it('forwards the payout.completed that trigger produces, signed with the printed secret, and prints the answer', async () => {
    const { listener, secret } = await startListen();
    const reference = await trigger('payout.completed');
    const completed = await receivedEvent('payout.completed', reference);
    assert.deepEqual(verifySignature(completed.body, completed.signature, secret).ok, true);
    assert.equal(verifySignature(completed.body, completed.signature, 'whsec_another').ok, false);
    await listener.waitForStdout(new RegExp(`payout\\.completed ${completed.envelope.id} -> ${HANDLER_STATUS}`));
  });

  it('started again without --after, resumes after the last event it forwarded: every event reaches the handler once', async () => {
    const first = listeners.at(-1)!;
    first.child.kill('SIGTERM');
    const stopped = await first.exited;
    assert.equal(stopped.code, 0, stopped.stderr);
    const lastForwarded = received.at(-1)!.envelope.id;
    assert.ok(stopped.stdout.includes(`Stopped after ${lastForwarded}`), stopped.stdout);

    const completedWhileDown = await trigger('payout.completed');
    const failedWhileDown = await trigger('payout.failed');
    const whileDown = [completedWhileDown, failedWhileDown];
    await waitForPayout(completedWhileDown, 'COMPLETED');
    await waitForPayout(failedWhileDown, 'FAILED');
    const before = received.length;
    const { listener, secret } = await startListen();
    await listener.waitForStdout(new RegExp(`Ready: listening after ${lastForwarded}`));
    for (const [type, reference] of [
      ['payout.completed', completedWhileDown],
      ['payout.failed', failedWhileDown],
    ] as const) {
      const event = await receivedEvent(type, reference);
      assert.equal(verifySignature(event.body, event.signature, secret).ok, true);
    }
    const afterRestart = await trigger('payout.completed');
    await receivedEvent('payout.completed', afterRestart);
    const ids = received.map((each) => each.envelope.id);
    assert.equal(new Set(ids).size, ids.length, 'no event reached the handler twice');
    assert.ok(
      received.slice(before).every((each) => each.envelope.id > lastForwarded),
      'nothing from before the resume point was sent again',
    );
    // payout.initiated then payout.completed/failed for each of the three payouts, nothing missing (payout.updated aside).
    assert.deepEqual(
      received
        .slice(before)
        .filter((each) => each.envelope.type !== 'payout.updated')
        .map((each) => `${each.envelope.data.object.reference} ${each.envelope.type}`)
        .sort(),
      [...whileDown, afterRestart].flatMap((reference, index) => [`${reference} payout.initiated`, `${reference} payout.${index === 1 ? 'failed' : 'completed'}`]).sort(),
    );
  });

  it('with --no-resume, starts from now and not after the saved position', async () => {
    const running = listeners.at(-1)!;
    running.child.kill('SIGTERM');
    await running.exited;
    const { listener } = await startListen(['--no-resume']);
    assert.doesNotMatch(listener.stdout(), /Ready: listening after/);
    // What a start from now prints, as docs/cli.md shows it.
    const lines = listener.stdout().trim().split('\n');
    assert.match(lines[0]!, /^Signing secret: whsec_\S+$/);
    assert.equal(lines[1], `Forwarding payout.* events to ${handlerUrl}; check the X-Service-Signature header with this secret.`);
    assert.equal(lines[2], 'Ready: listening (Ctrl-C to stop).');
    listener.child.kill('SIGTERM');
    await listener.exited;
  });

  it('every type trigger offers reaches the handler through listen, signed with the printed secret', async () => {
    const running = listeners.at(-1)!;
    if (running.child.exitCode === null) running.child.kill('SIGTERM');
    await running.exited;
    const receiver = await runAkweJson<{ merchant: { id: string } }>(['merchants', 'create', '--name', 'Transfer receiver', '--json'], { env: serverEnv, cwd: folder });
    const { secret } = await startListen(['--events', '*', '--no-resume']);
    const expectations: [type: string, extra: string[]][] = [
      ['collect.payment.completed', []],
      ['collect.payment.failed', []],
      ['collect.refund.completed', []],
      ['payout.completed', []],
      ['payout.failed', []],
      ['transfer.sent', ['--receiver', receiver.merchant.id]],
    ];
    for (const [type, extra] of expectations) {
      const { env, cwd, args } = cli(['trigger', type, '--json', ...extra]);
      const result = await runAkwe(args, { env, cwd });
      assert.equal(result.code, 0, `${type}: ${result.stderr}`);
      const made = JSON.parse(result.stdout) as { id: string; reference: string };
      const event = await receivedEventWhere(type, (object) => object.id === made.id || object.reference === made.reference);
      assert.equal(verifySignature(event.body, event.signature, secret).ok, true, `${type} verifies with the printed secret`);
    }
  });

  it('lists and reads payouts through the API, and prints an API error with its code and hint', async () => {
    const reference = await trigger('payout.completed');
    const { env, cwd } = cli([]);
    const listed = await runAkwe(['payouts', 'list', '--limit', '5'], { env, cwd });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^id\s+reference\s+status/);
    assert.ok(listed.stdout.includes(reference), listed.stdout);
    const one = JSON.parse((await runAkwe(['payouts', 'get', reference, '--json'], { env, cwd })).stdout) as { reference: string };
    assert.equal(one.reference, reference);
    const refused = await runAkwe(['payments', 'list', '--api-key', 'ak_test_not_a_real_key_0123456789'], { env, cwd });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /unauthenticated: .*\n {2}hint: Send a valid API key/);
  });

  async function waitForPayout(reference: string, status: string): Promise<void> {
    for (let waited = 0; waited < 30_000; waited += 200) {
      const res = await fetch(`${baseUrl}/api/v1/payout/mobile-money/${reference}/`, { headers: { authorization: `Bearer ${key}` } });
      if (((await res.json()) as { status: string }).status === status) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.fail(`payout ${reference} never reached ${status}`);
  }
});
