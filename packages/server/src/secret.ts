import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from './config.js';

/**
 * The server's own secret (session signing, encryption of stored webhook secrets). Production sets
 * AKWE_SECRET. Development generates one once and keeps it in the data folder (owner-only), so
 * restarts and the CLI on the same data folder keep using it.
 *
 * The file is created exclusively: it never replaces an existing one, and of several processes
 * starting at once on an empty data folder one writes it and the others read it. A file that its
 * group or other users can access, or an empty one, is refused (see docs/configuration.md).
 */
export function resolveSecret(config: Config): string {
  if (config.secret !== undefined) return config.secret;
  const file = join(config.dataDir, 'secret');
  const existing = readSecretFile(file);
  if (existing !== undefined) return existing;
  if (!config.dev) {
    throw new ConfigError(['AKWE_SECRET is required when AKWE_DEV is off (at least 32 characters of random text)']);
  }
  return createSecretFile(config.dataDir, file);
}

const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException | undefined)?.code === code;

/** The secret kept in `file`, or undefined when there is no such file. */
function readSecretFile(file: string): string | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
  try {
    // Checked on the open file, so the file checked is the file read.
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw new ConfigError([`the secret file ${file} is not a regular file`]);
    const mode = stats.mode & 0o777;
    // Windows has no such permission bits (Node reports 666 or 444); its ACLs are not checked.
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new ConfigError([
        `the secret file ${file} can be accessed by its group or other users (mode ${mode.toString(8).padStart(3, '0')}); ` +
          `make it readable by its owner only: chmod 600 ${file}`,
      ]);
    }
    const secret = readFileSync(descriptor, 'utf8').trim();
    if (secret === '') {
      throw new ConfigError([
        `the secret file ${file} is empty: put the secret back into it, or set AKWE_SECRET, or (development only) delete the file ` +
          'to have a new secret generated, which leaves webhook secrets sealed with the old one unreadable',
      ]);
    }
    return secret;
  } finally {
    closeSync(descriptor);
  }
}

/** Writes `content` to a new file (never an existing one) readable by its owner only, and syncs it. */
function writeNewFile(path: string, content: string): void {
  const descriptor = openSync(path, 'wx', 0o600);
  try {
    writeSync(descriptor, content);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(descriptor);
}

function createSecretFile(dataDir: string, file: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  const content = `${secret}\n`;
  // Written whole under a name of its own, then linked into place: link() refuses an existing name,
  // so `secret` appears complete or not at all, and another process never reads it half-written.
  const draft = join(dataDir, `.secret-${process.pid}-${randomBytes(6).toString('hex')}`);
  writeNewFile(draft, content);
  try {
    linkSync(draft, file);
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return winnersSecret(file);
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].some((code) => isErrno(error, code))) throw error;
    // A file system without hard links: create the file itself, still exclusively.
    try {
      writeNewFile(file, content);
    } catch (direct) {
      if (isErrno(direct, 'EEXIST')) return winnersSecret(file);
      throw direct;
    }
  } finally {
    rmSync(draft, { force: true });
  }
  syncFolder(dataDir);
  return secret;
}

/** Another process created the secret first: use its secret. */
function winnersSecret(file: string): string {
  const secret = readSecretFile(file);
  if (secret === undefined) throw new Error(`the secret file ${file} disappeared while it was being created`);
  return secret;
}

/** Makes the new directory entry survive a power loss (Windows cannot open a folder to sync it). */
function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  const descriptor = openSync(folder, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
