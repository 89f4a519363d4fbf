/** Settings the bench scripts read from the environment. */
import { DEFAULT_POSTGRES_URL, postgresUnavailableReason } from './postgres.js';

/** A whole number from `name`, at least `min`; `fallback` when unset (required when the fallback is undefined). */
export function envInt(name: string, fallback: number | undefined, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') {
    if (fallback === undefined) throw new Error(`${name} is required`);
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number >= ${min} (got "${raw}")`);
  return value;
}

/**
 * For a script that runs one phase: the databases BENCH_DATABASES names (both by default), with
 * PostgreSQL (DATABASE_URL, or the local default) left out, saying why, when it cannot be reached.
 */
export async function phaseDatabases(progress: (text: string) => void): Promise<{ postgresUrl: string; kinds: ('sqlite' | 'postgres')[] }> {
  const postgresUrl = process.env.DATABASE_URL?.trim() || DEFAULT_POSTGRES_URL;
  const wanted = (process.env.BENCH_DATABASES?.trim() || 'sqlite,postgres').toLowerCase().split(/[\s,]+/);
  const kinds: ('sqlite' | 'postgres')[] = [];
  if (wanted.includes('sqlite')) kinds.push('sqlite');
  if (wanted.includes('postgres')) {
    const unavailable = await postgresUnavailableReason(postgresUrl);
    if (unavailable === null) kinds.push('postgres');
    else progress(`PostgreSQL skipped: ${unavailable}`);
  }
  return { postgresUrl, kinds };
}

/** Runs a bench script's `main` and exits with its code; a throw is printed (with `label`) and exits with `failureCode`. */
export function exitWith(main: () => Promise<number>, failureCode: number, label = ''): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${label}${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(failureCode);
    },
  );
}
