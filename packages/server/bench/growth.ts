/**
 * The growth phase of `npm run bench`: what a merchant with a long history costs. On a fresh
 * database of its own, `akwe serve` (workers on, as `npm start`):
 *
 *   1. warm-up creations and one sandbox payout (the templates of the seeded rows);
 *   2. creation at `connections` for `durationSeconds` on the (nearly) empty database;
 *   3. `rows` payments and `rows` payouts for the same merchant, written by the bench directly in
 *      the database (bench/growth-seed.ts), then creation again: throughput within 20 % of step 2;
 *   4. the first page of GET /api/v1/collect/payments and of GET /api/v1/payout/mobile-money/
 *      (p99 <= 10 ms), then the same pages filtered by status (p99 <= 20 ms), each read by one
 *      client that waits for every answer: what a page costs with a long history, the target; then
 *      the same at `latencyConnections`, printed for reference (on two cores, most of that p99 is
 *      the other connections' requests queued ahead);
 *   5. GET /api/v1/exports/payments.csv over the whole seeded period, read to its end: < 60 s for
 *      1 000 000 rows, the server's RSS (sampled every 50 ms) growing by < 100 MB. Until the route
 *      exists the phase says "not measured: … answered 404" and that target fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySampler } from './bulk.js';
import type { DatabaseProcesses } from './cpu.js';
import { creationRequests, getRequests } from './creation-requests.js';
import { seedHistory, type SeedResult } from './growth-seed.js';
import { round, runLoad, type LoadResult } from './load.js';
import { PAYOUT_PATH, PAYOUT_SANDBOX_DELAY_MS, PAYOUT_SANDBOX_FLOAT } from './payouts.js';
import { cleanUpBenchData, createBenchDatabase, safeUrl, type BenchDatabase } from './postgres.js';
import { freePort, startAkwe, type AkweServer } from './processes.js';

export const growthTargets = { minCreateShareOfEmpty: 0.8, firstPageP99Ms: 10, filteredPageP99Ms: 20, exportSeconds: 60, exportMemoryGrowthMb: 100 };
const EXPORT_PATH = '/api/v1/exports/payments.csv';
const PAGE_LIMIT = 20;
const EXPORT_TIMEOUT_MS = 600_000;

export interface GrowthSettings {
  rows: number;
  durationSeconds: number;
  connections: number;
  latencyConnections: number;
  warmupRequests: number;
  nodeFlags?: string[];
  dataParent?: string;
}

export type ExportMeasurement =
  | { measured: true; status: number; rows: number; bytes: number; seconds: number; memoryMb: { baseline: number; peak: number; growth: number } }
  | { measured: false; reason: string };

export interface GrowthMeasurements {
  kind: 'sqlite' | 'postgres';
  database: string;
  rows: number;
  seed: SeedResult;
  createEmpty: LoadResult;
  createGrown: LoadResult;
  /** One client at a time: the targets. */
  pages: { payments: LoadResult; payouts: LoadResult; paymentsByStatus: LoadResult; payoutsByStatus: LoadResult };
  /** At `latencyConnections`, for reference. */
  pagesUnderLoad: GrowthMeasurements['pages'];
  paths: { payments: string; payouts: string; paymentsByStatus: string; payoutsByStatus: string; export: string };
  export: ExportMeasurement;
}

type Progress = (text: string) => void;

async function createTemplatePayout(server: AkweServer): Promise<void> {
  const response = await fetch(`${server.url}${PAYOUT_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.testKey}`, 'content-type': 'application/json', 'idempotency-key': `growth-${randomBytes(6).toString('hex')}` },
    body: JSON.stringify({ reference: `growth-template-${randomBytes(4).toString('hex')}`, amount: 500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj' }),
  });
  if (response.status !== 201 && response.status !== 200) throw new Error(`the template payout answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
}

/** Reads the export to its end, counting lines, while the server's memory is sampled. */
async function measureExport(server: AkweServer, path: string): Promise<ExportMeasurement> {
  const memory = new MemorySampler(server.child.process.pid!);
  try {
    const baseline = memory.resetPeak();
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.testKey}` }, signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS) });
    if (response.status !== 200) {
      const body = (await response.text()).slice(0, 200).replace(/\s+/g, ' ');
      return { measured: false, reason: `${path.split('?')[0]} answered ${response.status}${response.status === 404 ? '' : `: ${body}`}` };
    }
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] === 10) newlines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    memory.sample();
    // The header line is not a payment.
    return {
      measured: true,
      status: response.status,
      rows: Math.max(0, newlines - 1),
      bytes,
      seconds: round(seconds, 2),
      memoryMb: { baseline: round(baseline, 1), peak: round(memory.peak, 1), growth: round(memory.peak - baseline, 1) },
    };
  } catch (error) {
    return { measured: false, reason: `${path.split('?')[0]} failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    memory.stop();
  }
}

export async function measureGrowth(kind: 'sqlite' | 'postgres', postgresUrl: string, settings: GrowthSettings, progress: Progress): Promise<GrowthMeasurements> {
  const label = `growth/${kind}`;
  const dataDir = mkdtempSync(join(settings.dataParent ?? tmpdir(), 'akwe-bench-growth-'));
  let benchDatabase: BenchDatabase | undefined;
  let server: AkweServer | undefined;
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
      env: { SANDBOX_FLOAT: PAYOUT_SANDBOX_FLOAT, SANDBOX_PAYOUT_DELAY_MS: PAYOUT_SANDBOX_DELAY_MS },
    });
    const runId = randomBytes(4).toString('hex');
    const created: string[] = [];
    const load = (title: string, connections: number, requests: Parameters<typeof runLoad>[0]['requests'], amount?: number) =>
      runLoad({
        title: `${label} ${title}`,
        url: server!.url,
        serverPid: server!.child.process.pid,
        database,
        connections,
        ...(amount !== undefined ? { amount } : { durationSeconds: settings.durationSeconds }),
        requests,
      });

    progress(`${label}: warm-up and a template payout`);
    await load('create warm-up', settings.latencyConnections, creationRequests(server.testKey, `gw${runId}`, created), Math.max(50, settings.warmupRequests));
    await createTemplatePayout(server);
    progress(`${label}: create at ${settings.connections} connections on the empty database`);
    const createEmpty = await load('POST /collect/payments (empty)', settings.connections, creationRequests(server.testKey, `ge${runId}`, created));

    progress(`${label}: seeding ${settings.rows} payments and ${settings.rows} payouts`);
    const seed = await seedHistory(benchDatabase ? { kind: 'postgres', url: benchDatabase.url } : { kind: 'sqlite', file: join(dataDir, 'akwe.db') }, settings.rows);
    progress(`${label}: seeded in ${seed.seconds} s; create at ${settings.connections} connections`);
    const createGrown = await load(`POST /collect/payments (${settings.rows} rows)`, settings.connections, creationRequests(server.testKey, `gg${runId}`, created));

    const paths = {
      payments: `/api/v1/collect/payments?limit=${PAGE_LIMIT}`,
      payouts: `/api/v1/payout/mobile-money/?limit=${PAGE_LIMIT}`,
      paymentsByStatus: `/api/v1/collect/payments?limit=${PAGE_LIMIT}&status=failed`,
      payoutsByStatus: `/api/v1/payout/mobile-money/?limit=${PAGE_LIMIT}&status=FAILED`,
      export: `${EXPORT_PATH}?from=${encodeURIComponent(seed.from)}&to=${encodeURIComponent(new Date().toISOString())}`,
    };
    const pages = {} as GrowthMeasurements['pages'];
    const pagesUnderLoad = {} as GrowthMeasurements['pages'];
    for (const name of ['payments', 'payouts', 'paymentsByStatus', 'payoutsByStatus'] as const) {
      progress(`${label}: GET ${paths[name]} by one client, then at ${settings.latencyConnections} connections`);
      await load(`GET ${paths[name]} warm-up`, settings.latencyConnections, getRequests(server.testKey, paths[name]), 200);
      pages[name] = await load(`GET ${paths[name]}`, 1, getRequests(server.testKey, paths[name]));
      pagesUnderLoad[name] = await load(`GET ${paths[name]}`, settings.latencyConnections, getRequests(server.testKey, paths[name]));
    }
    progress(`${label}: GET ${paths.export}`);
    const exported = await measureExport(server, paths.export);
    return {
      kind,
      database: benchDatabase ? safeUrl(benchDatabase.url) : `sqlite:${join(dataDir, 'akwe.db')}`,
      rows: settings.rows,
      seed,
      createEmpty,
      createGrown,
      pages,
      pagesUnderLoad,
      paths,
      export: exported,
    };
  } finally {
    await server?.child.stop(30_000);
    await cleanUpBenchData(benchDatabase, dataDir, progress, label);
  }
}

export interface GrowthTarget {
  name: string;
  value: number | null;
  threshold: number;
  unit: 'share' | 'ms' | 's' | 'MB';
  pass: boolean;
  note?: string;
}

/** The phase's targets; one not measured fails, with its reason. */
export function growthTargetList(m: GrowthMeasurements): GrowthTarget[] {
  const share = m.createGrown.requestsPerSecond / m.createEmpty.requestsPerSecond;
  const rows = m.rows.toLocaleString('en');
  const targets: GrowthTarget[] = [
    {
      name: `creation req/s with ${rows} payments and payouts >= ${growthTargets.minCreateShareOfEmpty * 100} % of the empty database's`,
      value: round(share, 3),
      threshold: growthTargets.minCreateShareOfEmpty,
      unit: 'share',
      pass: share >= growthTargets.minCreateShareOfEmpty,
      note: `${m.createGrown.requestsPerSecond} against ${m.createEmpty.requestsPerSecond} req/s`,
    },
  ];
  const page = (name: keyof GrowthMeasurements['pages'], threshold: number, what: string) => {
    const r = m.pages[name];
    targets.push({
      name: `${what} p99 <= ${threshold} ms (one client)`,
      value: r.latencyMs.p99,
      threshold,
      unit: 'ms',
      pass: r.failureRate === 0 && r.latencyMs.p99 <= threshold,
      note: `${r.requestsPerSecond} req/s`,
    });
  };
  page('payments', growthTargets.firstPageP99Ms, 'payments list, first page');
  page('payouts', growthTargets.firstPageP99Ms, 'payouts list, first page');
  page('paymentsByStatus', growthTargets.filteredPageP99Ms, 'payments list filtered by status, first page');
  page('payoutsByStatus', growthTargets.filteredPageP99Ms, 'payouts list filtered by status, first page');
  const exportName = `CSV export of ${rows} payments < ${growthTargets.exportSeconds} s`;
  const memoryName = `server RSS growth during the export < ${growthTargets.exportMemoryGrowthMb} MB`;
  if (!m.export.measured) {
    targets.push(
      { name: exportName, value: null, threshold: growthTargets.exportSeconds, unit: 's', pass: false, note: m.export.reason },
      { name: memoryName, value: null, threshold: growthTargets.exportMemoryGrowthMb, unit: 'MB', pass: false, note: m.export.reason },
    );
  } else {
    const e = m.export;
    targets.push(
      {
        name: exportName,
        value: e.seconds,
        threshold: growthTargets.exportSeconds,
        unit: 's',
        pass: e.seconds < growthTargets.exportSeconds && e.rows >= m.rows,
        note: `${e.rows} rows, ${round(e.bytes / 2 ** 20, 1)} MiB`,
      },
      {
        name: memoryName,
        value: e.memoryMb.growth,
        threshold: growthTargets.exportMemoryGrowthMb,
        unit: 'MB',
        pass: e.memoryMb.growth < growthTargets.exportMemoryGrowthMb,
        note: `${e.memoryMb.baseline} -> ${e.memoryMb.peak} MB`,
      },
    );
  }
  return targets;
}

/** The phase's own lines for the bench's report. */
export function growthReport(m: GrowthMeasurements): string[] {
  const line = (r: LoadResult) =>
    `${r.requestsPerSecond} req/s at ${r.connections} connections, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms${r.non2xx + r.errors > 0 ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`;
  return [
    '',
    `growth on ${m.kind}: ${m.rows.toLocaleString('en')} payments and ${m.rows.toLocaleString('en')} payouts for one merchant, seeded in ${m.seed.seconds} s (${m.seed.from} to ${m.seed.to}; statuses ${JSON.stringify(m.seed.paymentStatuses)})`,
    `  creation, empty database:  ${line(m.createEmpty)}`,
    `  creation, grown database:  ${line(m.createGrown)}`,
    ...(['payments', 'payouts', 'paymentsByStatus', 'payoutsByStatus'] as const).flatMap((name) => [
      `  ${m.paths[name]}: ${line(m.pages[name])}`,
      `  ${' '.repeat(m.paths[name].length)}  ${line(m.pagesUnderLoad[name])} (reference)`,
    ]),
    m.export.measured
      ? `  export: ${m.export.rows} rows, ${round(m.export.bytes / 2 ** 20, 1)} MiB in ${m.export.seconds} s; server RSS ${m.export.memoryMb.baseline} -> peak ${m.export.memoryMb.peak} MB`
      : `  export: not measured: ${m.export.reason}`,
  ];
}
