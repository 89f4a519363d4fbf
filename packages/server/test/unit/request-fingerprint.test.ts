import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { canonicalJson, requestFingerprint } from '../../src/core/idempotency/request-fingerprint.js';

const route = '/api/v1/collect/payments';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and writes no whitespace', () => {
    const value = { b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } };
    assert.equal(canonicalJson(value), '{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}');
  });

  it('keeps array order, since order inside an array is part of the payload', () => {
    assert.equal(canonicalJson([3, 1, 2]), '[3,1,2]');
    assert.notEqual(canonicalJson({ items: [1, 2] }), canonicalJson({ items: [2, 1] }));
  });

  it('writes scalars as JSON does, strings escaped', () => {
    assert.equal(canonicalJson(null), 'null');
    assert.equal(canonicalJson(true), 'true');
    assert.equal(canonicalJson(12.5), '12.5');
    assert.equal(canonicalJson('a"b\n'), '"a\\"b\\n"');
    assert.equal(canonicalJson({ é: 'ü' }), '{"é":"ü"}');
  });

  it('follows JSON.stringify for undefined members, non-finite numbers and toJSON', () => {
    assert.equal(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
    assert.equal(canonicalJson([undefined, Number.NaN, Number.POSITIVE_INFINITY]), '[null,null,null]');
    assert.equal(canonicalJson({ at: new Date('2026-01-02T03:04:05.000Z') }), '{"at":"2026-01-02T03:04:05.000Z"}');
  });

  it('gives the empty string for no body at all, distinct from an empty object', () => {
    assert.equal(canonicalJson(undefined), '');
    assert.equal(canonicalJson({}), '{}');
  });

  it('distinguishes a number from the same digits in a string', () => {
    assert.notEqual(canonicalJson({ amount: 1000 }), canonicalJson({ amount: '1000' }));
  });

  it('refuses circular structures and BigInt rather than guessing', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    assert.throws(() => canonicalJson(loop), /circular/);
    assert.throws(() => canonicalJson({ n: 1n }), /BigInt/);
  });

  it('accepts the same object twice side by side (only real cycles are refused)', () => {
    const shared = { x: 1 };
    assert.equal(canonicalJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
  });
});

describe('requestFingerprint', () => {
  const body = { amount: 5000, currency: 'XOF', customer: { phone: '0197000000', name: 'Ama' }, metadata: { order: 'A-1' } };

  it('is the lower-case hex SHA-256 of method, route, params, query and canonical body', () => {
    const expected = createHash('sha256')
      .update(`POST\n${route}\n{}\n{}\n${canonicalJson(body)}`)
      .digest('hex');
    assert.equal(requestFingerprint({ method: 'POST', route, body }), expected);
    assert.match(expected, /^[0-9a-f]{64}$/);
  });

  it('is the same for the same payload with its keys in another order, at any depth', () => {
    const reordered = { metadata: { order: 'A-1' }, customer: { name: 'Ama', phone: '0197000000' }, currency: 'XOF', amount: 5000 };
    assert.equal(requestFingerprint({ method: 'POST', route, body: reordered }), requestFingerprint({ method: 'POST', route, body }));
  });

  it('changes when any value changes, even deep inside', () => {
    const base = requestFingerprint({ method: 'POST', route, body });
    assert.notEqual(requestFingerprint({ method: 'POST', route, body: { ...body, amount: 5001 } }), base);
    assert.notEqual(requestFingerprint({ method: 'POST', route, body: { ...body, customer: { ...body.customer, phone: '0197000001' } } }), base);
    assert.notEqual(requestFingerprint({ method: 'POST', route, body: { ...body, extra: null } }), base);
  });

  it('changes with the route or the method, and ignores the method’s letter case', () => {
    const base = requestFingerprint({ method: 'POST', route, body });
    assert.notEqual(requestFingerprint({ method: 'POST', route: '/api/v1/payout/mobile-money/', body }), base);
    assert.notEqual(requestFingerprint({ method: 'PUT', route, body }), base);
    assert.equal(requestFingerprint({ method: 'post', route, body }), base);
  });

  it('hashes no body as empty, which differs from an empty object', () => {
    const none = requestFingerprint({ method: 'POST', route, body: undefined });
    assert.equal(none, createHash('sha256').update(`POST\n${route}\n{}\n{}\n`).digest('hex'));
    assert.notEqual(none, requestFingerprint({ method: 'POST', route, body: {} }));
  });

  it('changes with the path parameters, so one key cannot stand for two targets of one route', () => {
    const confirm = '/api/v1/collect/payments/:ref/confirm';
    const otp = { otp: '123456' };
    const first = requestFingerprint({ method: 'POST', route: confirm, params: { ref: 'R1' }, body: otp });
    assert.notEqual(requestFingerprint({ method: 'POST', route: confirm, params: { ref: 'R2' }, body: otp }), first);
    assert.equal(requestFingerprint({ method: 'POST', route: confirm, params: { ref: 'R1' }, body: { otp: '123456' } }), first);
  });

  it('changes with the query string, and treats no params or query like empty ones', () => {
    const base = requestFingerprint({ method: 'POST', route, body });
    assert.notEqual(requestFingerprint({ method: 'POST', route, query: { sync: true }, body }), base);
    assert.equal(requestFingerprint({ method: 'POST', route, params: {}, query: {}, body }), base);
  });
});
