/**
 * Retries, backoff and idempotency keys, against a tiny local HTTP server that answers whatever
 * each test scripts: the client retries network failures, 409 in-progress, 429 and 5xx with the
 * same Idempotency-Key, honours Retry-After, and never retries another 4xx.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Akwe, APIError, ConflictError, ConnectionError, InvalidRequestError, RateLimitError } from '../src/index.js';
import { backoffDelayMs, retryAfterMs } from '../src/transport.js';

interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Close the connection without answering (a network failure). */
  hangUp?: boolean;
  /** Answer after this many milliseconds. */
  delayMs?: number;
}

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  at: number;
}

const errorBody = (code: string, field?: string) => ({
  error: { code, message: `${code} happened`, field, request_id: `req_${code}`, doc_url: `https://docs.example/errors#${code}` },
});
const payment = { object: 'collect.payment', id: 'pay_1', reference: 'r-1', status: 'completed' };
const paymentParams = { reference: 'r-1', amount: 1000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '+2290197000000' } } as const;

describe('retries and idempotency keys', () => {
  let server: Server;
  let baseUrl: string;
  let script: Scripted[] = [];
  let seen: Seen[] = [];

  before(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, at: Date.now() });
        const answer = script.shift() ?? { status: 500, body: errorBody('unscripted') };
        if (answer.hangUp) {
          request.socket.destroy();
          return;
        }
        setTimeout(() => {
          response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
          response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    script = [];
    seen = [];
  });

  const client = (options: ConstructorParameters<typeof Akwe>[1] = {}) => new Akwe('ak_test_key', { baseUrl, backoff: { initialDelayMs: 20, maxDelayMs: 50 }, ...options });

  it('retries 409 idempotency_request_in_progress after its Retry-After, with the same Idempotency-Key', async () => {
    script = [
      { status: 409, headers: { 'retry-after': '1' }, body: errorBody('idempotency_request_in_progress') },
      { status: 201, body: payment },
    ];
    const result = await client().payments.create(paymentParams);
    assert.equal(result.id, 'pay_1');
    assert.equal(seen.length, 2);
    const keys = seen.map((request) => request.headers['idempotency-key']);
    assert.match(String(keys[0]), /^[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0]);
    assert.ok(seen[1]!.at - seen[0]!.at >= 950, `waited ${seen[1]!.at - seen[0]!.at} ms for Retry-After: 1`);
  });

  it('retries 429 and 5xx, then succeeds, keeping the caller’s Idempotency-Key', async () => {
    script = [
      { status: 429, headers: { 'retry-after': '0' }, body: errorBody('rate_limited') },
      { status: 503, body: errorBody('service_unavailable') },
      { status: 201, body: payment },
    ];
    await client().payments.create(paymentParams, { idempotencyKey: 'my-key-1' });
    assert.deepEqual(
      seen.map((request) => request.headers['idempotency-key']),
      ['my-key-1', 'my-key-1', 'my-key-1'],
    );
  });

  it('gives a new key to each call (not to each attempt)', async () => {
    script = [
      { status: 201, body: payment },
      { status: 201, body: payment },
    ];
    const akwe = client();
    await akwe.payments.create(paymentParams);
    await akwe.payments.create(paymentParams);
    assert.notEqual(seen[0]!.headers['idempotency-key'], seen[1]!.headers['idempotency-key']);
  });

  it('retries a network failure with the same key', async () => {
    script = [{ hangUp: true }, { status: 201, body: payment }];
    await client().payments.create(paymentParams);
    assert.equal(seen.length, 2);
    assert.equal(seen[0]!.headers['idempotency-key'], seen[1]!.headers['idempotency-key']);
  });

  it('counts an attempt that outlives the timeout as a network failure and retries it', async () => {
    script = [
      { status: 201, body: payment, delayMs: 400 },
      { status: 201, body: payment },
    ];
    const result = await client({ timeout: 100 }).payments.create(paymentParams);
    assert.equal(result.id, 'pay_1');
    assert.equal(seen.length, 2);
    assert.equal(seen[0]!.headers['idempotency-key'], seen[1]!.headers['idempotency-key']);
  });

  it('throws ConnectionError with code timeout once the retries are spent', async () => {
    script = [
      { delayMs: 300, body: payment },
      { delayMs: 300, body: payment },
    ];
    await assert.rejects(client({ timeout: 50, maxRetries: 1 }).payments.retrieve('r-1'), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.code, 'timeout');
      return true;
    });
    assert.equal(seen.length, 2);
  });

  it('never retries a 400: one request, an InvalidRequestError with everything the body said', async () => {
    script = [{ status: 400, headers: { 'x-request-id': 'req_header' }, body: errorBody('invalid_phone', 'customer.phone') }];
    await assert.rejects(client().payments.create(paymentParams), (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError);
      assert.equal(error.status, 400);
      assert.equal(error.code, 'invalid_phone');
      assert.equal(error.field, 'customer.phone');
      assert.equal(error.requestId, 'req_invalid_phone');
      assert.equal(error.docUrl, 'https://docs.example/errors#invalid_phone');
      assert.deepEqual(error.raw, errorBody('invalid_phone', 'customer.phone'));
      return true;
    });
    assert.equal(seen.length, 1);
  });

  it('never retries a 409 that is not "in progress" (a duplicate reference)', async () => {
    script = [{ status: 409, headers: { 'retry-after': '0' }, body: errorBody('duplicate_reference') }];
    await assert.rejects(client().payments.create(paymentParams), ConflictError);
    assert.equal(seen.length, 1);
  });

  it('stops after maxRetries and throws the last error', async () => {
    script = [
      { status: 500, body: errorBody('internal_error') },
      { status: 502, body: errorBody('operator_unavailable') },
      { status: 500, body: errorBody('internal_error') },
    ];
    await assert.rejects(client({ maxRetries: 2 }).balances.retrieve(), (error: unknown) => {
      assert.ok(error instanceof APIError);
      assert.equal(error.status, 500);
      return true;
    });
    assert.equal(seen.length, 3);
  });

  it('does not wait for a Retry-After longer than the cap: the RateLimitError is thrown at once', async () => {
    script = [{ status: 429, headers: { 'retry-after': '3600' }, body: errorBody('rate_limited') }];
    await assert.rejects(client().account.retrieve(), (error: unknown) => {
      assert.ok(error instanceof RateLimitError);
      assert.equal(error.retryAfterSeconds, 3600);
      return true;
    });
    assert.equal(seen.length, 1);
  });

  it('sends the key as a Bearer token, no Idempotency-Key on reads, and query values as given', async () => {
    script = [{ status: 200, body: payment }];
    await client().payments.retrieve('ref with/slash', { sync: true });
    assert.equal(seen[0]!.headers.authorization, 'Bearer ak_test_key');
    assert.equal(seen[0]!.headers['idempotency-key'], undefined);
    assert.equal(seen[0]!.url, '/api/v1/collect/payments/ref%20with%2Fslash?sync=true');
  });

  it('follows next_cursor with the same filters until has_more is false', async () => {
    script = [
      { body: { object: 'list', data: [{ id: 'a' }, { id: 'b' }], has_more: true, next_cursor: 'b', previous_cursor: null } },
      { body: { object: 'list', data: [{ id: 'c' }], has_more: false, next_cursor: 'c', previous_cursor: 'c' } },
    ];
    const ids: string[] = [];
    for await (const event of client().events.list({ limit: 2, type: 'collect.payment.*' })) ids.push(event.id);
    assert.deepEqual(ids, ['a', 'b', 'c']);
    assert.deepEqual(
      seen.map((request) => request.url),
      ['/api/v1/events?limit=2&type=collect.payment.*', '/api/v1/events?limit=2&type=collect.payment.*&starting_after=b'],
    );
  });
});

describe('backoff arithmetic', () => {
  const backoff = { initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

  it('waits a random time below a ceiling that doubles per retry (full jitter)', () => {
    assert.equal(
      backoffDelayMs(0, backoff, () => 0.999),
      499,
    );
    assert.equal(
      backoffDelayMs(1, backoff, () => 0.999),
      999,
    );
    assert.equal(
      backoffDelayMs(3, backoff, () => 0.5),
      2000,
    );
    assert.equal(
      backoffDelayMs(2, backoff, () => 0),
      0,
    );
  });

  it('never waits longer than the cap', () => {
    assert.equal(
      backoffDelayMs(10, backoff, () => 0.999),
      7992,
    );
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z')), 10_000);
    assert.equal(retryAfterMs('soon'), undefined);
    assert.equal(retryAfterMs(null), undefined);
  });
});
