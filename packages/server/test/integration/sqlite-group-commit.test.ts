/**
 * SQLite group commit (src/storage/sqlite/): the rules that keep it honest, on a real file.
 * SQLite only, by nature: PostgreSQL commits its own way. The suites that run on every database
 * (storage, payments, idempotency, webhooks…) exercise it too, through the repositories.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { openSqlite, type OpenSqlite, type SqliteOptions } from '../../src/storage/sqlite/open-sqlite.js';
import { watch } from '../support/promises.js';
import { typeScriptChildArgs } from '../support/child-process.js';

const folder = mkdtempSync(join(tmpdir(), 'akwe-group-commit-'));
after(() => rmSync(folder, { recursive: true, force: true }));

let opened: OpenSqlite[] = [];
afterEach(async () => {
  for (const database of opened) await database.close().catch(() => {});
  opened = [];
});

let files = 0;
async function open(options: SqliteOptions = {}): Promise<OpenSqlite & { file: string }> {
  const file = join(folder, `db-${++files}.sqlite`);
  // The table exists before the group commit opens, so a test's held sync starts with nothing pending.
  const setup = new BetterSqlite3(file);
  setup.exec('create table items (id integer primary key, label text not null unique)');
  setup.close();
  const database = openSqlite(file, options);
  opened.push(database);
  return { ...database, file };
}

/** What another process would see: a fresh connection to the file. */
function labelsOnDisk(file: string): string[] {
  const connection = new BetterSqlite3(file, { readonly: true });
  try {
    return (connection.prepare('select label from items order by label').all() as { label: string }[]).map((r) => r.label);
  } finally {
    connection.close();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of this test only
type AnyDb = Kysely<any>;
const insert = (db: AnyDb, label: string) => sql`insert into items (label) values (${label})`.execute(db);
const labels = async (db: AnyDb) => (await sql<{ label: string }>`select label from items order by label`.execute(db)).rows.map((r) => r.label);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A disk sync the test finishes by hand. */
function heldSync() {
  const waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    syncToDisk: () => new Promise<void>((resolve, reject) => waiting.push({ resolve, reject })),
    started: () => waiting.length,
    finish: () => waiting.shift()!.resolve(),
    fail: (error: Error) => waiting.shift()!.reject(error),
  };
}

describe('SQLite group commit', () => {
  it('commits the writes and transactions started in one turn of the event loop together, once', async () => {
    const { db, groupCommit, file } = await open();
    const before = { ...groupCommit.stats };
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => insert(db, `single-${i}`)),
      ...Array.from({ length: 10 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await insert(trx, `tx-${i}-a`);
          await insert(trx, `tx-${i}-b`);
        }),
      ),
    ]);
    assert.equal(groupCommit.stats.commits - before.commits, 1);
    assert.equal(groupCommit.stats.writes - before.writes, 30);
    assert.equal(labelsOnDisk(file).length, 40);
  });

  it('answers a write, and a read of it, only once the log holding it is synced', async () => {
    const disk = heldSync();
    const { db, file } = await open({ syncToDisk: disk.syncToDisk });

    const write = watch(insert(db, 'pending'));
    while (disk.started() === 0) await nextTurn();
    // Committed (another connection sees it) but not yet on disk: nobody is told.
    assert.deepEqual(labelsOnDisk(file), ['pending']);
    const read = watch(labels(db));
    for (let i = 0; i < 5; i++) await nextTurn();
    assert.equal(write.settled(), false, 'the write was answered before its sync');
    assert.equal(read.settled(), false, 'a read of an unsynced commit was answered');

    disk.finish();
    await write.promise;
    assert.deepEqual(await read.promise, ['pending']);
  });

  it('starts a transaction begun during a sync after the sync ends, with the others begun meanwhile, in one commit', async () => {
    const disk = heldSync();
    const { db, groupCommit } = await open({ syncToDisk: disk.syncToDisk });
    const first = insert(db, 'first');
    while (disk.started() === 0) await nextTurn();
    const commitsBefore = groupCommit.stats.commits;
    const transactions = Array.from({ length: 3 }, (_, i) => watch(db.transaction().execute((trx) => insert(trx, `during-sync-${i}`))));
    for (let i = 0; i < 5; i++) await nextTurn();
    assert.equal(groupCommit.pendingWrites, 0, 'a transaction wrote while the sync ran');
    assert.ok(transactions.every((t) => !t.settled()));
    disk.finish();
    await first;
    while (disk.started() === 0) await nextTurn();
    assert.equal(groupCommit.stats.commits - commitsBefore, 1, 'the three share the commit made after the sync');
    disk.finish();
    await Promise.all(transactions.map((t) => t.promise));
    assert.deepEqual(await labels(db), ['during-sync-0', 'during-sync-1', 'during-sync-2', 'first']);
  });

  it('rolls back only the transaction that fails; the rest of its batch commits', async () => {
    const { db, groupCommit } = await open();
    const before = groupCommit.stats.commits;
    const results = await Promise.allSettled([
      insert(db, 'first'),
      db.transaction().execute(async (trx) => {
        await insert(trx, 'doomed-1');
        await insert(trx, 'doomed-2');
        throw new Error('the change failed');
      }),
      db.transaction().execute((trx) => insert(trx, 'second')),
      // A unique violation outside a transaction fails that statement only.
      insert(db, 'first'),
      insert(db, 'third'),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[3] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.equal(groupCommit.stats.commits - before, 1);
    assert.deepEqual(await labels(db), ['first', 'second', 'third']);
  });

  it('shows reads outside a transaction only committed rows, without waiting for open transactions', async () => {
    const { db } = await open();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => (inserted = resolve));
    const open_ = db.transaction().execute(async (trx) => {
      await insert(trx, 'uncommitted');
      inserted();
      await gate;
    });
    await didInsert;
    assert.deepEqual(await labels(db), [], 'a read saw a row of a transaction still open');
    release();
    await open_;
    assert.deepEqual(await labels(db), ['uncommitted']);
  });

  it('lets a transaction that waits between statements hold the batch; other writes wait for it', async () => {
    const { db, groupCommit, file } = await open();
    const before = groupCommit.stats.commits;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = watch(
      db.transaction().execute(async (trx) => {
        await insert(trx, 'slow');
        await gate;
        await insert(trx, 'slow-2');
      }),
    );
    await nextTurn();
    const other = watch(insert(db, 'other'));
    for (let i = 0; i < 5; i++) await nextTurn();
    assert.equal(other.settled(), false);
    assert.equal(groupCommit.stats.commits - before, 0, 'the batch committed under an open transaction');
    assert.deepEqual(labelsOnDisk(file), []);
    release();
    await Promise.all([slow.promise, other.promise]);
    assert.deepEqual(labelsOnDisk(file), ['other', 'slow', 'slow-2']);
  });

  it('fails every write of a batch that SQLite rolls back whole, and starts afresh after it', async () => {
    const { db, file } = await open();
    // RAISE(ROLLBACK) ends the whole SQLite transaction, as a full disk or an I/O error would.
    const setup = new BetterSqlite3(file);
    setup.exec(`create trigger items_boom before insert on items when new.label = 'boom' begin select raise(rollback, 'boom'); end`);
    setup.close();
    const results = await Promise.allSettled([insert(db, 'before-1'), db.transaction().execute((trx) => insert(trx, 'before-2')), insert(db, 'boom'), insert(db, 'after')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[0] as PromiseRejectedResult).reason), /rolled back the group commit/);
    assert.match(String((results[2] as PromiseRejectedResult).reason), /boom/);
    assert.deepEqual(await labels(db), ['after']);
    assert.deepEqual(labelsOnDisk(file), ['after']);
  });

  it('fails the writes of a batch whose sync fails, and every read and write after it', async () => {
    const disk = heldSync();
    const { db } = await open({ syncToDisk: disk.syncToDisk });
    const write = insert(db, 'lost');
    while (disk.started() === 0) await nextTurn();
    disk.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await assert.rejects(write, /could not be synced to disk/);
    await assert.rejects(insert(db, 'later'), /could not be synced to disk/);
    await assert.rejects(labels(db), /could not be synced to disk/);
  });

  it('refuses raw transaction control, and runs pragmas between batches', async () => {
    const { db } = await open();
    await assert.rejects(sql`begin`.execute(db), /use db.transaction\(\)/);
    await assert.rejects(sql`commit`.execute(db), /use db.transaction\(\)/);
    const pending = insert(db, 'before-pragma');
    const { rows } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    assert.deepEqual(rows, [{ foreign_keys: 1 }]);
    await pending;
    assert.deepEqual(await labels(db), ['before-pragma']);
  });

  it('commits what is pending when it closes, and refuses work afterwards', async () => {
    const { db, file, close, groupCommit } = await open();
    const write = insert(db, 'at-close');
    // Microtasks only: the write reaches the batch, and the turn (which would commit it) is not over.
    for (let hops = 0; groupCommit.pendingWrites === 0 && hops < 1_000; hops++) await Promise.resolve();
    assert.equal(groupCommit.pendingWrites, 1);
    assert.equal(groupCommit.stats.commits, 0);
    await close();
    assert.equal(groupCommit.stats.commits, 1);
    await write;
    assert.deepEqual(labelsOnDisk(file), ['at-close']);
    await assert.rejects(insert(db, 'too-late'), /destroyed|closed/);
    await assert.rejects(groupCommit.run({ sql: 'insert into items (label) values (?)', parameters: ['too-late'] }), /closed/);
  });

  it('checkpoints on its own thread, and the writer carries on meanwhile', async () => {
    const { db, checkpoints, file } = await open({ backgroundCheckpoints: true });
    assert.ok(checkpoints);
    for (let round = 0; round < 20; round++) await Promise.all(Array.from({ length: 20 }, (_, i) => insert(db, `r${round}-${i}`)));
    const result = await checkpoints.checkpointNow();
    assert.equal(result.busy, 0);
    assert.ok(result.log > 0, 'nothing was in the log');
    assert.equal(result.checkpointed, result.log, 'the checkpoint left frames behind');
    await insert(db, 'after-checkpoint');
    assert.equal(labelsOnDisk(file).length, 401);
  });

  it('keeps every write it acknowledged when its process is killed mid-stream', async () => {
    const file = join(folder, 'killed.sqlite');
    const script = fileURLToPath(new URL('../support/sqlite-writer-child.ts', import.meta.url));
    const child = spawn(process.execPath, typeScriptChildArgs(script, file), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 30_000;
    while ((output.match(/^acked /gm) ?? []).length < 2_000) {
      assert.ok(Date.now() < deadline && child.exitCode === null, `the writer did not get going: ${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await exited;
    const acknowledged = [...output.matchAll(/^acked (\d+)$/gm)].map((m) => Number(m[1]));
    const connection = new BetterSqlite3(file);
    try {
      const stored = new Set((connection.prepare('select n from acked').all() as { n: number }[]).map((r) => r.n));
      const missing = acknowledged.filter((n) => !stored.has(n));
      assert.deepEqual(missing, [], `${missing.length} acknowledged writes were lost`);
      assert.equal(connection.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      connection.close();
    }
  });
});
