import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutQueryCredentials } from '../../src/logging.js';

describe('withoutQueryCredentials', () => {
  it('redacts the value of every credential-named parameter and keeps the rest', () => {
    assert.equal(withoutQueryCredentials('/api/v1/account?api_key=ak_live_x&limit=10&key=abc'), '/api/v1/account?api_key=[redacted]&limit=10&key=[redacted]');
    assert.equal(
      withoutQueryCredentials('/x?access_token=t1&client_secret=s1&apiKey=k1&password=p1&X-Signature=v1&status=failed'),
      '/x?access_token=[redacted]&client_secret=[redacted]&apiKey=[redacted]&password=[redacted]&X-Signature=[redacted]&status=failed',
    );
  });

  it('recognises encoded names and repeated parameters', () => {
    assert.equal(withoutQueryCredentials('/x?api%5Fkey=s1&api%5fkey=s2&TOKEN=s3&a+token=s4'), '/x?api%5Fkey=[redacted]&api%5fkey=[redacted]&TOKEN=[redacted]&a+token=[redacted]');
  });

  it('stops at the fragment and leaves a URL without query, or a parameter without value, as it is', () => {
    assert.equal(withoutQueryCredentials('/x?token=s1#key=frag'), '/x?token=[redacted]#key=frag');
    assert.equal(withoutQueryCredentials('/api/v1/collect/payments/ORDER-1'), '/api/v1/collect/payments/ORDER-1');
    assert.equal(withoutQueryCredentials('/x?key=&token'), '/x?key=&token');
    assert.equal(withoutQueryCredentials('/x?%E0%A4%A=1&secret=s'), '/x?%E0%A4%A=1&secret=[redacted]', 'a name that does not decode is compared as written');
  });

  it('redacts a whole value holding quotes or a second ?, a credential after a second ?, and a name whose = was encoded', () => {
    assert.equal(withoutQueryCredentials("/x?password=it'sSECRET&a=1"), '/x?password=[redacted]&a=1');
    assert.equal(withoutQueryCredentials('/x?token=ab?cd&a=1'), '/x?token=[redacted]&a=1');
    assert.equal(withoutQueryCredentials('/x?a=1?token=SECRET'), '/x?a=1?token=[redacted]');
    assert.equal(withoutQueryCredentials('/x?api_key%3DSECRET&b=2'), '/x?api_key%3D[redacted]&b=2');
    assert.equal(withoutQueryCredentials('/x?note%3Dhello'), '/x?note%3Dhello');
  });

  it('finds a URL inside a sentence (an error message)', () => {
    assert.equal(withoutQueryCredentials('Route GET:/api/v1/nope?key=s1 not found'), 'Route GET:/api/v1/nope?key=[redacted] not found');
  });
});
