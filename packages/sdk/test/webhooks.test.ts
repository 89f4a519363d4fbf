/**
 * Webhook verification against vectors made by the SERVER's own signing code (imported here, in a
 * test only): both contracts' headers, rotation (two v1), tampering, wrong secrets, replay windows,
 * malformed headers; and headers the SDK generates, checked by the server's verifier.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { legacySignature, signatureHeader, sortedJson, verifySignature } from '../../server/src/core/webhooks/webhook-signature.js';
import { Akwe, SignatureVerificationError, type WebhookEvent } from '../src/index.js';
import { constantTimeEqual } from '../src/webhooks.js';

const secret = 'whsec_0123456789abcdefghijklmnopqrstuvwxyz';
const otherSecret = 'whsec_zyxwvutsrqponmlkjihgfedcba9876543210';
const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({
  id: '0193a6f2-7c1e-7b4a-9d1e-2f6c8e5a4b10',
  type: 'collect.payment.completed',
  event_version: '2026-06',
  environment: 'test',
  merchant_id: '0193a6e0-1b2c-7d3e-8f40-5a6b7c8d9e0f',
  created_at: '2026-11-22T10:00:03.120Z',
  data: { object: { object: 'collect.payment', reference: 'ORDER-1042', status: 'completed', amount: 1500, currency: 'XOF', sandbox: true, description: 'Café crème — 2 ×' } },
});

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SignatureVerificationError, String(error));
    return error.code;
  }
  assert.fail('the webhook was accepted');
}

describe('webhooks.constructEvent with the server’s signatures', () => {
  it('accepts a current-contract header and answers the parsed event', async () => {
    const header = signatureHeader(body, [secret], now());
    const event = await Akwe.webhooks.constructEvent(body, header, secret);
    assert.equal(event.type, 'collect.payment.completed');
    assert.deepEqual(event, JSON.parse(body));
  });

  it('accepts the raw body as bytes (non-ASCII text included)', async () => {
    const header = signatureHeader(body, [secret], now());
    const event = await Akwe.webhooks.constructEvent<WebhookEvent>(new TextEncoder().encode(body), header, secret);
    assert.equal(event.id, '0193a6f2-7c1e-7b4a-9d1e-2f6c8e5a4b10');
  });

  it('accepts either secret during a rotation (two v1), whichever comes first', async () => {
    const header = signatureHeader(body, [otherSecret, secret], now());
    await Akwe.webhooks.constructEvent(body, header, secret);
    await Akwe.webhooks.constructEvent(body, header, otherSecret);
  });

  it('refuses a body changed by one character', async () => {
    const header = signatureHeader(body, [secret], now());
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body.replace('1500', '1501'), header, secret)), 'signature_mismatch');
  });

  it('refuses another endpoint’s secret', async () => {
    const header = signatureHeader(body, [otherSecret], now());
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, header, secret)), 'signature_mismatch');
  });

  it('refuses a timestamp outside the tolerance, in either direction, and takes a tolerance', async () => {
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, signatureHeader(body, [secret], now() - 301), secret)), 'timestamp_outside_tolerance');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, signatureHeader(body, [secret], now() + 301), secret)), 'timestamp_outside_tolerance');
    await Akwe.webhooks.constructEvent(body, signatureHeader(body, [secret], now() - 301), secret, 600);
  });

  it('refuses a signature moved to another timestamp (t is signed)', async () => {
    const header = signatureHeader(body, [secret], now() - 10);
    const moved = header.replace(/^t=\d+/, `t=${now()}`);
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, moved, secret)), 'signature_mismatch');
  });

  it('refuses malformed headers with a reason', async () => {
    const v1 = signatureHeader(body, [secret], now()).split(',')[1]!;
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, '', secret)), 'malformed_header');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, undefined, secret)), 'malformed_header');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, v1, secret)), 'malformed_header');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, `t=${now()},v1=abc`, secret)), 'malformed_header');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, `t=${now()}`, secret)), 'no_signature');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(body, `t=${now()},v0=${'0'.repeat(64)}`, secret)), 'no_signature');
  });

  it('ignores unknown keys in the header (a future v2)', async () => {
    const header = `${signatureHeader(body, [secret], now())},v2=whatever`;
    await Akwe.webhooks.constructEvent(body, header, secret);
  });

  it('accepts an earlier-contract (legacy) delivery: base64 HMAC of the key-sorted JSON body', async () => {
    const legacyBody = sortedJson({
      id: 'evt_1',
      type: 'collect.completed',
      created_at: '2026-11-22T10:00:03.120Z',
      data: { reference: 'ORDER-1', status: 'COMPLETED', amount: 150000 },
    });
    const header = legacySignature(legacyBody, secret);
    const event = await Akwe.webhooks.constructEvent<{ type: string }>(legacyBody, header, secret);
    assert.equal(event.type, 'collect.completed');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(legacyBody.replace('150000', '150001'), header, secret)), 'signature_mismatch');
    assert.equal(await refusal(Akwe.webhooks.constructEvent(legacyBody, header, otherSecret)), 'signature_mismatch');
  });
});

describe('webhooks.generateTestHeader', () => {
  it('makes a header the server’s own verifier accepts', async () => {
    const header = await Akwe.webhooks.generateTestHeader({ payload: body, secret });
    assert.deepEqual(verifySignature(body, header, secret).ok, true);
  });

  it('signs an object as its JSON text, at the timestamp given', async () => {
    const payload = { id: 'evt_2', type: 'payout.completed' };
    const header = await Akwe.webhooks.generateTestHeader({ payload, secret, timestamp: 1_700_000_000 });
    assert.equal(header, signatureHeader(JSON.stringify(payload), [secret], 1_700_000_000));
    assert.equal(await refusal(Akwe.webhooks.constructEvent(JSON.stringify(payload), header, secret)), 'timestamp_outside_tolerance');
  });

  it('signs as the earlier contract when asked', async () => {
    const legacyBody = sortedJson({ b: 1, a: 'é' });
    assert.equal(await Akwe.webhooks.generateTestHeader({ payload: legacyBody, secret, scheme: 'legacy' }), legacySignature(legacyBody, secret));
  });
});

describe('constantTimeEqual', () => {
  it('tells equal bytes from different ones and different lengths', () => {
    assert.equal(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])), true);
    assert.equal(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])), false);
    assert.equal(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2])), false);
  });
});
