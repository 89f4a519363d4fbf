/** The sign-in lock (core/dashboard/sign-in-throttle.ts): attempts count from admission, before their check. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIGN_IN_THROTTLE_RULES, SignInThrottle, type SignInAttempt } from '../../src/core/dashboard/sign-in-throttle.js';
import { FakeClock } from '../support/fake-clock.js';

const keys = (email: string, ip: string | null = null) => ({ email, ip });
const admitted = (answer: ReturnType<SignInThrottle['admit']>): SignInAttempt => {
  assert.ok(!('retryAfterSeconds' in answer), 'admitted');
  return answer;
};
const refusedFor = (answer: ReturnType<SignInThrottle['admit']>): number => {
  assert.ok('retryAfterSeconds' in answer, 'refused');
  return answer.retryAfterSeconds;
};

describe('sign-in throttle', () => {
  it('admits five attempts in flight for one address and refuses the sixth before any is checked', () => {
    const throttle = new SignInThrottle(new FakeClock(), SIGN_IN_THROTTLE_RULES);
    const inFlight = Array.from({ length: 5 }, () => admitted(throttle.admit(keys('a@example.com'))));
    assert.equal(refusedFor(throttle.admit(keys('a@example.com'))), 1, 'those in flight decide soon');
    admitted(throttle.admit(keys('b@example.com'))).settle('neither');
    for (const attempt of inFlight) attempt.settle('failed');
    assert.equal(refusedFor(throttle.admit(keys('a@example.com'))), 60, 'five failures lock the address for a minute');
  });

  it('frees the place of an attempt that succeeded or ended otherwise, and a success clears the address', () => {
    const clock = new FakeClock();
    const throttle = new SignInThrottle(clock, SIGN_IN_THROTTLE_RULES);
    for (let i = 0; i < 4; i++) admitted(throttle.admit(keys('c@example.com'))).settle('failed');
    const last = admitted(throttle.admit(keys('c@example.com')));
    refusedFor(throttle.admit(keys('c@example.com')));
    last.settle('neither');
    const success = admitted(throttle.admit(keys('c@example.com')));
    success.settle('succeeded');
    success.settle('failed'); // a second settle changes nothing
    for (let i = 0; i < 4; i++) admitted(throttle.admit(keys('c@example.com'))).settle('failed');
    admitted(throttle.admit(keys('c@example.com'))).settle('failed');
    assert.ok(refusedFor(throttle.admit(keys('c@example.com'))) > 1, 'locked after five new failures');
    throttle.forgive('c@example.com');
    admitted(throttle.admit(keys('c@example.com'))).settle('neither');
  });

  it('doubles the lock at each one, up to 15 minutes, and counts a client address across accounts', () => {
    const clock = new FakeClock();
    const throttle = new SignInThrottle(clock, SIGN_IN_THROTTLE_RULES);
    const locks: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 5; i++) admitted(throttle.admit(keys('d@example.com'))).settle('failed');
      const seconds = refusedFor(throttle.admit(keys('d@example.com')));
      locks.push(seconds);
      clock.advance(seconds * 1000);
    }
    assert.deepEqual(locks, [60, 120, 240, 480, 900, 900]);
    for (let i = 0; i < 50; i++) admitted(throttle.admit(keys(`user${i}@example.com`, '192.0.2.1'))).settle('failed');
    refusedFor(throttle.admit(keys('someone-else@example.com', '192.0.2.1')));
    admitted(throttle.admit(keys('someone-else@example.com', '192.0.2.2'))).settle('neither');
  });
});
