/** Idempotency keys (docs/decisions.md), rule by rule, over HTTP on every database. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { AkweError } from '../../src/core/errors/index.js';
import { newId } from '../../src/core/shared/ids.js';
import { installLegacyErrorHandling } from '../../src/http/contracts/collect-legacy/legacy-errors.js';
import { IdempotencyRepository } from '../../src/storage/repositories/idempotency-repository.js';
import { idempotencyCleanupJob } from '../../src/workers/idempotency-cleanup-job.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';
import { FakeClock } from '../support/fake-clock.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const PayBody = {
  type: 'object',
  required: ['reference', 'amount'],
  additionalProperties: false,
  properties: {
    reference: { type: 'string', minLength: 1 },
    amount: { type: 'integer', minimum: 1 },
    metadata: { type: 'object' },
  },
} as const;

interface PayRequest {
  reference: string;
  amount: number;
  metadata?: Record<string, unknown>;
}

/** What the probe handlers do, steered by each test. */
interface Probe {
  /** Every handler run, in order: the idempotency key it saw and the route. */
  calls: { key: string | undefined; route: string }[];
  /** Awaited at the start of each run (a test holds the handler here). */
  onCall?: (key: string | undefined) => Promise<void> | void;
  /** Thrown once by the next run, instead of answering. */
  nextError?: Error;
}

/** The table the probe handlers write to, so the tests can count effects in the database. */
async function createProbeTable(db: OpenTestDatabase): Promise<void> {
  await sql`create table probe_payments (id text primary key, idempotency_key text, reference text not null, amount integer not null)`.execute(db.database.db);
}

function registerProbeRoutes(api: FastifyInstance, probe: Probe, database: () => OpenTestDatabase): void {
  async function pay(key: string | undefined, route: string, body: PayRequest) {
    probe.calls.push({ key, route });
    await probe.onCall?.(key);
    const error = probe.nextError;
    probe.nextError = undefined;
    if (error) throw error;
    const id = newId();
    await sql`insert into probe_payments (id, idempotency_key, reference, amount) values (${id}, ${key ?? null}, ${body.reference}, ${body.amount})`.execute(
      database().database.db,
    );
    return { id, reference: body.reference, amount: body.amount, idempotent_replay: false };
  }
  const keyOf = (headers: Record<string, unknown>) => headers['idempotency-key'] as string | undefined;

  for (const [path, required] of [
    ['/probe/pay', true],
    ['/probe/pay-other', true],
    ['/probe/optional', false],
  ] as const) {
    api.post(path, { config: { idempotency: { required } }, schema: { body: PayBody } }, async (request, reply) => {
      reply.code(201);
      return pay(keyOf(request.headers), request.routeOptions.url ?? path, request.body as PayRequest);
    });
  }
  api.post('/probe/items/:item/pay', { config: { idempotency: { required: true } }, schema: { body: PayBody } }, async (request, reply) => {
    reply.code(201);
    return pay(keyOf(request.headers), request.routeOptions.url ?? '', request.body as PayRequest);
  });
  // A body without `idempotent_replay`: replayed byte for byte.
  api.post('/probe/plain', { config: { idempotency: { required: true } }, schema: { body: PayBody } }, async (request, reply) => {
    const { id } = await pay(keyOf(request.headers), '/probe/plain', request.body as PayRequest);
    return reply.code(201).send({ id, note: 'no replay flag here' });
  });
  // The earlier contract: its own error shape, keys up to 128, a replayed 201 answered as 200.
  void api.register(async (legacy) => {
    installLegacyErrorHandling(legacy);
    legacy.post('/probe/legacy/', { config: { idempotency: { required: false, maxKeyLength: 128, replayStatus: 200 } }, schema: { body: PayBody } }, async (request, reply) => {
      reply.code(201);
      return pay(keyOf(request.headers), '/probe/legacy/', request.body as PayRequest);
    });
  });
}

for (const target of testDatabases()) {
  describe(`idempotency keys on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let merchant: Awaited<ReturnType<TestApp['newMerchant']>>;
    const clock = new FakeClock(new Date('2026-06-01T08:00:00.000Z'));
    const probe: Probe = { calls: [] };
    before(async () => {
      t = await buildTestApp(target, {
        clock,
        // The app installs the idempotency layer itself (with this clock); the probes only opt in.
        apiExtensions: (api) => {
          registerProbeRoutes(api, probe, () => t.db);
        },
      });
      await createProbeTable(t.db);
      merchant = await t.newMerchant();
    });
    after(() => t.close());
    afterEach(() => {
      probe.onCall = undefined;
      probe.nextError = undefined;
    });

    const body = (overrides: Partial<PayRequest> = {}): PayRequest => ({ reference: 'ORDER-1', amount: 5000, metadata: { cart: 'c1', lines: 2 }, ...overrides });
    const newKey = () => `key-${randomUUID()}`;

    function post(url: string, payload: unknown, options: { key?: string; apiKey?: string } = {}): Promise<LightMyRequestResponse> {
      return t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        headers: { 'x-api-key': options.apiKey ?? merchant.testKey, ...(options.key !== undefined ? { 'idempotency-key': options.key } : {}) },
        payload: payload as Record<string, unknown>,
      });
    }

    const callsWith = (key: string) => probe.calls.filter((call) => call.key === key).length;

    async function rowsWith(key: string): Promise<number> {
      const result = await sql<{ n: number | string }>`select count(*) as n from probe_payments where idempotency_key = ${key}`.execute(t.services.database.db);
      return Number(result.rows[0]?.n);
    }

    function records(key: string) {
      return t.services.database.db.selectFrom('idempotency_records').selectAll().where('idempotency_key', '=', key).execute();
    }

    function assertReplayOf(replay: LightMyRequestResponse, original: LightMyRequestResponse, status = original.statusCode): void {
      assert.equal(replay.statusCode, status);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(original.headers['idempotent-replayed'], undefined);
      assert.deepEqual(replay.json(), { ...original.json(), idempotent_replay: true });
    }

    describe('the Idempotency-Key header', () => {
      it('answers 400 missing_idempotency_key on a route that requires a key, and runs nothing', async () => {
        const before = probe.calls.length;
        const res = await post('/probe/pay', body());
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.code, 'missing_idempotency_key');
        assert.equal(probe.calls.length, before);
      });

      it('accepts a key of 255 printable ASCII characters, spaces and symbols included', async () => {
        const key = `${'k'.repeat(250)} ~!#$`;
        assert.equal(key.length, 255);
        const res = await post('/probe/pay', body(), { key });
        assert.equal(res.statusCode, 201);
        assert.equal(callsWith(key), 1);
      });

      it('answers 400 invalid_idempotency_key for a key over 255 characters', async () => {
        const res = await post('/probe/pay', body(), { key: 'k'.repeat(256) });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.code, 'invalid_idempotency_key');
        assert.match(res.json().error.message, /255/);
      });

      it('answers 400 invalid_idempotency_key for characters outside printable ASCII, or an empty key', async () => {
        for (const key of ['clé-1', 'tab\there', 'bell\u0007', 'emoji-💳', '', '   ']) {
          const before = probe.calls.length;
          const res = await post('/probe/pay', body(), { key });
          assert.equal(res.statusCode, 400, JSON.stringify(key));
          assert.equal(res.json().error.code, 'invalid_idempotency_key', JSON.stringify(key));
          assert.equal(probe.calls.length, before, JSON.stringify(key));
        }
      });

      it('refuses a malformed key on an optional route too (a key sent is a key honoured)', async () => {
        const res = await post('/probe/optional', body(), { key: 'k'.repeat(300) });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.code, 'invalid_idempotency_key');
      });

      it('stores nothing for a request that fails schema validation, so the key stays free', async () => {
        const key = newKey();
        const invalid = await post('/probe/pay', { reference: 'ORDER-1', amount: 'lots' }, { key });
        assert.equal(invalid.statusCode, 400);
        assert.equal(invalid.json().error.code, 'validation_error');
        assert.equal((await records(key)).length, 0);
        const valid = await post('/probe/pay', body(), { key });
        assert.equal(valid.statusCode, 201);
        assert.equal(callsWith(key), 1);
      });

      it('stores nothing for a request refused by authentication', async () => {
        const key = newKey();
        const res = await post('/probe/pay', body(), { key, apiKey: `ak_test_${'A'.repeat(43)}` });
        assert.equal(res.statusCode, 401);
        assert.equal((await records(key)).length, 0);
      });
    });

    describe('replay', () => {
      it('answers the first request 201 and a repeat with the identical body, idempotent_replay true and Idempotent-Replayed: true, running the handler once', async () => {
        const key = newKey();
        const first = await post('/probe/pay', body(), { key });
        assert.equal(first.statusCode, 201);
        assert.equal(first.json().idempotent_replay, false);
        const second = await post('/probe/pay', body(), { key });
        assertReplayOf(second, first);
        assert.equal(second.json().id, first.json().id);
        const third = await post('/probe/pay', body(), { key });
        assertReplayOf(third, first);
        assert.equal(callsWith(key), 1);
        assert.equal(await rowsWith(key), 1);
      });

      it('keeps the record under the route pattern, completed with the status and body sent', async () => {
        const key = newKey();
        const first = await post('/probe/items/item-1/pay', body(), { key });
        assert.equal(first.statusCode, 201);
        const [record, ...others] = await records(key);
        assert.equal(others.length, 0);
        assert.equal(record?.route, '/api/v1/probe/items/:item/pay');
        assert.equal(record?.method, 'POST');
        assert.equal(record?.merchant_id, merchant.merchantId);
        assert.equal(record?.environment, 'test');
        assert.equal(record?.state, 'completed');
        assert.equal(Number(record?.response_status), 201);
        assert.deepEqual(JSON.parse(record?.response_body ?? 'null'), first.json());
        assert.equal(Date.parse(record?.expires_at ?? '') - Date.parse(record?.created_at ?? ''), DAY_MS);
      });

      it('replays a body without an idempotent_replay member byte for byte', async () => {
        const key = newKey();
        const first = await post('/probe/plain', body(), { key });
        assert.equal(first.statusCode, 201);
        const second = await post('/probe/plain', body(), { key });
        assert.equal(second.statusCode, 201);
        assert.equal(second.headers['idempotent-replayed'], 'true');
        assert.equal(second.body, first.body);
        assert.match(String(second.headers['content-type']), /^application\/json/);
        assert.equal(callsWith(key), 1);
      });

      it('treats the same payload with its keys in another order as the same request', async () => {
        const key = newKey();
        const first = await post('/probe/pay', { reference: 'ORDER-9', amount: 700, metadata: { a: 1, b: { c: 2, d: 3 } } }, { key });
        assert.equal(first.statusCode, 201);
        const reordered = await post('/probe/pay', { metadata: { b: { d: 3, c: 2 }, a: 1 }, amount: 700, reference: 'ORDER-9' }, { key });
        assertReplayOf(reordered, first);
        assert.equal(callsWith(key), 1);
      });

      it('answers 422 idempotency_key_reused for the same key with a different payload, running nothing', async () => {
        const key = newKey();
        assert.equal((await post('/probe/pay', body(), { key })).statusCode, 201);
        for (const changed of [body({ amount: 5001 }), body({ metadata: { cart: 'c1', lines: 3 } }), { reference: 'ORDER-1', amount: 5000 }]) {
          const res = await post('/probe/pay', changed, { key });
          assert.equal(res.statusCode, 422);
          assert.equal(res.json().error.code, 'idempotency_key_reused');
          assert.equal(res.headers['idempotent-replayed'], undefined);
        }
        assert.equal(callsWith(key), 1);
        assert.equal(await rowsWith(key), 1);
      });

      it('answers 422 for one key sent to two targets of one route pattern', async () => {
        const key = newKey();
        const first = await post('/probe/items/a/pay', body(), { key });
        assert.equal(first.statusCode, 201);
        const other = await post('/probe/items/b/pay', body(), { key });
        assert.equal(other.statusCode, 422);
        assert.equal(other.json().error.code, 'idempotency_key_reused');
        assertReplayOf(await post('/probe/items/a/pay', body(), { key }), first);
        assert.equal(callsWith(key), 1);
      });

      it('stores a 4xx answered by the handler and replays it, without running the handler again', async () => {
        const key = newKey();
        probe.nextError = new AkweError('amount_too_low');
        const first = await post('/probe/pay', body(), { key });
        assert.equal(first.statusCode, 400);
        assert.equal(first.json().error.code, 'amount_too_low');
        const second = await post('/probe/pay', body(), { key });
        assert.equal(second.statusCode, 400);
        assert.equal(second.headers['idempotent-replayed'], 'true');
        assert.deepEqual(second.json(), first.json());
        assert.equal(callsWith(key), 1);
        assert.equal((await records(key))[0]?.state, 'completed');
      });

      it('releases the claim on a 500 so the retry runs the handler', async () => {
        const key = newKey();
        probe.nextError = new Error('database went away');
        const failed = await post('/probe/pay', body(), { key });
        assert.equal(failed.statusCode, 500);
        assert.equal(failed.json().error.code, 'internal_error');
        assert.equal((await records(key)).length, 0);
        const retry = await post('/probe/pay', body(), { key });
        assert.equal(retry.statusCode, 201);
        assert.equal(retry.headers['idempotent-replayed'], undefined);
        assert.equal(callsWith(key), 2);
        assert.equal(await rowsWith(key), 1);
        assertReplayOf(await post('/probe/pay', body(), { key }), retry);
      });

      it('releases the claim on any 5xx the handler ends with (503 operator_unavailable)', async () => {
        const key = newKey();
        probe.nextError = new AkweError('operator_unavailable');
        assert.equal((await post('/probe/pay', body(), { key })).statusCode, 503);
        assert.equal((await records(key)).length, 0);
        // Even a different payload may use the key now: nothing was kept.
        assert.equal((await post('/probe/pay', body({ amount: 42 }), { key })).statusCode, 201);
        assert.equal(callsWith(key), 2);
      });
    });

    describe('scope of a key', () => {
      it('keeps the same key on another route independent', async () => {
        const key = newKey();
        const first = await post('/probe/pay', body(), { key });
        const other = await post('/probe/pay-other', body(), { key });
        assert.equal(first.statusCode, 201);
        assert.equal(other.statusCode, 201);
        assert.equal(other.headers['idempotent-replayed'], undefined);
        assert.notEqual(other.json().id, first.json().id);
        assert.equal(callsWith(key), 2);
        // And a different payload on the other route is no reuse either.
        assert.equal((await post('/probe/pay-other', body({ amount: 1 }), { key: newKey() })).statusCode, 201);
      });

      it('keeps the same key in the other environment (live key vs test key) independent', async () => {
        const key = newKey();
        const test = await post('/probe/pay', body(), { key, apiKey: merchant.testKey });
        const live = await post('/probe/pay', body({ amount: 9 }), { key, apiKey: merchant.liveKey });
        assert.equal(test.statusCode, 201);
        assert.equal(live.statusCode, 201);
        assert.equal(live.headers['idempotent-replayed'], undefined);
        assert.equal(callsWith(key), 2);
        assert.deepEqual((await records(key)).map((r) => r.environment).sort(), ['live', 'test']);
        assertReplayOf(await post('/probe/pay', body({ amount: 9 }), { key, apiKey: merchant.liveKey }), live);
      });

      it('keeps the same key of another merchant independent', async () => {
        const other = await t.newMerchant({ name: 'Other' });
        const key = newKey();
        const mine = await post('/probe/pay', body(), { key });
        const theirs = await post('/probe/pay', body(), { key, apiKey: other.testKey });
        assert.equal(mine.statusCode, 201);
        assert.equal(theirs.statusCode, 201);
        assert.equal(theirs.headers['idempotent-replayed'], undefined);
        assert.notEqual(theirs.json().id, mine.json().id);
        assert.equal(callsWith(key), 2);
      });
    });

    describe('a request still running', () => {
      /** Holds the handler's first call with `key` until `open()`; `inHandler` resolves once it is held. */
      function holdFirstCall(key: string): { inHandler: Promise<void>; open: () => void } {
        let open!: () => void;
        const gate = new Promise<void>((resolve) => (open = resolve));
        let entered!: () => void;
        const inHandler = new Promise<void>((resolve) => (entered = resolve));
        probe.onCall = async (callKey) => {
          if (callKey !== key || callsWith(key) > 1) return;
          entered();
          await gate;
        };
        return { inHandler, open };
      }

      it('answers 409 idempotency_request_in_progress to a repeat while the first runs, 422 to another payload, and stores nothing for them', async () => {
        const key = newKey();
        const { inHandler, open } = holdFirstCall(key);
        const first = post('/probe/pay', body(), { key });
        await inHandler;
        const repeat = await post('/probe/pay', body(), { key });
        assert.equal(repeat.statusCode, 409);
        assert.equal(repeat.json().error.code, 'idempotency_request_in_progress');
        const reused = await post('/probe/pay', body({ amount: 1 }), { key });
        assert.equal(reused.statusCode, 422);
        assert.equal(reused.json().error.code, 'idempotency_key_reused');
        const [record] = await records(key);
        assert.equal(record?.state, 'in_progress');
        assert.equal(record?.response_body, null);
        open();
        const done = await first;
        assert.equal(done.statusCode, 201);
        assertReplayOf(await post('/probe/pay', body(), { key }), done);
        assert.equal(callsWith(key), 1);
      });

      it('holds a claim under its 60 s lease (409 with Retry-After), then lets a retry take it over; the old holder can no longer write', async () => {
        const key = newKey();
        const { inHandler, open } = holdFirstCall(key);
        const stuck = post('/probe/pay', body(), { key });
        await inHandler;
        const during = await post('/probe/pay', body(), { key });
        assert.equal(during.statusCode, 409);
        assert.equal(during.headers['retry-after'], '60');
        clock.advance(45_000);
        assert.equal((await post('/probe/pay', body(), { key })).headers['retry-after'], '15');
        clock.advance(15_000);
        const takeover = await post('/probe/pay', body(), { key });
        assert.equal(takeover.statusCode, 201, takeover.body);
        assert.equal(callsWith(key), 2, 'a route without recorded phases runs again on takeover');
        // The first holder wakes up late: its answer is not stored over the taker's.
        open();
        assert.equal((await stuck).statusCode, 201);
        const [record] = await records(key);
        assert.equal(record?.state, 'completed');
        assert.deepEqual(JSON.parse(record!.response_body!).id, takeover.json().id);
        assertReplayOf(await post('/probe/pay', body(), { key }), takeover);
      });

      it('runs the handler exactly once for 10 simultaneous requests with one key, the others told 409', async () => {
        const key = newKey();
        const n = 10;
        let answered = 0;
        let running = 0;
        let open!: () => void;
        const gate = new Promise<void>((resolve) => (open = resolve));
        // The gate opens once every request has either answered or entered the handler:
        // the winner is held until all others have met its claim, and a second winner cannot hang the test.
        const maybeOpen = () => {
          if (answered + running === n) open();
        };
        probe.onCall = async (callKey) => {
          if (callKey !== key) return;
          running++;
          maybeOpen();
          await gate;
        };
        const responses = await Promise.all(
          Array.from({ length: n }, () =>
            post('/probe/pay', body(), { key }).then((res) => {
              answered++;
              maybeOpen();
              return res;
            }),
          ),
        );
        assert.equal(callsWith(key), 1);
        assert.equal(await rowsWith(key), 1);
        const created = responses.filter((res) => res.statusCode === 201);
        assert.equal(created.length, 1);
        assert.equal(created[0]?.headers['idempotent-replayed'], undefined);
        for (const res of responses.filter((r) => r.statusCode !== 201)) {
          assert.equal(res.statusCode, 409);
          assert.equal(res.json().error.code, 'idempotency_request_in_progress');
        }
      });

      it('runs the handler exactly once for 10 simultaneous unhindered requests; each answer is the 201, its replay or 409', async () => {
        const key = newKey();
        const responses = await Promise.all(Array.from({ length: 10 }, () => post('/probe/pay', body({ reference: 'RACE' }), { key })));
        assert.equal(callsWith(key), 1);
        assert.equal(await rowsWith(key), 1);
        const originals = responses.filter((res) => res.statusCode === 201 && res.headers['idempotent-replayed'] === undefined);
        assert.equal(originals.length, 1);
        const original = originals[0]!;
        for (const res of responses) {
          if (res === original) continue;
          if (res.statusCode === 409) assert.equal(res.json().error.code, 'idempotency_request_in_progress');
          else assertReplayOf(res, original);
        }
      });
    });

    describe('optional keys and the earlier contract', () => {
      it('runs an optional route normally each time when no key is sent, and stores nothing', async () => {
        const reference = `OPT-${randomUUID()}`;
        const before = probe.calls.length;
        const first = await post('/probe/optional', body({ reference }));
        const second = await post('/probe/optional', body({ reference }));
        assert.equal(first.statusCode, 201);
        assert.equal(second.statusCode, 201);
        assert.equal(second.headers['idempotent-replayed'], undefined);
        assert.notEqual(second.json().id, first.json().id);
        assert.equal(probe.calls.length - before, 2);
        const stored = await t.services.database.db.selectFrom('idempotency_records').select('route').where('route', '=', '/api/v1/probe/optional').execute();
        assert.equal(stored.length, 0);
      });

      it('honours a key sent to an optional route', async () => {
        const key = newKey();
        const first = await post('/probe/optional', body(), { key });
        assertReplayOf(await post('/probe/optional', body(), { key }), first);
        assert.equal(callsWith(key), 1);
      });

      it('replays with the route’s replayStatus: the earlier contract’s 201 comes back as 200', async () => {
        const key = newKey();
        const first = await post('/probe/legacy/', body(), { key });
        assert.equal(first.statusCode, 201);
        const replay = await post('/probe/legacy/', body(), { key });
        assertReplayOf(replay, first, 200);
        assert.equal(callsWith(key), 1);
      });

      it('applies the route’s key limit (128) and answers in the earlier contract’s error shape', async () => {
        assert.equal((await post('/probe/legacy/', body(), { key: 'k'.repeat(128) })).statusCode, 201);
        const res = await post('/probe/legacy/', body(), { key: 'k'.repeat(129) });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'error']);
        assert.equal(res.json().code, 'invalid_idempotency_key');
        assert.match(res.json().detail, /128/);
      });

      it('answers 422 on the earlier contract in its own shape too', async () => {
        const key = newKey();
        assert.equal((await post('/probe/legacy/', body(), { key })).statusCode, 201);
        const res = await post('/probe/legacy/', body({ amount: 1 }), { key });
        assert.equal(res.statusCode, 422);
        assert.deepEqual(res.json(), { error: 'Unprocessable Entity', code: 'idempotency_key_reused', detail: 'This Idempotency-Key was used with a different request body.' });
      });
    });

    describe('the 24-hour window', () => {
      it('counts a key until 24 hours after its first use, then lets a new request replace it', async () => {
        const key = newKey();
        const first = await post('/probe/pay', body(), { key });
        assert.equal(first.statusCode, 201);
        clock.advance(DAY_MS - 1000);
        assertReplayOf(await post('/probe/pay', body(), { key }), first);
        assert.equal((await post('/probe/pay', body({ amount: 1 }), { key })).statusCode, 422);
        clock.advance(1000);
        const fresh = await post('/probe/pay', body({ amount: 1 }), { key });
        assert.equal(fresh.statusCode, 201);
        assert.equal(fresh.headers['idempotent-replayed'], undefined);
        assert.notEqual(fresh.json().id, first.json().id);
        assert.equal(callsWith(key), 2);
        const stored = await records(key);
        assert.equal(stored.length, 1);
        assert.equal(stored[0]?.created_at, clock.now().toISOString());
        assertReplayOf(await post('/probe/pay', body({ amount: 1 }), { key }), fresh);
        // The old payload is now the different one.
        assert.equal((await post('/probe/pay', body(), { key })).statusCode, 422);
      });
    });
  });

  describe(`idempotency records and their cleanup on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let repository: IdempotencyRepository;
    let merchantId: string;
    const start = Date.parse('2026-06-01T00:00:00.000Z');
    const iso = (ms: number) => new Date(ms).toISOString();

    before(async () => {
      db = await target.open();
      repository = new IdempotencyRepository(db.database.db);
      merchantId = newId();
    });
    after(() => db.close());

    const claimAt = (key: string, at: number, expiresAt = at + DAY_MS) =>
      repository.claim({
        merchantId,
        environment: 'test',
        method: 'POST',
        route: '/api/v1/probe',
        key,
        requestHash: 'h',
        now: iso(at),
        expiresAt: iso(expiresAt),
        leaseToken: `lease-${key}-${at}`,
        lockedUntil: iso(at + 60_000),
      });

    it('refuses a second claim of a live key, returning the record that holds it', async () => {
      const first = await claimAt('claim-once', start);
      assert.equal(first.outcome, 'claimed');
      const second = await claimAt('claim-once', start + 1000);
      assert.equal(second.outcome, 'existing');
      assert.equal(second.outcome === 'existing' && second.record.createdAt, iso(start));
    });

    it('never lets a stale claim complete or release the claim that replaced it after expiry', async () => {
      const old = await claimAt('replaced', start);
      assert.equal(old.outcome, 'claimed');
      const replaced = await claimAt('replaced', start + DAY_MS);
      assert.equal(replaced.outcome, 'claimed');
      if (old.outcome !== 'claimed' || replaced.outcome !== 'claimed') return;
      // The stale claim can neither overwrite nor delete the new one.
      assert.equal(await repository.complete(old.record, { status: 201, body: '{}' }), false);
      assert.equal(await repository.release(old.record), false);
      assert.equal(await repository.complete(replaced.record, { status: 201, body: '{"ok":true}' }), true);
      assert.equal(await repository.complete(replaced.record, { status: 201, body: '{"ok":false}' }), false);
      const again = await claimAt('replaced', start + DAY_MS + 1);
      assert.equal(again.outcome === 'existing' && again.record.responseBody, '{"ok":true}');
    });

    it('deletes only expired records, in bounded batches, and says how many', async () => {
      await db.database.db.deleteFrom('idempotency_records').execute();
      const now = start + 10 * DAY_MS;
      // 7 expired (one exactly at `now`), 3 still live.
      for (let i = 0; i < 6; i++) await claimAt(`old-${i}`, now - DAY_MS - 1000 * (i + 1));
      await claimAt('old-boundary', now - DAY_MS);
      for (let i = 0; i < 3; i++) await claimAt(`live-${i}`, now - 1000 * i);
      const job = idempotencyCleanupJob({ store: repository, clock: new FakeClock(new Date(now)), batchSize: 3 });
      assert.equal(job.name, 'idempotency-cleanup');
      assert.deepEqual([await job.runOnce(), await job.runOnce(), await job.runOnce(), await job.runOnce()], [3, 3, 1, 0]);
      const left = await db.database.db.selectFrom('idempotency_records').select('idempotency_key').orderBy('idempotency_key').execute();
      assert.deepEqual(
        left.map((r) => r.idempotency_key),
        ['live-0', 'live-1', 'live-2'],
      );
    });

    it('purges the oldest expired records first', async () => {
      await db.database.db.deleteFrom('idempotency_records').execute();
      const now = start + 20 * DAY_MS;
      await claimAt('older', now - 3 * DAY_MS);
      await claimAt('newer', now - 2 * DAY_MS);
      assert.equal(await repository.purgeExpired(iso(now), 1), 1);
      const left = await db.database.db.selectFrom('idempotency_records').select('idempotency_key').execute();
      assert.deepEqual(
        left.map((r) => r.idempotency_key),
        ['newer'],
      );
    });
  });
}
