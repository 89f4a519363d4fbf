/**
 * Runs the real `akwe` command (`node bin/akwe.js …`) in a child process, as an operator would,
 * and collects what it prints. The child gets only the environment a test gives it (plus PATH and
 * HOME), never the test runner's DATABASE_URL or AKWE_* settings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

export const akweBin = fileURLToPath(new URL('../../bin/akwe.js', import.meta.url));

export interface AkweResult {
  /** Exit code, or null when a signal ended the process. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface AkweOptions {
  env?: Record<string, string>;
  /** Working directory; defaults to the system temp folder so nothing lands in the repository. */
  cwd?: string;
}

/** PATH, HOME and the like from the runner, then NO_COLOR, then what the test gives. */
function baseEnv(env: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT']) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  return { ...base, NO_COLOR: '1', ...env };
}

function childEnv(env: Record<string, string> = {}): Record<string, string> {
  // What the suite tests: dist/ in a compiled run (AKWE_TEST_COMPILED=1), else the sources, never a dist/ built earlier.
  const from = process.env.AKWE_TEST_COMPILED === '1' ? { AKWE_FROM_SOURCE: '0' } : { AKWE_FROM_SOURCE: '1' };
  return baseEnv({ ...from, ...env });
}

/** A running `akwe` process whose output is collected as it arrives. */
export interface AkweProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited and its output streams are closed. */
  exited: Promise<AkweResult>;
  /** Resolves once stdout matches `pattern`; rejects if the process exits first. */
  waitForStdout(pattern: RegExp): Promise<string>;
}

export function startAkwe(args: string[], options: AkweOptions = {}): AkweProcess {
  return watchProcess(
    spawn(process.execPath, [akweBin, ...args], {
      cwd: options.cwd ?? tmpdir(),
      env: childEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    `akwe ${args.join(' ')}`,
  );
}

/**
 * Any other command (`npx akwe …` in a folder outside the repository), with the same collected
 * output. It leads a process group of its own, so `stopGroup` ends it with whatever it started.
 */
export function startCommand(command: string, args: string[], options: AkweOptions = {}): AkweProcess {
  return watchProcess(
    spawn(command, args, {
      cwd: options.cwd ?? tmpdir(),
      env: baseEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
    [command, ...args].join(' '),
  );
}

/** Sends `signal` to the process group a startCommand child leads (npx and the program it runs). */
export function stopGroup(running: AkweProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (running.child.pid === undefined || running.child.exitCode !== null || running.child.signalCode !== null) return;
  try {
    process.kill(-running.child.pid, signal);
  } catch {
    // The group has already gone.
  }
}

/** `label` names the command in the error of a waitForStdout that the process's exit ends. */
function watchProcess(child: ChildProcess, label: string): AkweProcess {
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<AkweResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr });
      for (const listener of listeners) listener();
    });
  });
  let hasExited = false;
  void exited.then(
    () => (hasExited = true),
    () => (hasExited = true),
  );

  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForStdout(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (match) {
            listeners.delete(check);
            resolve(match[0]);
          } else if (hasExited || child.exitCode !== null || child.signalCode !== null) {
            listeners.delete(check);
            reject(new Error(`${label} exited before printing ${pattern}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs `akwe …args` to completion. */
export function runAkwe(args: string[], options: AkweOptions = {}): Promise<AkweResult> {
  return startAkwe(args, options).exited;
}

/** Runs `akwe …args --json`-style commands that must succeed, and parses what they print. */
export async function runAkweJson<T = unknown>(args: string[], options: AkweOptions = {}): Promise<T> {
  const result = await runAkwe(args, options);
  if (result.code !== 0) {
    throw new Error(`akwe ${args.join(' ')} exited with ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`akwe ${args.join(' ')} did not print one JSON document:\n${result.stdout}`);
  }
}

/** A TCP port that was free a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Polls `url` until it answers 2xx. Gives up when `process` exits first (with its output in the
 * error) or after `giveUpAfterMs`, a safety net against a hung child, not a performance bound.
 */
export async function waitForUrl(url: string, options: { process?: AkweProcess; giveUpAfterMs?: number } = {}): Promise<Response> {
  const deadline = Date.now() + (options.giveUpAfterMs ?? 30_000);
  let exited = false;
  void options.process?.exited.then(
    () => (exited = true),
    () => (exited = true),
  );
  for (;;) {
    if (exited) {
      throw new Error(`the process exited before ${url} answered\nstdout:\n${options.process!.stdout()}\nstderr:\n${options.process!.stderr()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return response;
      await response.arrayBuffer();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${options.giveUpAfterMs ?? 30_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Node's arguments to run a TypeScript script of the suite in a child process, importing src/ the way
 * this run does (the compiled dist/ when AKWE_TEST_COMPILED=1).
 */
export function typeScriptChildArgs(script: string, ...args: string[]): string[] {
  const compiled = process.env.AKWE_TEST_COMPILED === '1' ? ['--import', fileURLToPath(new URL('../../scripts/use-compiled-build.mjs', import.meta.url))] : [];
  return ['--import', 'tsx', ...compiled, script, ...args];
}
