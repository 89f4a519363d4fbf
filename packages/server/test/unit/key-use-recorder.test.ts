import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyUseRecorder } from '../../src/core/merchants/key-use-recorder.js';
import { FakeClock } from '../support/fake-clock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyUseRecorder', () => {
  it('writes a key at most once a minute, and each key on its own', () => {
    const clock = new FakeClock();
    const writes: string[] = [];
    const recorder = new KeyUseRecorder({ recordKeyUse: async (id, at) => void writes.push(`${id}@${at}`) }, clock);
    recorder.noteUse('a');
    recorder.noteUse('a');
    recorder.noteUse('b');
    clock.advance(59_999);
    recorder.noteUse('a');
    clock.advance(1);
    recorder.noteUse('a');
    assert.deepEqual(writes, ['a@2026-11-22T10:00:00.000Z', 'b@2026-11-22T10:00:00.000Z', 'a@2026-11-22T10:01:00.000Z']);
  });

  it('swallows and counts a failed write, without throwing to the caller', async () => {
    const failures: unknown[] = [];
    const recorder = new KeyUseRecorder({ recordKeyUse: () => Promise.reject(new Error('database gone')) }, new FakeClock(), (error) => failures.push(error));
    assert.doesNotThrow(() => recorder.noteUse('a'));
    await tick();
    assert.equal(recorder.failures, 1);
    assert.equal((failures[0] as Error).message, 'database gone');
  });

  it('never awaits the write: noteUse returns before the write settles', () => {
    let settled = false;
    const recorder = new KeyUseRecorder({ recordKeyUse: () => new Promise<void>((resolve) => setTimeout(() => ((settled = true), resolve()), 50)) }, new FakeClock());
    recorder.noteUse('a');
    assert.equal(settled, false);
  });
});
