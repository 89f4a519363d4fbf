/** The API-key cache's rules: what it forgets, when it refuses to remember, and off at 0. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiKeyCache, type CachedKey } from '../../src/core/merchants/api-key-cache.js';

function entry(keyId: string, merchantId: string): CachedKey {
  return {
    key: {
      id: keyId,
      merchantId,
      environment: 'test',
      keyHash: `hash-${keyId}`,
      keyPrefix: 'ak_test_',
      keyLastFour: 'abcd',
      scopes: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      revokedAt: null,
      lastUsedAt: null,
      createdByUserId: null,
    },
    merchant: { id: merchantId, name: 'M', status: 'active', kycStatus: 'validated', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
  };
}

const LONG = 60_000;

describe('ApiKeyCache', () => {
  it('remembers an answer read with a current ticket', () => {
    const cache = new ApiKeyCache(LONG);
    cache.remember('h1', entry('k1', 'm1'), cache.ticket());
    assert.equal(cache.get('h1')?.key.id, 'k1');
    assert.equal(cache.get('h2'), undefined);
  });

  it('forgets a revoked key and only it', () => {
    const cache = new ApiKeyCache(LONG);
    cache.remember('h1', entry('k1', 'm1'), cache.ticket());
    cache.remember('h2', entry('k2', 'm1'), cache.ticket());
    cache.forget({ kind: 'key', id: 'k1' });
    assert.equal(cache.get('h1'), undefined);
    assert.equal(cache.get('h2')?.key.id, 'k2');
  });

  it('forgets every key of a changed merchant, and only those', () => {
    const cache = new ApiKeyCache(LONG);
    cache.remember('h1', entry('k1', 'm1'), cache.ticket());
    cache.remember('h2', entry('k2', 'm1'), cache.ticket());
    cache.remember('h3', entry('k3', 'm2'), cache.ticket());
    cache.forget({ kind: 'merchant', id: 'm1' });
    assert.equal(cache.get('h1'), undefined);
    assert.equal(cache.get('h2'), undefined);
    assert.equal(cache.get('h3')?.key.id, 'k3');
  });

  it('does not remember a read that was in flight while something was forgotten (it may predate the change)', () => {
    const cache = new ApiKeyCache(LONG);
    const ticket = cache.ticket();
    cache.forget({ kind: 'key', id: 'k1' });
    cache.remember('h1', entry('k1', 'm1'), ticket);
    assert.equal(cache.get('h1'), undefined);
    cache.remember('h1', entry('k1', 'm1'), cache.ticket());
    assert.equal(cache.get('h1')?.key.id, 'k1');
  });

  it('forgets everything when notices may have been missed', () => {
    const cache = new ApiKeyCache(LONG);
    const ticket = cache.ticket();
    cache.remember('h1', entry('k1', 'm1'), ticket);
    cache.forgetAll();
    assert.equal(cache.get('h1'), undefined);
    cache.remember('h2', entry('k2', 'm2'), ticket);
    assert.equal(cache.get('h2'), undefined);
  });

  it('keeps at most its bound, dropping the least recently used', () => {
    const cache = new ApiKeyCache(LONG, 2);
    cache.remember('h1', entry('k1', 'm1'), cache.ticket());
    cache.remember('h2', entry('k2', 'm1'), cache.ticket());
    cache.get('h1');
    cache.remember('h3', entry('k3', 'm1'), cache.ticket());
    assert.equal(cache.get('h2'), undefined);
    assert.ok(cache.get('h1') && cache.get('h3'));
  });

  it('remembers nothing with a lifetime of 0', () => {
    const cache = new ApiKeyCache(0);
    cache.remember('h1', entry('k1', 'm1'), cache.ticket());
    assert.equal(cache.get('h1'), undefined);
  });
});
