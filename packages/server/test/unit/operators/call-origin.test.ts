/**
 * Background marks (core/operators/call-origin.ts): calls made inside a background run are marked,
 * calls outside are not, and a run that ends (switching the store off when it was the last) never
 * unmarks another run still under way.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { inBackground, isBackgroundCall } from '../../../src/core/operators/call-origin.js';

describe('call origin', () => {
  it('marks the calls of a background run, across awaits, and nothing outside it', async () => {
    assert.equal(isBackgroundCall(), false);
    const seen = await inBackground(async () => {
      const before = isBackgroundCall();
      await sleep(1);
      return [before, isBackgroundCall()];
    });
    assert.deepEqual(seen, [true, true]);
    assert.equal(isBackgroundCall(), false);
  });

  it('keeps a run marked when an overlapping run ends first, and marks runs started after all ended', async () => {
    let releaseLong!: () => void;
    const longGate = new Promise<void>((resolve) => (releaseLong = resolve));
    const long = inBackground(async () => {
      await longGate;
      return isBackgroundCall();
    });
    assert.equal(await inBackground(async () => isBackgroundCall()), true);
    // A request's call, made while the long run waits: not a background one.
    assert.equal(isBackgroundCall(), false);
    releaseLong();
    assert.equal(await long, true, 'the short run ending did not unmark the long one');
    assert.equal(await inBackground(async () => (await sleep(1), isBackgroundCall())), true);
  });

  it('ends a run that throws and still marks the next', async () => {
    await assert.rejects(
      inBackground(async () => {
        throw new Error('operator down');
      }),
      /operator down/,
    );
    assert.equal(isBackgroundCall(), false);
    assert.equal(await inBackground(async () => isBackgroundCall()), true);
  });
});
