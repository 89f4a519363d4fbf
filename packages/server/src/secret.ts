import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from './config.js';

/**
 * The server's own secret (session signing, encryption of stored webhook secrets). Production sets
 * AKWE_SECRET. Development generates one once and keeps it in the data folder (owner-only), so
 * restarts and the CLI on the same data folder keep using it.
 */
export function resolveSecret(config: Config): string {
  if (config.secret !== undefined) return config.secret;
  const file = join(config.dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  if (!config.dev) {
    throw new ConfigError(['AKWE_SECRET is required when AKWE_DEV is off (at least 32 characters of random text)']);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
