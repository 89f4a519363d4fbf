/**
 * Webhook delivery (docs/webhooks.md), the sending side: one try against a real receiver on 127.0.0.1.
 * No real DNS anywhere: hostnames go through injected resolvers.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { signatureHeader, verifySignature } from '../../src/core/webhooks/webhook-signature.js';
import { liveDestinationPorts, type ResolvedAddress, type Resolver } from '../../src/webhooks/ssrf-guard.js';
import { WebhookSender, type WebhookAnswer, type WebhookDelivery } from '../../src/webhooks/webhook-sender.js';
import { FakeClock } from '../support/fake-clock.js';
import { typeScriptChildArgs } from '../support/child-process.js';
import { closedPort, startWebhookReceiver, TEST_TLS, type WebhookReceiver } from '../support/webhook-receiver.js';

const secret = 'whsec_test_sender_0001';
const body = '{"id":"evt_01","type":"collect.payment.completed", "data":{"object":{"amount":1500,"note":"Crédit ✓ 𝄞"}}}\n';

/** A resolver for made-up names that records each question; `answers` are given out in turn, the last one repeating. */
function scriptedResolver(...answers: string[][]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const answer = answers[Math.min(asked.length, answers.length) - 1] ?? [];
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { asked });
}

describe('WebhookSender against a real receiver', () => {
  let receiver: WebhookReceiver;
  const sender = new WebhookSender({ allowPrivate: true });
  const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
    url: `${receiver.origin}/hooks/akwe?source=test`,
    body,
    headers: {},
    timeoutMs: 5_000,
    ...overrides,
  });

  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(() => receiver.close());

  it('posts the raw body byte for byte, with Content-Type, the default User-Agent and the given headers', async () => {
    const t = 1_795_000_000;
    const headers = { 'X-Service-Signature': signatureHeader(body, [secret], t), 'X-Service-Event-Id': 'evt_01' };
    const answer = await sender.send(delivery({ headers }));

    assert.equal(answer.outcome, 'answered');
    assert.equal(answer.statusCode, 200);
    assert.equal(receiver.requests.length, 1);
    const [received] = receiver.requests;
    assert.equal(received!.method, 'POST');
    assert.equal(received!.url, '/hooks/akwe?source=test');
    assert.ok(received!.rawBody.equals(Buffer.from(body, 'utf8')));
    assert.equal(received!.headers['content-type'], 'application/json');
    assert.equal(received!.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(received!.headers['user-agent'], 'Akwe-Webhooks/1.0 (+https://github.com/akwe)');
    assert.equal(received!.headers['x-service-event-id'], 'evt_01');
    assert.equal(received!.headers['x-service-signature'], headers['X-Service-Signature']);
    assert.equal(received!.headers.host, `127.0.0.1:${receiver.port}`);
    // What arrived verifies, exactly as a merchant would check it.
    assert.deepEqual(verifySignature(received!.body, String(received!.headers['x-service-signature']), secret, { nowSeconds: t }), { ok: true, timestamp: t });
  });

  it('lets the given headers and options replace Content-Type and User-Agent, but never Host or Content-Length', async () => {
    const custom = new WebhookSender({ allowPrivate: true, userAgent: 'Akwe-Legacy/0.9' });
    await custom.send(delivery({ headers: { 'content-type': 'application/json; charset=utf-8', Host: 'evil.example', 'Content-Length': '1' } }));
    const [received] = receiver.requests;
    assert.equal(received!.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(received!.headers['user-agent'], 'Akwe-Legacy/0.9');
    assert.equal(received!.headers.host, `127.0.0.1:${receiver.port}`);
    assert.ok(received!.rawBody.equals(Buffer.from(body, 'utf8')));
    // Each header once, whatever letter case the caller used.
    const names = received!.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    assert.equal(names.filter((name) => name === 'content-type').length, 1);
  });

  it('reports 2xx, 4xx and 5xx statuses as answered, with the answer body as excerpt', async () => {
    for (const status of [200, 201, 204, 400, 404, 410, 429, 500, 503]) {
      receiver.answerWith({ status, body: status === 204 ? '' : `status ${status}` });
      const answer = await sender.send(delivery());
      assert.equal(answer.outcome, 'answered', String(status));
      assert.equal(answer.statusCode, status);
      assert.equal(answer.bodyExcerpt, status === 204 ? '' : `status ${status}`);
      assert.equal(answer.error, undefined);
      assert.ok(answer.durationMs >= 0);
    }
  });

  it('never follows a redirect: a 301 with Location is the answer, and the receiver sees one request', async () => {
    receiver.answerWith((request) => (request.url.startsWith('/moved') ? { status: 200 } : { status: 301, headers: { Location: `${receiver.origin}/moved` } }));
    const answer = await sender.send(delivery());
    assert.equal(answer.outcome, 'answered');
    assert.equal(answer.statusCode, 301);
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0]!.url, '/hooks/akwe?source=test');
  });

  it('reads Retry-After given in seconds', async () => {
    receiver.answerWith({ status: 503, headers: { 'Retry-After': '120' } });
    assert.equal((await sender.send(delivery())).retryAfterSeconds, 120);
    receiver.answerWith({ status: 429, headers: { 'Retry-After': '0' } });
    assert.equal((await sender.send(delivery())).retryAfterSeconds, 0);
  });

  it('reads Retry-After given as an HTTP date, in seconds from the sender’s clock, in all three date forms', async () => {
    const clock = new FakeClock(new Date('2026-11-22T10:00:00.000Z'));
    const timed = new WebhookSender({ allowPrivate: true, clock });
    for (const [date, seconds] of [
      ['Sun, 22 Nov 2026 10:01:30 GMT', 90],
      ['Sunday, 22-Nov-26 10:02:00 GMT', 120],
      ['Sun Nov 22 11:00:00 2026', 3_600],
      ['Sat, 21 Nov 2026 10:00:00 GMT', 0],
    ] as const) {
      receiver.answerWith({ status: 503, headers: { 'Retry-After': date } });
      assert.equal((await timed.send(delivery())).retryAfterSeconds, seconds, date);
    }
  });

  it('ignores a Retry-After that is neither whole seconds nor an HTTP date', async () => {
    for (const value of ['soon', '1.5', '-3', '2026-11-22T10:01:30Z', 'Sun, 31 Feb 2026 10:00:00 GMT', '']) {
      receiver.answerWith({ status: 503, headers: { 'Retry-After': value } });
      const answer = await sender.send(delivery());
      assert.equal(answer.statusCode, 503);
      assert.equal(answer.retryAfterSeconds, undefined, JSON.stringify(value));
      assert.equal('retryAfterSeconds' in answer, false);
    }
  });

  it('gives up at timeoutMs when the receiver is slow, reports failed, and hangs up', async () => {
    receiver.answerWith({ status: 200, delayMs: 2_000 });
    const answer = await sender.send(delivery({ timeoutMs: 200 }));
    assert.equal(answer.outcome, 'failed');
    assert.equal(answer.error, 'timeout after 200 ms');
    assert.equal(answer.statusCode, undefined);
    // Did not wait for the receiver's 2 s: it has the request and has not answered yet.
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0]!.state, 'waiting');
    assert.ok(answer.durationMs < 2_000, `took ${answer.durationMs} ms`);
    // The sender closed the connection rather than leave it open.
    assert.equal(await receiver.requests[0]!.ended, 'closed');
  });

  it('counts name resolution in the timeout', async () => {
    const hanging: Resolver = () => new Promise(() => {});
    const answer = await new WebhookSender({ allowPrivate: true, resolver: hanging }).send(delivery({ url: 'http://stuck.example.test/', timeoutMs: 100 }));
    assert.deepEqual({ outcome: answer.outcome, error: answer.error }, { outcome: 'failed', error: 'timeout after 100 ms' });
  });

  it('reports a refused connection as failed', async () => {
    const port = await closedPort();
    const answer = await sender.send(delivery({ url: `http://127.0.0.1:${port}/` }));
    assert.equal(answer.outcome, 'failed');
    assert.equal(answer.statusCode, undefined);
    assert.match(answer.error ?? '', /ECONNREFUSED/);
  });

  it('cuts the excerpt at 1024 bytes of a large answer', async () => {
    const large = Array.from({ length: 500 }, (_, i) => `line ${String(i).padStart(4, '0')}\n`).join('');
    receiver.answerWith({ status: 500, body: large });
    const answer = await sender.send(delivery());
    assert.equal(answer.bodyExcerpt, Buffer.from(large).subarray(0, 1024).toString('utf8'));
    assert.equal(Buffer.byteLength(answer.bodyExcerpt ?? ''), 1024);
  });

  it('does not keep half a character at the 1024-byte cut', async () => {
    receiver.answerWith({ status: 400, body: `a${'é'.repeat(1000)}` });
    const answer = await sender.send(delivery());
    assert.equal(answer.bodyExcerpt, `a${'é'.repeat(511)}`);
  });

  it('stops reading a receiver that streams a huge answer and drops the connection', async () => {
    const huge = 64 * 1024 * 1024;
    receiver.answerWith({ status: 200, streamBytes: huge });
    const answer = await sender.send(delivery());
    assert.equal(answer.outcome, 'answered');
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.bodyExcerpt, 'x'.repeat(1024));
    assert.equal(await receiver.requests[0]!.ended, 'closed');
    assert.ok(receiver.requests[0]!.bytesWritten < huge, `the receiver got to write ${receiver.requests[0]!.bytesWritten} bytes`);
  });

  it('keeps connections alive: sends to one origin and address reuse one connection', async () => {
    const keeping = new WebhookSender({ allowPrivate: true });
    try {
      for (let i = 0; i < 20; i++) assert.equal((await keeping.send(delivery())).statusCode, 200);
      assert.equal(receiver.requests.length, 20);
      // A connection returns to the pool a moment after its answer is read, so a send right after
      // may open a second one; without keep-alive there would be twenty.
      assert.ok(receiver.connections <= 2, `${receiver.connections} connections for 20 sequential sends`);
    } finally {
      await keeping.close();
    }
  });

  it('never sends on a kept connection to an address the name no longer resolves to', async () => {
    // The name first resolves to the receiver, then to another loopback address nobody listens on.
    const resolver = scriptedResolver(['127.0.0.1'], ['127.0.0.2']);
    const keeping = new WebhookSender({ allowPrivate: true, resolver });
    try {
      const url = `http://hooks.example.test:${receiver.port}/hooks`;
      assert.equal((await keeping.send({ url, body, headers: {}, timeoutMs: 5_000 })).statusCode, 200);
      const second = await keeping.send({ url, body, headers: {}, timeoutMs: 5_000 });
      assert.equal(second.outcome, 'failed', 'the pooled connection to the first address is not used');
      assert.equal(receiver.requests.length, 1);
    } finally {
      await keeping.close();
    }
  });

  it('refuses loopback without the development setting, before any request is sent', async () => {
    const strict = new WebhookSender({ allowPrivate: false });
    const answer = await strict.send(delivery());
    assert.equal(answer.outcome, 'failed');
    assert.equal(answer.error, 'refused target: 127.0.0.1 is loopback');
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses a port outside the allowed ones at send time (a live endpoint stored before the port rule), before any request is sent', async () => {
    const live = new WebhookSender({ allowPrivate: true, allowedPorts: liveDestinationPorts });
    const answer = await live.send(delivery());
    assert.equal(answer.outcome, 'failed');
    assert.match(answer.error ?? '', /^refused target: port \d+ is not allowed \(only 443 or 8443\)$/);
    assert.equal(receiver.requests.length, 0);
  });

  it('connects to the address it checked, keeping the hostname in Host (no second lookup, no DNS rebinding)', async () => {
    // First answer: loopback (allowed here). Any later lookup would get a blackhole address.
    const resolver = scriptedResolver(['127.0.0.1'], ['192.0.2.1']);
    const pinned = new WebhookSender({ allowPrivate: true, resolver });
    const answer = await pinned.send(delivery({ url: `http://hooks.example.test:${receiver.port}/hooks/akwe` }));
    assert.equal(answer.outcome, 'answered', answer.error);
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(resolver.asked, ['hooks.example.test']);
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0]!.headers.host, `hooks.example.test:${receiver.port}`);
  });

  it('refuses a hostname that resolves to loopback without the development setting', async () => {
    const resolver = scriptedResolver(['127.0.0.1']);
    const strict = new WebhookSender({ allowPrivate: false, resolver });
    const answer = await strict.send(delivery({ url: `http://hooks.example.test:${receiver.port}/hooks/akwe` }));
    assert.equal(answer.outcome, 'failed');
    assert.equal(answer.error, 'refused target: hooks.example.test resolves to 127.0.0.1, which is loopback');
    assert.equal(receiver.requests.length, 0);
  });

  it('reports a resolver failure, a bad URL or a bad header value as failed, without throwing', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND gone.example.test'), { code: 'ENOTFOUND' });
    };
    const unresolved = await new WebhookSender({ allowPrivate: true, resolver: failing }).send(delivery({ url: 'https://gone.example.test/' }));
    assert.deepEqual({ outcome: unresolved.outcome, error: unresolved.error }, { outcome: 'failed', error: 'refused target: cannot resolve gone.example.test: ENOTFOUND' });

    const badUrl = await sender.send(delivery({ url: 'not a url' }));
    assert.deepEqual({ outcome: badUrl.outcome, error: badUrl.error }, { outcome: 'failed', error: 'invalid URL' });

    const badHeader = await sender.send(delivery({ headers: { 'X-Service-Event-Id': 'evt\r\nX-Injected: 1' } }));
    assert.equal(badHeader.outcome, 'failed');
    assert.equal(receiver.requests.length, 0);
  });
});

describe('WebhookSender over HTTPS', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startWebhookReceiver({ tls: true });
  });
  afterEach(() => receiver.close());

  it('offers the URL’s hostname as TLS server name while connecting to the checked address, and refuses an untrusted certificate', async () => {
    const resolver = scriptedResolver(['127.0.0.1']);
    const sender = new WebhookSender({ allowPrivate: true, resolver });
    const answer = await sender.send({ url: `https://hooks.example.test:${receiver.port}/hooks`, body, headers: {}, timeoutMs: 5_000 });
    assert.equal(answer.outcome, 'failed');
    assert.match(answer.error ?? '', /self[- ]signed certificate/);
    assert.deepEqual(receiver.serverNames, ['hooks.example.test']);
    assert.equal(receiver.requests.length, 0);
  });

  describe('with the receiver’s certificate trusted by the process', () => {
    const sendChild = fileURLToPath(new URL('../support/webhook-send-child.ts', import.meta.url));
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'akwe-webhook-ca-'));
      writeFileSync(join(dir, 'ca.pem'), TEST_TLS.cert);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    // NODE_EXTRA_CA_CERTS is how a deployment trusts a private CA; Node reads it only at start.
    const sendFromTrustingProcess = async (url: string): Promise<WebhookAnswer> => {
      const { stdout } = await promisify(execFile)(process.execPath, typeScriptChildArgs(sendChild, JSON.stringify({ url, body, resolveTo: '127.0.0.1' })), {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') },
        timeout: 30_000,
      });
      return JSON.parse(stdout) as WebhookAnswer;
    };

    it('delivers the body over HTTPS to the checked address, the certificate verified for the URL’s hostname', async () => {
      const answer = await sendFromTrustingProcess(`https://hooks.example.test:${receiver.port}/hooks?via=tls`);
      assert.equal(answer.outcome, 'answered', answer.error);
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(receiver.serverNames, ['hooks.example.test']);
      assert.equal(receiver.requests.length, 1);
      const [received] = receiver.requests;
      assert.equal(received!.url, '/hooks?via=tls');
      assert.ok(received!.rawBody.equals(Buffer.from(body, 'utf8')));
      assert.equal(received!.headers.host, `hooks.example.test:${receiver.port}`);
      assert.equal(received!.headers['x-service-event-id'], 'evt_https');
    });

    it('refuses a trusted certificate issued for another hostname, sending nothing', async () => {
      const answer = await sendFromTrustingProcess(`https://other.example.test:${receiver.port}/hooks`);
      assert.equal(answer.outcome, 'failed');
      assert.match(answer.error ?? '', /ERR_TLS_CERT_ALTNAME_INVALID|does not match/);
      assert.equal(receiver.requests.length, 0);
    });
  });
});
