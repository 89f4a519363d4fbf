/** The caps on open event streams, per API key and per merchant, through a real socket on every database. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { STREAM_RETRY_AFTER_SECONDS } from '../../src/core/events/event-stream-slots.js';
import { SseReader } from '../support/sse-reader.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const PER_KEY = 2;
const PER_MERCHANT = 3;

for (const target of testDatabases()) {
  describe(`event stream caps on ${target.name}`, { skip: target.skip, timeout: 60_000 }, () => {
    let t: TestApp;
    let baseUrl: string;
    const readers: SseReader[] = [];

    before(async () => {
      t = await buildTestApp(target, { env: { EVENT_STREAM_MAX_PER_KEY: String(PER_KEY), EVENT_STREAM_MAX_PER_MERCHANT: String(PER_MERCHANT) } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await Promise.all(readers.map((reader) => reader.close()));
      await t.close();
    });

    function request(key: string): Promise<Response> {
      return fetch(`${baseUrl}/api/v1/events/stream`, { headers: { authorization: `Bearer ${key}` } });
    }

    async function open(key: string): Promise<SseReader> {
      const res = await request(key);
      assert.equal(res.status, 200, await (res.status === 200 ? Promise.resolve('') : res.text()));
      const reader = new SseReader(res);
      readers.push(reader);
      return reader;
    }

    async function assertRefused(key: string, why: RegExp): Promise<void> {
      const res = await request(key);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(res.status, 429);
      assert.equal(body.error.code, 'too_many_event_streams');
      assert.match(body.error.message, why);
      assert.equal(res.headers.get('retry-after'), String(STREAM_RETRY_AFTER_SECONDS));
    }

    /** The server learns of a closed connection a moment after the client closes it. */
    async function openOnceFreed(key: string): Promise<SseReader> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const res = await request(key);
        if (res.status === 200) {
          const reader = new SseReader(res);
          readers.push(reader);
          return reader;
        }
        assert.equal(res.status, 429, await res.text());
        if (Date.now() > deadline) assert.fail('the closed stream never freed its slot');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    it('refuses a stream over the per-key cap with 429 and Retry-After; a closed stream frees its slot', async () => {
      const { testKey } = await t.newMerchant();
      const open1 = await open(testKey);
      await open(testKey);
      await assertRefused(testKey, /API key/);
      await assertRefused(testKey, /API key/);
      await open1.close();
      await openOnceFreed(testKey);
      await assertRefused(testKey, /API key/);
    });

    it("counts every key of a merchant, test and live, against the merchant's cap", async () => {
      const { merchantId, testKey, liveKey } = await t.newMerchant();
      const second = (await t.services.merchants.createKey({ merchantId, environment: 'test' })).secret;
      await open(testKey);
      await open(testKey);
      const ofSecond = await open(second);
      // The second key has one stream of its two; the merchant has its three.
      await assertRefused(second, /merchant/);
      await assertRefused(liveKey, /merchant/);

      const other = await t.newMerchant({ name: 'Other' });
      await open(other.testKey);

      await ofSecond.close();
      await openOnceFreed(liveKey);
      await assertRefused(second, /merchant/);
    });
  });
}
