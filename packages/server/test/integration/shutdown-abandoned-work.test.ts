/**
 * Shutdown waits for work whose client has already gone: a payment being created when its client
 * hangs up is still written, and its idempotency key still completed, before the database closes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { CatalogOperator } from '../../src/core/catalog/operator-catalog.js';
import type { OperatorAnswer } from '../../src/core/operators/operator-connector.js';
import type { Payment } from '../../src/core/payments/payment.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { openDatabase } from '../../src/storage/database.js';
import { direct } from '../support/collect-client.js';
import { watch } from '../support/promises.js';

/** The real sandbox, except that a push waits until the test lets it through. */
class GatedSandbox extends SandboxOperator {
  entered!: Promise<void>;
  private signalEntered!: () => void;
  private gate!: Promise<void>;
  open!: () => void;

  constructor() {
    super();
    this.entered = new Promise((resolve) => (this.signalEntered = resolve));
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  override async startCollection(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer> {
    this.signalEntered();
    await this.gate;
    return super.startCollection(payment, operator);
  }
}

describe('shutdown with work whose client has gone', () => {
  const sandbox = new GatedSandbox();
  let dataDir: string;
  let running: RunningServer;
  let announced = '';

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'akwe-abandoned-'));
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir, AKWE_RUN_WORKERS: 'false', LOG_LEVEL: 'silent' });
    running = await startServer(config, {
      logger: createLogger({ level: 'silent' }),
      announce: (text) => (announced += text),
      operators: new OperatorRegistry({ test: sandbox }),
    });
  });
  after(async () => {
    await running.shutdown();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the payment and its idempotency key before closing the database', async () => {
    const key = announced.match(/ak_test_[A-Za-z0-9_-]{43}/)?.[0];
    assert.ok(key);
    const payment = direct();
    const url = new URL(`${running.url}/api/v1/collect/payments`);
    const client = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'abandoned-1', 'content-type': 'application/json' } });
    client.on('error', () => {});
    client.end(JSON.stringify(payment));
    // The handler is inside the operator call (the push to the phone) when the client gives up.
    await sandbox.entered;
    client.destroy();

    const shutdown = watch(running.shutdown());
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(shutdown.settled(), false, 'shutdown finished while a handler was still working');
    sandbox.open();
    await shutdown.promise;

    const database = openDatabase({ kind: 'sqlite', file: join(dataDir, 'akwe.db') });
    try {
      const stored = await database.db.selectFrom('payments').select(['status']).where('reference', '=', payment.reference).execute();
      assert.deepEqual(stored, [{ status: 'completed' }]);
      const record = await database.db
        .selectFrom('idempotency_records')
        .select(['state', 'response_status'])
        .where('idempotency_key', '=', 'abandoned-1')
        .executeTakeFirstOrThrow();
      assert.deepEqual(record, { state: 'completed', response_status: 201 });
    } finally {
      await database.close();
    }
  });
});
