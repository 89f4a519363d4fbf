import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TOKEN_REFRESH_MARGIN_MS, TokenCache } from '../../../src/operators/mtn-momo/mtn-token-cache.js';
import { FakeClock } from '../../support/fake-clock.js';

function countingSource(expiresInSeconds = 3600) {
  let fetches = 0;
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  return {
    get fetches() {
      return fetches;
    },
    /** Holds the next fetches until `open()`: concurrent callers all wait on one. */
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    open: () => release(),
    fetch: async () => {
      fetches += 1;
      const n = fetches;
      await gate;
      return { accessToken: `token-${n}`, expiresInSeconds };
    },
  };
}

describe('TokenCache', () => {
  it('fetches one token for many concurrent calls, then reuses it', async () => {
    const source = countingSource();
    const cache = new TokenCache(source.fetch, new FakeClock());
    source.hold();
    const waiting = Promise.all(Array.from({ length: 20 }, () => cache.get()));
    source.open();
    assert.deepEqual(new Set(await waiting), new Set(['token-1']));
    assert.equal(await cache.get(), 'token-1');
    assert.equal(source.fetches, 1);
  });

  it('refreshes shortly before expiry, not after', async () => {
    const clock = new FakeClock();
    const source = countingSource(3600);
    const cache = new TokenCache(source.fetch, clock);
    assert.equal(await cache.get(), 'token-1');
    clock.advance(3600_000 - TOKEN_REFRESH_MARGIN_MS - 1);
    assert.equal(await cache.get(), 'token-1');
    clock.advance(1);
    assert.equal(await cache.get(), 'token-2');
  });

  it('drops a token the operator refused, but not a newer one', async () => {
    const source = countingSource();
    const cache = new TokenCache(source.fetch, new FakeClock());
    assert.equal(await cache.get(), 'token-1');
    cache.invalidate('token-1');
    assert.equal(await cache.get(), 'token-2');
    cache.invalidate('token-1');
    assert.equal(await cache.get(), 'token-2', 'a stale refusal does not drop the fresh token');
  });

  it('lets a failed fetch fail its callers and the next call try again', async () => {
    let calls = 0;
    const cache = new TokenCache(async () => {
      calls += 1;
      if (calls === 1) throw new Error('token endpoint down');
      return { accessToken: 'token-ok', expiresInSeconds: 3600 };
    }, new FakeClock());
    await assert.rejects(cache.get(), /token endpoint down/);
    assert.equal(await cache.get(), 'token-ok');
  });
});
