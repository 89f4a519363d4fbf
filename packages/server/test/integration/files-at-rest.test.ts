/**
 * Files at rest. The SQLite database holds customers' phone numbers and API key hashes, and the
 * development secret unseals stored webhook secrets: both are kept for their owner only.
 * - SQLite: a missing folder is created 0700, the database and its -wal and -shm files end up
 *   0600 (an existing file that others could read is tightened, never loosened), an existing
 *   folder is left alone, and an in-memory database creates nothing.
 * - The secret file: created 0600, exclusively, so a secret is never overwritten and processes
 *   starting together agree on one; an empty file, or one that others can read, is refused with a
 *   message naming the file and the fix.
 * The process umask is set to the common 022 for the whole file: without the care under test, new
 * files would come out 0644 and new folders 0755.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config.js';
import { resolveSecret } from '../../src/secret.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { startAkwe, typeScriptChildArgs } from '../support/child-process.js';

const posixModes = process.platform === 'win32' ? 'file modes are POSIX only' : false;
const modeOf = (path: string) => statSync(path).mode & 0o777;
const octal = (mode: number) => mode.toString(8).padStart(3, '0');
function assertMode(path: string, expected: number) {
  assert.equal(octal(modeOf(path)), octal(expected), `mode of ${path}`);
}

let root: string;
let previousUmask: number;
before(() => {
  previousUmask = process.umask(0o022);
  root = mkdtempSync(join(tmpdir(), 'akwe-files-at-rest-'));
});
after(() => {
  process.umask(previousUmask);
  rmSync(root, { recursive: true, force: true });
});

let folders = 0;
/** A path under the test's temporary root that does not exist yet. */
const freshPath = (name: string) => join(root, `${name}-${++folders}`);

describe('SQLite files', { skip: posixModes }, () => {
  it('a new database: its missing folders are created 0700; the database, -wal and -shm are 0600 after opening and writing', async () => {
    const parent = freshPath('db');
    const folder = join(parent, 'data');
    const file = join(folder, 'akwe.db');
    const database = openDatabase({ kind: 'sqlite', file });
    try {
      await migrateToLatest(database);
      await sql`create table at_rest (phone text)`.execute(database.db);
      await sql`insert into at_rest (phone) values ('+22997000000')`.execute(database.db);
      assert.ok(statSync(`${file}-wal`).size > 0, 'the writes did not reach the write-ahead log');
      assertMode(parent, 0o700);
      assertMode(folder, 0o700);
      assertMode(file, 0o600);
      assertMode(`${file}-wal`, 0o600);
      assertMode(`${file}-shm`, 0o600);
    } finally {
      await database.close();
    }
    // Another process opening the file later (the CLI, a worker) sees the same modes.
    const again = openDatabase({ kind: 'sqlite', file });
    try {
      await sql`select 1`.execute(again.db);
      assertMode(file, 0o600);
      assertMode(`${file}-wal`, 0o600);
      assertMode(`${file}-shm`, 0o600);
    } finally {
      await again.close();
    }
  });

  it('SQLite itself gives -wal and -shm the mode of the database file, whatever the umask (what keeps files it creates later private)', () => {
    const folder = freshPath('sqlite-own');
    mkdirSync(folder);
    for (const mode of [0o600, 0o640]) {
      const file = join(folder, `db-${octal(mode)}.sqlite`);
      writeFileSync(file, '');
      chmodSync(file, mode);
      const connection = new BetterSqlite3(file);
      try {
        connection.pragma('journal_mode = WAL');
        connection.exec('create table t (x text); insert into t values (1)');
        assertMode(`${file}-wal`, mode);
        assertMode(`${file}-shm`, mode);
      } finally {
        connection.close();
      }
    }
  });

  it('tightens an existing database and leftover -wal and -shm files that others could read, and leaves an existing folder as it is', async () => {
    const folder = freshPath('existing');
    mkdirSync(folder);
    chmodSync(folder, 0o750);
    const file = join(folder, 'akwe.db');
    // An earlier version's files, still open elsewhere so that the -wal and -shm stay on disk.
    const earlier = new BetterSqlite3(file);
    try {
      earlier.pragma('journal_mode = WAL');
      earlier.exec('create table t (x text); insert into t values (1)');
      for (const path of [file, `${file}-wal`, `${file}-shm`]) {
        chmodSync(path, 0o644);
        assertMode(path, 0o644);
      }
      const database = openDatabase({ kind: 'sqlite', file });
      try {
        assertMode(file, 0o600);
        assertMode(`${file}-wal`, 0o600);
        assertMode(`${file}-shm`, 0o600);
        assertMode(folder, 0o750);
      } finally {
        await database.close();
      }
    } finally {
      earlier.close();
    }
  });

  it('never loosens an existing database file', async () => {
    const folder = freshPath('strict');
    mkdirSync(folder);
    const file = join(folder, 'akwe.db');
    writeFileSync(file, '');
    chmodSync(file, 0o400 | 0o200);
    const database = openDatabase({ kind: 'sqlite', file });
    try {
      await sql`create table t (x text)`.execute(database.db);
      assertMode(file, 0o600);
    } finally {
      await database.close();
    }
  });

  it('an in-memory database creates no file', async () => {
    const folder = freshPath('memory');
    mkdirSync(folder);
    const previousDirectory = process.cwd();
    process.chdir(folder);
    try {
      const database = openSqlite(':memory:');
      await database.close();
      assert.deepEqual(readdirSync(folder), []);
    } finally {
      process.chdir(previousDirectory);
    }
  });
});

describe('the development secret file', () => {
  const devConfig = (dataDir: string) => loadConfig({ AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir });

  /** Writes a secret file as an operator (or an earlier version) would have left it. */
  function existingSecret(content: string, mode = 0o600): { dataDir: string; file: string } {
    const dataDir = freshPath('secret');
    mkdirSync(dataDir, { mode: 0o700 });
    const file = join(dataDir, 'secret');
    writeFileSync(file, content, { mode });
    chmodSync(file, mode);
    return { dataDir, file };
  }

  function refusal(dataDir: string, dev = true): ConfigError {
    try {
      resolveSecret(dev ? devConfig(dataDir) : loadConfig({ AKWE_DATA_DIR: dataDir }));
    } catch (error) {
      assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
      return error;
    }
    assert.fail('the secret file was accepted');
  }

  it('is created 0600, in a data folder created 0700, and nothing else is left behind', { skip: posixModes }, () => {
    const dataDir = join(freshPath('new-secret'), 'data');
    const secret = resolveSecret(devConfig(dataDir));
    const file = join(dataDir, 'secret');
    assert.equal(readFileSync(file, 'utf8'), `${secret}\n`);
    assertMode(file, 0o600);
    assertMode(dataDir, 0o700);
    assert.deepEqual(readdirSync(dataDir), ['secret']);
  });

  it('an existing secret is used and never overwritten', () => {
    const known = 'k'.repeat(43);
    const { dataDir, file } = existingSecret(`${known}\n`);
    assert.equal(resolveSecret(devConfig(dataDir)), known);
    assert.equal(resolveSecret(loadConfig({ AKWE_DATA_DIR: dataDir })), known, 'outside development the file is read as well');
    assert.equal(readFileSync(file, 'utf8'), `${known}\n`);
    assert.deepEqual(readdirSync(dataDir), ['secret']);
  });

  it('processes starting together on an empty data folder end with one secret, which every one of them uses', async () => {
    const script = fileURLToPath(new URL('../support/secret-race-child.ts', import.meta.url));
    const raceRoot = freshPath('race');
    // Several rounds, each on a data folder of its own, every process starting each round at the
    // same planned instant: a check-then-write creation loses at least one of them.
    const rounds = 30;
    const children = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, typeScriptChildArgs(script, raceRoot), { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => (stdout.includes('ready\n') ? resolve() : undefined));
        void exited.then(() => reject(new Error(`a child exited before it was ready:\n${stderr}`)));
      });
      return { child, ready, exited, output: () => stdout, errors: () => stderr };
    });
    try {
      await Promise.all(children.map((c) => c.ready));
      const start = Date.now() + 300;
      for (const c of children) c.child.stdin.write(`go ${start} ${rounds} 20\n`);
      const codes = await Promise.all(children.map((c) => c.exited));
      const perChild = children.map((c, i) => {
        assert.equal(codes[i], 0, `child ${i} failed:\n${c.errors()}`);
        const line = c
          .output()
          .split('\n')
          .find((l) => l.startsWith('['));
        assert.ok(line, `child ${i} printed no result:\n${c.output()}`);
        return JSON.parse(line) as Array<{ secret?: string; error?: string }>;
      });
      for (let round = 0; round < rounds; round++) {
        const results = perChild.map((r) => r[round]!);
        for (const result of results) assert.equal(result.error, undefined, `round ${round}: a process was refused: ${result.error}`);
        const secrets = new Set(results.map((r) => r.secret));
        assert.equal(secrets.size, 1, `round ${round}: the processes use ${secrets.size} different secrets`);
        const dataDir = join(raceRoot, `round-${round}`);
        const file = join(dataDir, 'secret');
        assert.equal(readFileSync(file, 'utf8'), `${[...secrets][0]}\n`, `round ${round}: the file holds another secret`);
        assert.deepEqual(readdirSync(dataDir), ['secret']);
        if (!posixModes) assertMode(file, 0o600);
      }
    } finally {
      for (const c of children) if (c.child.exitCode === null) c.child.kill();
    }
  });

  it('an empty secret file, or one with only white space, is refused with a message naming it; it is not replaced', () => {
    for (const content of ['', ' \n\t\n']) {
      const { dataDir, file } = existingSecret(content);
      const error = refusal(dataDir);
      assert.ok(error.message.includes(file), error.message);
      assert.match(error.message, /is empty/);
      assert.equal(readFileSync(file, 'utf8'), content, 'the empty file was changed');
      assert.match(refusal(dataDir, false).message, /is empty/);
    }
  });

  it('a secret file that its group or other users can access is refused, with the chmod that fixes it', { skip: posixModes }, () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660, 0o602]) {
      const { dataDir, file } = existingSecret(`${'s'.repeat(43)}\n`, mode);
      const error = refusal(dataDir);
      assert.ok(error.message.includes(`chmod 600 ${file}`), `${octal(mode)}: ${error.message}`);
      assert.ok(error.message.includes(octal(mode)), `${octal(mode)}: the message does not show the mode: ${error.message}`);
      assert.ok(!error.message.includes('s'.repeat(43)), 'the message repeats the secret');
      assertMode(file, mode);
      refusal(dataDir, false);
      // The fix the message gives is enough.
      chmodSync(file, 0o600);
      assert.equal(resolveSecret(devConfig(dataDir)), 's'.repeat(43));
    }
  });

  it('akwe serve stops at start with that message (and exit status 1) rather than using a readable secret', { skip: posixModes }, async () => {
    const { dataDir, file } = existingSecret(`${'s'.repeat(43)}\n`, 0o644);
    const server = startAkwe(['serve'], { env: { AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }, cwd: dataDir });
    // A server that accepted the file would run until stopped: stop it, and the test fails below.
    const safety = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
    const result = await server.exited.finally(() => clearTimeout(safety));
    assert.equal(result.code, 1, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
    assert.ok(result.stderr.includes(`chmod 600 ${file}`), result.stderr);
    assert.equal(existsSync(join(dataDir, 'akwe.db')), false, 'the server opened its database before checking the secret');
  });
});
