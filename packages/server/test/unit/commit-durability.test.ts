import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitDurability } from '../../src/storage/sqlite/commit-durability.js';
import { watch } from '../support/promises.js';

/** A sync the test finishes by hand, one at a time, in order. */
function controlledSync() {
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    started: () => pending.length,
    sync: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    finish() {
      pending.shift()!.resolve();
    },
    fail(error: Error) {
      pending.shift()!.reject(error);
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CommitDurability', () => {
  it('says a commit is durable only once a sync that started after it has finished', async () => {
    const disk = controlledSync();
    const durability = new CommitDurability(disk.sync);
    const commit = durability.recordCommit();
    const waiting = watch(durability.waitFor(commit));
    await settle();
    assert.equal(disk.started(), 1);
    assert.equal(waiting.settled(), false);
    assert.equal(durability.isDurable(commit), false);
    disk.finish();
    await waiting.promise;
    assert.equal(durability.isDurable(commit), true);
  });

  it('covers every commit made before a sync with that one sync, and the later ones with the next', async () => {
    const disk = controlledSync();
    const durability = new CommitDurability(disk.sync);
    const early = [durability.recordCommit(), durability.recordCommit(), durability.recordCommit()].map((c) => watch(durability.waitFor(c)));
    // Made while the first sync runs: that sync may not have seen it.
    const late = durability.recordCommit();
    const lateWait = watch(durability.waitFor(late));
    assert.equal(durability.syncs, 1);
    disk.finish();
    await Promise.all(early.map((w) => w.promise));
    await settle();
    assert.equal(lateWait.settled(), false, 'a commit made during a sync was reported durable by it');
    assert.equal(durability.syncs, 2);
    disk.finish();
    await lateWait.promise;
    assert.equal(durability.syncs, 2);
  });

  it('does not sync when nobody waits, and answers at once for a commit already on disk', async () => {
    const disk = controlledSync();
    const durability = new CommitDurability(disk.sync);
    const first = durability.recordCommit();
    assert.equal(disk.started(), 0);
    const waiting = durability.waitFor(first);
    disk.finish();
    await waiting;
    assert.equal(durability.isDurable(first), true);
    await durability.waitFor(first);
    assert.equal(durability.syncs, 1);
  });

  it('fails every waiter, and every later caller, once a sync has failed', async () => {
    const disk = controlledSync();
    const durability = new CommitDurability(disk.sync);
    const before = durability.recordCommit();
    const waiting = durability.waitFor(before);
    disk.fail(new Error('EIO'));
    await assert.rejects(waiting, (error: Error) => /could not be synced/.test(error.message) && (error.cause as Error).message === 'EIO');
    assert.equal(durability.isDurable(before), false);
    const after = durability.recordCommit();
    await assert.rejects(durability.waitFor(after), /could not be synced/);
    await assert.rejects(durability.waitFor(0), /could not be synced/);
    assert.equal(durability.syncs, 1, 'a sync was tried again after a failure');
  });

  it('tells each failure listener once, with the failure, and a listener that comes later at once', async () => {
    const disk = controlledSync();
    const durability = new CommitDurability(disk.sync);
    const heard: Error[] = [];
    durability.onFailure((error) => heard.push(error));
    const first = durability.waitFor(durability.recordCommit());
    disk.finish();
    await first;
    assert.equal(heard.length, 0, 'a sync that succeeds is no failure');

    const second = durability.waitFor(durability.recordCommit());
    disk.fail(new Error('EIO'));
    await assert.rejects(second, /could not be synced/);
    assert.equal(heard.length, 1);
    assert.match(heard[0]!.message, /could not be synced/);
    assert.equal((heard[0]!.cause as Error).message, 'EIO');
    await assert.rejects(durability.waitFor(durability.recordCommit()));
    assert.equal(heard.length, 1, 'told again on a later refusal');

    const late: Error[] = [];
    durability.onFailure((error) => late.push(error));
    assert.deepEqual(late, [heard[0]]);
  });

  it('refuses to wait for a commit that has not happened', async () => {
    const durability = new CommitDurability(async () => {});
    await assert.rejects(durability.waitFor(1), RangeError);
  });
});
