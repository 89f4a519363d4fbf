/**
 * Where `akwe listen` stopped, kept on disk so a restarted listen resumes after the last event it
 * forwarded (docs/cli.md "Restarts"). One small JSON file per server, key and event filter, named
 * by a hash of the three: the key itself is never written.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** AKWE_CLI_STATE_DIR, else $XDG_CONFIG_HOME/akwe, else ~/.config/akwe. */
export function cliStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AKWE_CLI_STATE_DIR) return env.AKWE_CLI_STATE_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'akwe');
}

export class ListenPosition {
  readonly file: string;

  constructor(folder: string, baseUrl: string, apiKey: string, events: string | undefined) {
    const filter = (events ?? '*')
      .split(',')
      .map((each) => each.trim().toLowerCase())
      .filter(Boolean)
      .sort()
      .join(',');
    const hash = createHash('sha256').update(`${baseUrl}\n${apiKey}\n${filter}`).digest('hex').slice(0, 24);
    this.file = join(folder, `listen-${hash}.json`);
  }

  /** The last forwarded event id, or undefined (no file, or a file we cannot read: start from now). */
  read(): string | undefined {
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as { last_event_id?: unknown };
      return typeof saved.last_event_id === 'string' ? saved.last_event_id : undefined;
    } catch {
      return undefined;
    }
  }

  /** Written after each forwarded event; a rename so a crash mid-write never leaves half a file. */
  write(lastEventId: string): void {
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ last_event_id: lastEventId, updated_at: new Date().toISOString() })}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}
