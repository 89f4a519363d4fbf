/** The X-Service-Signature header, its verification, and the earlier contract's signature. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  generateTestHeader,
  legacySignature,
  signatureHeader,
  sortedJson,
  verifySignature,
} from '../../src/core/webhooks/webhook-signature.js';

const secret = 'whsec_current_0123456789abcdef';
const previous = 'whsec_previous_fedcba9876543210';
const body = '{"id":"evt_1","type":"collect.payment.completed","data":{"object":{"amount":1500,"note":"é ✓"}}}';
const t = 1_790_000_000;

/** The signature recomputed here, independently of the module. */
const independentV1 = (key: string, timestamp: number | string, raw: string) => createHmac('sha256', key).update(`${timestamp}.${raw}`).digest('hex');

const verifyAt = (raw: string, header: string, key: string, nowSeconds = t) => verifySignature(raw, header, key, { nowSeconds });

describe('signatureHeader', () => {
  it('names the header X-Service-Signature and uses a 300 s tolerance by default', () => {
    assert.equal(SIGNATURE_HEADER, 'X-Service-Signature');
    assert.equal(DEFAULT_TOLERANCE_SECONDS, 300);
  });

  it('writes t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, as recomputed with node:crypto', () => {
    assert.equal(signatureHeader(body, [secret], t), `t=${t},v1=${independentV1(secret, t, body)}`);
  });

  it('writes one v1 per secret, in the given order, during a rotation overlap', () => {
    assert.equal(signatureHeader(body, [secret, previous], t), `t=${t},v1=${independentV1(secret, t, body)},v1=${independentV1(previous, t, body)}`);
  });

  it('signs the body byte for byte: whitespace or key order changes the signature', () => {
    const reordered = '{"type":"collect.payment.completed","id":"evt_1","data":{"object":{"amount":1500,"note":"é ✓"}}}';
    assert.notEqual(signatureHeader(body, [secret], t), signatureHeader(`${body}\n`, [secret], t));
    assert.notEqual(signatureHeader(body, [secret], t), signatureHeader(reordered, [secret], t));
  });

  it('refuses to sign without a secret or with a timestamp that is not whole seconds', () => {
    assert.throws(() => signatureHeader(body, [], t));
    assert.throws(() => signatureHeader(body, [secret], 1.5));
    assert.throws(() => signatureHeader(body, [secret], -1));
  });
});

describe('verifySignature', () => {
  const header = signatureHeader(body, [secret], t);

  it('accepts the right secret and returns the timestamp', () => {
    assert.deepEqual(verifyAt(body, header, secret), { ok: true, timestamp: t });
  });

  it('accepts a header built independently with node:crypto', () => {
    assert.deepEqual(verifyAt(body, `t=${t},v1=${independentV1(secret, t, body)}`, secret), { ok: true, timestamp: t });
  });

  it('rejects the wrong secret as signature_mismatch', () => {
    assert.deepEqual(verifyAt(body, header, 'whsec_someone_else'), { ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a tampered body, even by one character or a trailing newline', () => {
    assert.deepEqual(verifyAt(body.replace('1500', '1501'), header, secret), { ok: false, reason: 'signature_mismatch' });
    assert.deepEqual(verifyAt(`${body}\n`, header, secret), { ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a tampered timestamp (t changed, v1 kept)', () => {
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    assert.deepEqual(verifyAt(body, moved, secret, t + 1), { ok: false, reason: 'signature_mismatch' });
  });

  it('rejects an authentic header older than the 300 s tolerance, and accepts one exactly at the limit', () => {
    assert.deepEqual(verifyAt(body, header, secret, t + 301), { ok: false, reason: 'timestamp_outside_tolerance' });
    assert.deepEqual(verifyAt(body, header, secret, t + 300), { ok: true, timestamp: t });
  });

  it('rejects an authentic header from more than 300 s in the future', () => {
    assert.deepEqual(verifyAt(body, header, secret, t - 301), { ok: false, reason: 'timestamp_outside_tolerance' });
    assert.deepEqual(verifyAt(body, header, secret, t - 300), { ok: true, timestamp: t });
  });

  it('honours a custom tolerance', () => {
    assert.deepEqual(verifySignature(body, header, secret, { nowSeconds: t + 10, toleranceSeconds: 5 }), { ok: false, reason: 'timestamp_outside_tolerance' });
    assert.deepEqual(verifySignature(body, header, secret, { nowSeconds: t + 10, toleranceSeconds: 10 }), { ok: true, timestamp: t });
  });

  it('compares against the current time when no now is given', () => {
    const fresh = generateTestHeader(body, secret);
    assert.equal(verifySignature(body, fresh, secret).ok, true);
    const fromYear2001 = signatureHeader(body, [secret], 1_000_000_000);
    assert.deepEqual(verifySignature(body, fromYear2001, secret), { ok: false, reason: 'timestamp_outside_tolerance' });
  });

  it('accepts a two-v1 header with either secret during a rotation, and refuses a third secret', () => {
    const rotating = signatureHeader(body, [secret, previous], t);
    assert.equal(verifyAt(body, rotating, secret).ok, true);
    assert.equal(verifyAt(body, rotating, previous).ok, true);
    assert.deepEqual(verifyAt(body, rotating, 'whsec_third'), { ok: false, reason: 'signature_mismatch' });
  });

  it('accepts when any v1 matches, wherever it stands among the others', () => {
    const wrong = independentV1('whsec_other', t, body);
    const right = independentV1(secret, t, body);
    assert.equal(verifyAt(body, `t=${t},v1=${wrong},v1=${right}`, secret).ok, true);
    assert.equal(verifyAt(body, `v1=${right},t=${t},v1=${wrong}`, secret).ok, true);
  });

  it('tolerates blanks around the parts, upper-case hex, and unknown keys such as v0', () => {
    const right = independentV1(secret, t, body);
    assert.equal(verifyAt(body, ` t=${t} , v1=${right.toUpperCase()} ,v0=abc`, secret).ok, true);
  });

  it('answers malformed_header without throwing for garbage, a missing or repeated t, a non-numeric t', () => {
    const v1 = independentV1(secret, t, body);
    for (const bad of [
      '',
      '   ',
      'garbage',
      'sha256=abc',
      `v1=${v1}`,
      `t=,v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=-5,v1=${v1}`,
      `t=${t},t=${t},v1=${v1}`,
      `t=${t},,v1=${v1}`,
      `=x,t=${t},v1=${v1}`,
    ]) {
      assert.deepEqual(verifyAt(body, bad, secret), { ok: false, reason: 'malformed_header' }, JSON.stringify(bad));
    }
  });

  it('answers malformed_header for a v1 that is not hex or not 64 hex digits long', () => {
    const v1 = independentV1(secret, t, body);
    for (const bad of [`t=${t},v1=${'z'.repeat(64)}`, `t=${t},v1=${v1.slice(0, 62)}`, `t=${t},v1=${v1}00`, `t=${t},v1=`]) {
      assert.deepEqual(verifyAt(body, bad, secret), { ok: false, reason: 'malformed_header' }, bad);
    }
  });

  it('answers no_signature for a well-formed header without any v1', () => {
    assert.deepEqual(verifyAt(body, `t=${t}`, secret), { ok: false, reason: 'no_signature' });
    assert.deepEqual(verifyAt(body, `t=${t},v0=${'a'.repeat(64)}`, secret), { ok: false, reason: 'no_signature' });
  });

  it('does not throw for a header that is not even a string', () => {
    assert.deepEqual(verifyAt(body, undefined as unknown as string, secret), { ok: false, reason: 'malformed_header' });
  });
});

describe('generateTestHeader', () => {
  it('produces a header that verifies for that body and secret at the given time', () => {
    const header = generateTestHeader(body, secret, t);
    assert.equal(header, `t=${t},v1=${independentV1(secret, t, body)}`);
    assert.deepEqual(verifyAt(body, header, secret), { ok: true, timestamp: t });
  });
});

describe('earlier contract signature', () => {
  it('is the base64 HMAC-SHA256 of the key-sorted JSON body, as recomputed with node:crypto', () => {
    const payload = { type: 'collect.completed', data: { status: 'SUCCESS', amount: 15, currency: 'XOF' }, id: 'evt_9' };
    const text = sortedJson(payload);
    assert.equal(text, '{"data":{"amount":15,"currency":"XOF","status":"SUCCESS"},"id":"evt_9","type":"collect.completed"}');
    assert.equal(legacySignature(text, secret), createHmac('sha256', secret).update(text).digest('base64'));
    assert.notEqual(legacySignature(text, secret), legacySignature(text, previous));
  });

  it('sorts keys at every depth, keeps array order, and follows JSON.stringify otherwise', () => {
    assert.equal(sortedJson({ b: [{ z: 1, y: 2 }, 3], a: null, '10': 'x', '2': 'y' }), '{"10":"x","2":"y","a":null,"b":[{"y":2,"z":1},3]}');
    assert.equal(sortedJson({ skip: undefined, at: new Date('2026-06-01T00:00:00.000Z'), n: Number.NaN }), '{"at":"2026-06-01T00:00:00.000Z","n":null}');
    assert.equal(sortedJson('é"'), '"é\\""');
  });
});
