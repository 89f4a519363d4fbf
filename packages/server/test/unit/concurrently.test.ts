import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eachConcurrently } from '../../src/core/shared/concurrently.js';

describe('eachConcurrently', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      done.push(item);
      running -= 1;
    });
    assert.deepEqual(done.sort(), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(most, 3);
  });

  it('tries every item when some fail, then throws the first failure', async () => {
    const tried: number[] = [];
    await assert.rejects(
      eachConcurrently([1, 2, 3, 4], 2, async (item) => {
        tried.push(item);
        if (item % 2 === 0) throw new Error(`item ${item}`);
      }),
      /item 2/,
    );
    assert.deepEqual(tried.sort(), [1, 2, 3, 4]);
  });
});
