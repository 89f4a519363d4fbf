/**
 * The processes under test, each a child of the benchmark so that the load generator (autocannon,
 * in the parent) never shares their event loop: the Akwe server (`node bin/akwe.js serve`) and
 * the bare Fastify app.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const serverPackageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(serverPackageDir, '..', '..');

function newestFileTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = resolve(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestFileTime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * `bin/akwe.js` runs dist/ when it is at least as new as src/, else the sources through tsx: the
 * benchmark measures the compiled server, so it builds first (scripts/build.mjs) when the build is
 * missing or older than the sources, as bin/build-freshness.js judges it.
 */
export function ensureCompiledBuild(progress: (text: string) => void): void {
  const stamp = resolve(serverPackageDir, 'dist', 'build.json');
  if (existsSync(stamp) && existsSync(resolve(serverPackageDir, 'dist', 'main.js')) && newestFileTime(resolve(serverPackageDir, 'src')) <= statSync(stamp).mtimeMs) return;
  progress('dist/ is missing or older than src/: building it (scripts/build.mjs), so that the compiled server is measured');
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: serverPackageDir, stdio: ['ignore', 'inherit', 'inherit'] });
  if (built.status !== 0) throw new Error(`scripts/build.mjs failed (${built.status ?? built.signal}): the server would run from its sources`);
}

/** Highest value config.ts accepts for RATE_LIMIT_*_PER_MINUTE: far above what one machine serves. */
export const LIFTED_RATE_LIMIT_PER_MINUTE = '1000000';

export interface Child {
  process: ChildProcess;
  /** Everything the child wrote so far (stdout and stderr), for error messages. */
  output(): string;
  /** SIGTERM, wait for the exit (SIGKILL after the timeout); resolves with the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

function startChild(args: string[], env: NodeJS.ProcessEnv, label: string, cwd = serverPackageDir): Child {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  return {
    process: child,
    output: () => output,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        process.stderr.write(`${label} did not stop within ${timeoutMs} ms; killing it\n`);
        child.kill('SIGKILL');
      }, timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Resolves once `pattern` appears in the child's output; rejects if the child exits or time runs out. */
async function waitForOutput(child: Child, pattern: RegExp, label: string, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = child.output().match(pattern);
    if (match) return match;
    if (child.process.exitCode !== null || child.process.signalCode !== null) {
      throw new Error(`${label} exited (${child.process.exitCode ?? child.process.signalCode}) before it was ready:\n${child.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`${label} was not ready within ${timeoutMs} ms:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitForHealth(url: string, child: Child, label: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null) throw new Error(`${label} exited (${child.process.exitCode}) before it was ready:\n${child.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${label} did not answer ${url} within ${timeoutMs} ms:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface AkweServer {
  child: Child;
  url: string;
  /** The demo merchant's test key, read from the first start's announcement. */
  testKey: string;
}

export interface AkweServerOptions {
  port: number;
  /** Fresh, empty folder: the SQLite file and the development secret go here. */
  dataDir: string;
  /** PostgreSQL URL of an empty database; absent means SQLite in dataDir. */
  databaseUrl?: string;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** false: AKWE_RUN_WORKERS=false (the webhook phase builds a backlog with the workers off). */
  runWorkers?: boolean;
  /** The demo merchant's test key, when the database was made by an earlier start (no announcement then). */
  knownTestKey?: string;
  /** More variables for the server (e.g. the payout phase's SANDBOX_FLOAT and SANDBOX_PAYOUT_DELAY_MS). */
  env?: Record<string, string>;
  /** packages/server of another checkout (the A/B phase's baseline); default: this one. */
  packageDir?: string;
}

/** The environment of an Akwe child: development setting, the bench's data folder and database, nothing inherited that would change what is measured. */
export function akweEnv(options: Pick<AkweServerOptions, 'dataDir' | 'databaseUrl'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('RATE_LIMIT_') || ['DATABASE_URL', 'REDIS_URL', 'HOST', 'PUBLIC_URL', 'AKWE_CATALOG_FILE', 'BODY_LIMIT_BYTES', 'NODE_OPTIONS'].includes(name)) {
      delete env[name];
    }
  }
  Object.assign(env, { AKWE_DEV: 'true', AKWE_DATA_DIR: options.dataDir, LOG_LEVEL: 'warn' });
  if (options.databaseUrl !== undefined) env.DATABASE_URL = options.databaseUrl;
  return env;
}

/**
 * `node bin/akwe.js serve` as in development (AKWE_DEV=true, which creates the demo merchant on an
 * empty database), workers on unless `runWorkers` is false, warnings-only logs and the rate limits
 * lifted as far as the configuration allows. Variables that would change what is measured
 * (REDIS_URL, HOST, …) are dropped from the inherited environment.
 */
export async function startAkwe(options: AkweServerOptions): Promise<AkweServer> {
  const env = akweEnv(options);
  Object.assign(env, {
    PORT: String(options.port),
    HOST: '127.0.0.1',
    AKWE_RUN_WORKERS: options.runWorkers === false ? 'false' : 'true',
    RATE_LIMIT_CREATE_PER_MINUTE: LIFTED_RATE_LIMIT_PER_MINUTE,
    RATE_LIMIT_READ_PER_MINUTE: LIFTED_RATE_LIMIT_PER_MINUTE,
    RATE_LIMIT_REFUND_PER_MINUTE: LIFTED_RATE_LIMIT_PER_MINUTE,
    RATE_LIMIT_PAYOUT_PER_MINUTE: LIFTED_RATE_LIMIT_PER_MINUTE,
    RATE_LIMIT_MANAGE_PER_MINUTE: LIFTED_RATE_LIMIT_PER_MINUTE,
    ...options.env,
  });

  const child = startChild([...(options.nodeFlags ?? []), 'bin/akwe.js', 'serve'], env, 'akwe serve', options.packageDir);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    const testKey = options.knownTestKey ?? (await waitForOutput(child, /ak_test_[A-Za-z0-9_-]{20,}/, 'akwe serve'))[0];
    await waitForHealth(`${url}/health`, child, 'akwe serve');
    return { child, url, testKey: testKey! };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/**
 * `node bin/akwe.js worker` on the database of an `akwe serve` already started (same data folder,
 * hence the same development secret); resolves once it says its workers run (info log).
 */
export async function startAkweWorker(options: Pick<AkweServerOptions, 'dataDir' | 'databaseUrl' | 'nodeFlags'>, label = 'akwe worker'): Promise<Child> {
  const env = akweEnv(options);
  env.LOG_LEVEL = 'info';
  const child = startChild([...(options.nodeFlags ?? []), 'bin/akwe.js', 'worker'], env, label);
  try {
    await waitForOutput(child, /akwe worker is running/, label);
    return child;
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** A bench script run as a child (`node --import tsx <script>`), ready once `ready` appears in its output. */
export async function startScript(script: string, env: NodeJS.ProcessEnv, ready: RegExp, label: string): Promise<{ child: Child; match: RegExpMatchArray }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS;
  const child = startChild(['--import', 'tsx', script], childEnv, label);
  try {
    return { child, match: await waitForOutput(child, ready, label) };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

export interface BareApp {
  child: Child;
  url: string;
}

export async function startBareApp(port: number): Promise<BareApp> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  delete env.NODE_OPTIONS;
  const child = startChild(['--import', 'tsx', 'bench/bare-app.ts'], env, 'bare app');
  try {
    await waitForOutput(child, /^listening \d+$/m, 'bare app');
    return { child, url: `http://127.0.0.1:${port}` };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
