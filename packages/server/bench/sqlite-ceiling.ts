/**
 * SQLite's storage ceiling for payment creation: what the storage layer alone sustains when it
 * executes exactly the statements of a creation, with no HTTP, no validation and no Kysely.
 *
 *   1. Capture: the real app (the same code `akwe serve` runs) built in this process on a SQLite
 *      file, workers off. After a warm-up (the ledger accounts open), the file is copied
 *      (VACUUM INTO): that copy is the starting point of the replay. Then `creations` sandbox direct
 *      payments are created through HTTP injection (10 at a time), with the group commit's entry
 *      points (SqliteGroupCommit.run, beginTransaction, runInTransaction, commitTransaction,
 *      rollbackTransaction) recording every statement and its parameters, creation by creation (each
 *      request's async context says which creation a statement serves).
 *      The capture's own durability is switched off: only the statements matter here.
 *   2. Replay: the copy opened exactly as the server opens it (openSqlite: WAL, synchronous = NORMAL,
 *      busy_timeout, the background checkpoint thread, a real fdatasync of the WAL before any
 *      caller learns of a commit, the same group commit batching per event-loop turn), and the
 *      captured creations replayed through the same group commit by `concurrency` callers at once,
 *      each replaying one creation's statements in order, then the next. Every captured value is
 *      unique where the schema wants it (ids, references, idempotency keys), and the copy holds
 *      none of them, so each statement does the same work it did for the server.
 *
 * creations/s = replayed creations / wall time of the replay. The server's creation req/s over
 * this is its share of the storage ceiling (target: >= 50 %).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrator.js';
import { SqliteGroupCommit, type GroupTransaction, type SqlStatement } from '../src/storage/sqlite/group-commit.js';
import { openSqlite } from '../src/storage/sqlite/open-sqlite.js';
import { buildTestApp } from '../test/support/test-app.js';
import type { OpenTestDatabase, TestDatabase } from '../test/support/test-databases.js';
import { round } from './load.js';

type Step =
  | { kind: 'run'; sql: string; parameters: unknown[] }
  | { kind: 'begin'; tx: number }
  | { kind: 'statement'; tx: number; sql: string; parameters: unknown[] }
  | { kind: 'commit'; tx: number }
  | { kind: 'rollback'; tx: number };

export interface SqliteCeiling {
  /** Creations captured and replayed. */
  creations: number;
  concurrency: number;
  /** Statements per creation (transaction control included), on average. */
  statementsPerCreation: number;
  transactionsPerCreation: number;
  replaySeconds: number;
  creationsPerSecond: number;
  /** CPU time of this process during the replay (SQLite's work, the group commit, the syncs' threads), per creation. */
  cpuMicrosecondsPerCreation: number;
  /** Of which in the kernel (writes to the log, syncs). */
  systemCpuMicrosecondsPerCreation: number;
  /** Group commit batches and WAL fdatasyncs during the replay. */
  commits: number;
  syncs: number;
  captureSeconds: number;
}

const WARMUP_CREATIONS = 20;
/** Creations in flight during the capture; each one's statements are told apart by async context. */
const CAPTURE_CONCURRENCY = 10;

/** The SQLite file of the capture app: in `dir`, migrated, commits not synced (statements only). */
function captureDatabase(dir: string): TestDatabase {
  return {
    name: 'sqlite',
    skip: false,
    async open(): Promise<OpenTestDatabase> {
      const file = join(dir, 'capture.db');
      const target = { kind: 'sqlite' as const, file };
      const database = openDatabase(target, { sqliteSyncToDisk: async () => {} });
      await migrateToLatest(database);
      return { database, target, url: `sqlite:${file}`, close: () => database.close() };
    },
  };
}

type GroupCommitMethods = Pick<SqliteGroupCommit, 'run' | 'beginTransaction' | 'runInTransaction' | 'commitTransaction' | 'rollbackTransaction'>;

/** The steps of the creation whose request is running (async context), when recording. */
const recording = new AsyncLocalStorage<Step[]>();

/** Wraps the group commit's entry points so that each call is also appended to the steps of the creation it serves. */
function recordGroupCommit(): () => void {
  const prototype = SqliteGroupCommit.prototype as GroupCommitMethods;
  const original = {
    run: prototype.run,
    beginTransaction: prototype.beginTransaction,
    runInTransaction: prototype.runInTransaction,
    commitTransaction: prototype.commitTransaction,
    rollbackTransaction: prototype.rollbackTransaction,
  };
  const numbers = new WeakMap<GroupTransaction, number>();
  let nextTx = 0;
  prototype.run = function (this: SqliteGroupCommit, statement: SqlStatement) {
    recording.getStore()?.push({ kind: 'run', sql: statement.sql, parameters: [...statement.parameters] });
    return original.run.call(this, statement);
  };
  prototype.beginTransaction = async function (this: SqliteGroupCommit) {
    const transaction = await original.beginTransaction.call(this);
    const tx = nextTx++;
    numbers.set(transaction, tx);
    recording.getStore()?.push({ kind: 'begin', tx });
    return transaction;
  };
  prototype.runInTransaction = function (this: SqliteGroupCommit, transaction: GroupTransaction, statement: SqlStatement) {
    recording.getStore()?.push({ kind: 'statement', tx: numbers.get(transaction) ?? -1, sql: statement.sql, parameters: [...statement.parameters] });
    return original.runInTransaction.call(this, transaction, statement);
  };
  prototype.commitTransaction = function (this: SqliteGroupCommit, transaction: GroupTransaction) {
    recording.getStore()?.push({ kind: 'commit', tx: numbers.get(transaction) ?? -1 });
    return original.commitTransaction.call(this, transaction);
  };
  prototype.rollbackTransaction = function (this: SqliteGroupCommit, transaction: GroupTransaction) {
    if (!transaction.ended) recording.getStore()?.push({ kind: 'rollback', tx: numbers.get(transaction) ?? -1 });
    return original.rollbackTransaction.call(this, transaction);
  };
  return () => Object.assign(prototype, original);
}

/** Creates `creations` payments through the real app; returns each one's steps and the starting copy's path. */
async function capture(dir: string, creations: number): Promise<{ perCreation: Step[][]; startFile: string; seconds: number }> {
  const restore = recordGroupCommit();
  const test = await buildTestApp(captureDatabase(dir), { env: { AKWE_RUN_WORKERS: 'false' } });
  try {
    const { testKey } = await test.newMerchant();
    const run = randomBytes(4).toString('hex');
    const create = async (index: number) => {
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/v1/collect/payments',
        headers: { authorization: `Bearer ${testKey}`, 'idempotency-key': `ceiling-${run}-${index}`, 'content-type': 'application/json' },
        payload: { reference: `ceiling-${run}-${index}`, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } },
      });
      if (response.statusCode !== 201) throw new Error(`capture: creation answered ${response.statusCode}: ${response.body}`);
    };
    for (let i = 0; i < WARMUP_CREATIONS; i++) await create(i);
    const startFile = join(dir, 'start.db');
    const copier = new BetterSqlite3(join(dir, 'capture.db'));
    try {
      copier.prepare('vacuum into ?').run(startFile);
    } finally {
      copier.close();
    }
    const perCreation: Step[][] = [];
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CAPTURE_CONCURRENCY }, async () => {
        while (next < creations) {
          const steps: Step[] = [];
          perCreation.push(steps);
          await recording.run(steps, () => create(WARMUP_CREATIONS + next++));
        }
      }),
    );
    return { perCreation, startFile, seconds: (performance.now() - started) / 1000 };
  } finally {
    restore();
    await test.close();
  }
}

async function replayCreation(groupCommit: SqliteGroupCommit, steps: Step[]): Promise<void> {
  const transactions = new Map<number, GroupTransaction>();
  const transactionOf = (tx: number) => {
    const transaction = transactions.get(tx);
    if (!transaction) throw new Error(`replay: transaction ${tx} was not begun`);
    return transaction;
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'run':
        await groupCommit.run(step);
        break;
      case 'begin':
        transactions.set(step.tx, await groupCommit.beginTransaction());
        break;
      case 'statement':
        groupCommit.runInTransaction(transactionOf(step.tx), step);
        break;
      case 'commit':
        await groupCommit.commitTransaction(transactionOf(step.tx));
        break;
      case 'rollback':
        await groupCommit.rollbackTransaction(transactionOf(step.tx));
        break;
    }
  }
}

/**
 * Captures `creations` creations, then replays them at `concurrency` on a copy of the database in a
 * folder under `dataParent` (the server's own folder parent, so the same disk syncs).
 */
export async function measureSqliteCeiling(options: { creations: number; concurrency: number; dataParent?: string }, progress: (text: string) => void): Promise<SqliteCeiling> {
  const dir = mkdtempSync(join(options.dataParent ?? tmpdir(), 'akwe-ceiling-'));
  try {
    progress(`sqlite ceiling: capturing the statements of ${options.creations} creations (the app in this process)`);
    const captured = await capture(dir, options.creations);
    const steps = captured.perCreation.flat();
    const statements = steps.filter((s) => s.kind === 'run' || s.kind === 'statement').length;
    const transactions = steps.filter((s) => s.kind === 'begin').length;
    progress(`sqlite ceiling: replaying them at ${options.concurrency} callers through the server's group commit (real fdatasync)`);
    const opened = openSqlite(captured.startFile, { backgroundCheckpoints: true });
    try {
      const commitsBefore = opened.groupCommit.stats.commits;
      const syncsBefore = opened.durability.syncs;
      let next = 0;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (next < captured.perCreation.length) await replayCreation(opened.groupCommit, captured.perCreation[next++]!);
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const creations = captured.perCreation.length;
      return {
        creations,
        concurrency: options.concurrency,
        statementsPerCreation: round(statements / creations, 2),
        transactionsPerCreation: round(transactions / creations, 2),
        replaySeconds: round(seconds, 2),
        creationsPerSecond: round(creations / seconds, 1),
        cpuMicrosecondsPerCreation: round((cpu.user + cpu.system) / creations, 1),
        systemCpuMicrosecondsPerCreation: round(cpu.system / creations, 1),
        commits: opened.groupCommit.stats.commits - commitsBefore,
        syncs: opened.durability.syncs - syncsBefore,
        captureSeconds: round(captured.seconds, 1),
      };
    } finally {
      await opened.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
