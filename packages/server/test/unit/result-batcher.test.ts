/** ResultBatcher: results finishing together share one write, and one refused item fails alone. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResultBatcher } from '../../src/webhooks/result-batcher.js';

/** A write that records each call's items and refuses, whole, any call holding a "bad" item (as one transaction would). */
function recordingWrite() {
  const calls: string[][] = [];
  const write = async (items: string[]) => {
    calls.push(items);
    if (items.some((item) => item.startsWith('bad'))) throw new Error(`refused: ${items.join(',')}`);
    return items.map((item) => `${item}:saved`);
  };
  return { calls, write };
}

describe('ResultBatcher', () => {
  it('writes results added in the same turn in one call, each caller getting its own result', async () => {
    const { calls, write } = recordingWrite();
    const batcher = new ResultBatcher(write);
    const results = await Promise.all(['a', 'b', 'c'].map((item) => batcher.add(item)));
    assert.deepEqual(results, ['a:saved', 'b:saved', 'c:saved']);
    assert.deepEqual(calls, [['a', 'b', 'c']]);
  });

  it('writes a refused batch again item by item: only the refused item fails', async () => {
    const { calls, write } = recordingWrite();
    const batcher = new ResultBatcher(write);
    const outcomes = await Promise.allSettled(['a', 'bad-1', 'c'].map((item) => batcher.add(item)));
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
      ['a:saved', 'refused: bad-1', 'c:saved'],
    );
    assert.deepEqual(calls, [['a', 'bad-1', 'c'], ['a'], ['bad-1'], ['c']]);
  });

  it('keeps batches within maxBatch, the rest in the next write', async () => {
    const { calls, write } = recordingWrite();
    const batcher = new ResultBatcher(write, 2);
    await Promise.all(['a', 'b', 'c'].map((item) => batcher.add(item)));
    await batcher.flushed();
    assert.deepEqual(calls, [['a', 'b'], ['c']]);
  });
});
