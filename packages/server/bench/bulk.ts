/**
 * The bulk phase of `npm run bench` (issue #12, "Scale"), on a fresh database of its own: `akwe
 * serve` with its workers in the same process (as `npm start`), SANDBOX_FLOAT at its highest and
 * SANDBOX_PAYOUT_DELAY_MS=0 (the sandbox answers COMPLETED at the first status query).
 *
 *   warm-up: a BULK_WARMUP_LINES (200) file imported, validated and executed to its end, so that
 *            the code is compiled and the pools are open before memory is measured.
 *   import:  POST /bulk-payments/import_csv/ with a BENCH_BULK_LINES (10 000) line file as a
 *            French spreadsheet exports it (BOM, semicolons, French headings, CRLF), to the 201.
 *   checks:  POST /bulk-payments/{id}/validate/ (re-check, balance, the draft becomes processing), to the 200.
 *   execution: from that answer until GET /bulk-payments/{id}/ says the batch is final; also when
 *            the last line became a payout.
 * Memory: the server's resident set size (/proc/<pid>/status VmRSS) sampled every 50 ms; the
 * baseline is the last sample before the import, the peak the highest from the import to the end.
 * Targets (2-core machine): import + checks < 2 s, execution < 60 s, peak - baseline < 100 MB.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureCpu, type CpuUse, type DatabaseProcesses } from './cpu.js';
import { round } from './load.js';
import { PAYOUT_SANDBOX_DELAY_MS, PAYOUT_SANDBOX_FLOAT } from './payouts.js';
import { createBenchDatabase, safeUrl, type BenchDatabase, cleanUpBenchData } from './postgres.js';
import { freePort, startAkwe, type AkweServer } from './processes.js';

const BULK_PATH = '/api/v1/bulk-payments/';
const WARMUP_LINES = 200;
const FINAL_STATUSES = new Set(['completed', 'partially_completed', 'failed', 'cancelled']);
const EXECUTION_TIMEOUT_MS = 300_000;

export const bulkTargets = { importAndChecksMs: 2_000, executionSeconds: 60, memoryGrowthMb: 100 };

export interface BulkSettings {
  lines: number;
  nodeFlags?: string[];
  dataParent?: string;
}

export interface BulkMeasurements {
  kind: 'sqlite' | 'postgres';
  database: string;
  lines: number;
  fileBytes: number;
  importMs: number;
  checksMs: number;
  /** From the validate answer to the batch's final status. */
  executionSeconds: number;
  /** From the validate answer to the last line made a payout (no line `pending`). */
  linesToPayoutsSeconds: number | null;
  finished: boolean;
  batchStatus: string;
  lineCounts: Record<string, number>;
  memoryMb: { baseline: number; peak: number; growth: number; afterExecution: number };
  cpu: CpuUse;
}

type Progress = (text: string) => void;

/** The file a French spreadsheet exports: BOM, semicolons, French headings, CRLF; each line 5 000 FCFA to the sandbox's success number. */
export function bulkCsv(lines: number, runId: string): string {
  const rows = ['\ufeffNom bénéficiaire;Téléphone;Montant;Devise;Référence;Opérateur;Pays;Libellé'];
  for (let n = 1; n <= lines; n++) rows.push(`Agent ${n};01 97 00 00 00;500000;XOF;blk-${runId}-${n};mtn_bj;BJ;Prime ${n}`);
  return `${rows.join('\r\n')}\r\n`;
}

/** Resident set size of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

export class MemorySampler {
  private readonly timer: NodeJS.Timeout;
  last = 0;
  peak = 0;
  constructor(private readonly pid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 50);
  }
  sample(): void {
    this.last = rssMb(this.pid);
    this.peak = Math.max(this.peak, this.last);
  }
  /** Starts the peak afresh from the current sample. */
  resetPeak(): number {
    this.sample();
    this.peak = this.last;
    return this.last;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire answers as JSON, read by field name
type Wire = Record<string, any>;

async function call(server: AkweServer, method: 'GET' | 'POST', path: string, body?: string, contentType?: string): Promise<{ status: number; json: Wire }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.testKey}`,
      ...(method === 'POST' ? { 'idempotency-key': `bench-bulk-${randomBytes(8).toString('hex')}` } : {}),
      ...(contentType ? { 'content-type': contentType } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: response.status, json: (await response.json()) as Wire };
}

/** One batch through import, validate and execution; times in ms from this process's clock. */
async function runBatch(
  server: AkweServer,
  lines: number,
  onValidated?: () => void,
): Promise<{ fileBytes: number; importMs: number; checksMs: number; executionSeconds: number; linesToPayoutsSeconds: number | null; batch: Wire; finished: boolean }> {
  const csv = bulkCsv(lines, randomBytes(4).toString('hex'));
  let started = performance.now();
  const imported = await call(server, 'POST', `${BULK_PATH}import_csv/?name=bench-${lines}`, csv, 'text/csv; charset=utf-8');
  const importMs = performance.now() - started;
  if (imported.status !== 201) throw new Error(`import answered ${imported.status}: ${JSON.stringify(imported.json).slice(0, 500)}`);
  const id = String(imported.json.id);
  started = performance.now();
  const validated = await call(server, 'POST', `${BULK_PATH}${id}/validate/`);
  const checksMs = performance.now() - started;
  if (validated.status !== 200) throw new Error(`validate answered ${validated.status}: ${JSON.stringify(validated.json).slice(0, 500)}`);
  onValidated?.();
  started = performance.now();
  let linesToPayoutsSeconds: number | null = null;
  for (;;) {
    const { json: batch } = await call(server, 'GET', `${BULK_PATH}${id}/`);
    const elapsed = (performance.now() - started) / 1000;
    if (linesToPayoutsSeconds === null && (batch as { totals?: { pending?: { count?: number } } }).totals?.pending?.count === 0) linesToPayoutsSeconds = elapsed;
    const finished = FINAL_STATUSES.has(String(batch.status));
    if (finished || elapsed * 1000 > EXECUTION_TIMEOUT_MS) {
      return { fileBytes: Buffer.byteLength(csv), importMs, checksMs, executionSeconds: elapsed, linesToPayoutsSeconds, batch, finished };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function measureBulk(kind: 'sqlite' | 'postgres', postgresUrl: string, settings: BulkSettings, progress: Progress): Promise<BulkMeasurements> {
  const label = `bulk/${kind}`;
  const dataDir = mkdtempSync(join(settings.dataParent ?? tmpdir(), 'akwe-bench-bulk-'));
  let benchDatabase: BenchDatabase | undefined;
  let server: AkweServer | undefined;
  let memory: MemorySampler | undefined;
  try {
    if (kind === 'postgres') {
      benchDatabase = await createBenchDatabase(postgresUrl);
      progress(`${label}: created database ${benchDatabase.name}`);
    }
    const database: DatabaseProcesses | undefined = benchDatabase ? { name: 'postgres', titleIncludes: ` ${benchDatabase.name} ` } : undefined;
    server = await startAkwe({
      port: await freePort(),
      dataDir,
      ...(benchDatabase ? { databaseUrl: benchDatabase.url } : {}),
      ...(settings.nodeFlags ? { nodeFlags: settings.nodeFlags } : {}),
      env: {
        SANDBOX_FLOAT: PAYOUT_SANDBOX_FLOAT,
        SANDBOX_PAYOUT_DELAY_MS: PAYOUT_SANDBOX_DELAY_MS,
        BULK_MAX_LINES: String(Math.max(10_000, settings.lines)),
        BULK_MAX_BYTES: String(Math.max(5 * 1024 * 1024, settings.lines * 200)),
      },
    });
    memory = new MemorySampler(server.child.process.pid!);
    progress(`${label}: warm-up batch of ${WARMUP_LINES} lines`);
    await runBatch(server, WARMUP_LINES);

    await new Promise((r) => setTimeout(r, 1_000));
    const baseline = memory.resetPeak();
    progress(`${label}: import, validate and execute ${settings.lines} lines (server RSS ${baseline.toFixed(0)} MB)`);
    let stopCpu: (() => CpuUse) | undefined;
    const run = await runBatch(server, settings.lines, () => {
      stopCpu = measureCpu(server!.child.process.pid, database);
    });
    const cpu = stopCpu!();
    memory.sample();
    const peak = memory.peak;
    const lineCounts = Object.fromEntries(
      Object.entries((run.batch.totals ?? {}) as Record<string, { count: number }>)
        .filter(([, t]) => t.count > 0)
        .map(([status, t]) => [status, t.count]),
    );
    return {
      kind,
      database: benchDatabase ? safeUrl(benchDatabase.url) : `sqlite:${join(dataDir, 'akwe.db')}`,
      lines: settings.lines,
      fileBytes: run.fileBytes,
      importMs: round(run.importMs, 0),
      checksMs: round(run.checksMs, 0),
      executionSeconds: round(run.executionSeconds, 2),
      linesToPayoutsSeconds: run.linesToPayoutsSeconds === null ? null : round(run.linesToPayoutsSeconds, 2),
      finished: run.finished,
      batchStatus: String(run.batch.status),
      lineCounts,
      memoryMb: { baseline: round(baseline, 1), peak: round(peak, 1), growth: round(peak - baseline, 1), afterExecution: round(memory.last, 1) },
      cpu,
    };
  } finally {
    memory?.stop();
    await server?.child.stop(30_000);
    await cleanUpBenchData(benchDatabase, dataDir, progress, label);
  }
}

/** Whether each target of the phase is met, as the bench's target lines. */
export function bulkTargetLines(m: BulkMeasurements): { name: string; ok: boolean; detail: string }[] {
  const importAndChecks = m.importMs + m.checksMs;
  return [
    {
      name: `bulk ${m.kind}: import + checks of ${m.lines} lines < ${bulkTargets.importAndChecksMs} ms`,
      ok: importAndChecks < bulkTargets.importAndChecksMs,
      detail: `${importAndChecks} ms`,
    },
    {
      name: `bulk ${m.kind}: execution to the final status < ${bulkTargets.executionSeconds} s`,
      ok: m.finished && m.executionSeconds < bulkTargets.executionSeconds,
      detail: `${m.executionSeconds} s, ${m.batchStatus}`,
    },
    { name: `bulk ${m.kind}: server memory growth < ${bulkTargets.memoryGrowthMb} MB`, ok: m.memoryMb.growth < bulkTargets.memoryGrowthMb, detail: `${m.memoryMb.growth} MB` },
  ];
}

/** The phase's own lines for the bench's report. */
export function bulkReport(m: BulkMeasurements): string[] {
  const cpu = (value: number | null) => (value === null ? '-' : value.toFixed(2));
  return [
    '',
    `bulk payments on ${m.kind} (akwe serve with its workers; SANDBOX_PAYOUT_DELAY_MS=${PAYOUT_SANDBOX_DELAY_MS}; one CSV of ${m.lines} lines, ${(m.fileBytes / 1024).toFixed(0)} KiB):`,
    `  import ${m.importMs} ms + checks (validate) ${m.checksMs} ms = ${m.importMs + m.checksMs} ms`,
    `  execution: every line a payout after ${m.linesToPayoutsSeconds ?? '-'} s, the batch ${m.batchStatus} after ${m.executionSeconds} s${m.finished ? '' : ' (NOT final)'}; lines ${JSON.stringify(m.lineCounts)}`,
    `  server RSS: ${m.memoryMb.baseline} MB before the import, peak ${m.memoryMb.peak} MB (growth ${m.memoryMb.growth} MB), ${m.memoryMb.afterExecution} MB at the end`,
    `  cpu during execution (cores): server ${cpu(m.cpu.server)}, database ${cpu(m.cpu.database)}, other ${cpu(m.cpu.other)}`,
  ];
}
