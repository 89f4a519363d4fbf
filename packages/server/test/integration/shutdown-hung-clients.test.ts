/**
 * SIGTERM with slow and hung peers connected (issue 29, point 7): an upload trickling in, a
 * request that sent only part of its headers, an idle kept-alive socket, and a webhook receiver
 * that never answers a delivery in flight. `akwe serve` (a child process, as deployed) must still
 * exit 0 within its grace and well under SHUTDOWN_TIMEOUT_MS, after answering the request that
 * was complete before the signal; the interrupted delivery is recorded as a failed try and
 * retried later. On every database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { newId } from '../../src/core/shared/ids.js';
import { createServices } from '../../src/services.js';
import { direct } from '../support/collect-client.js';
import { freePort, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const GRACE_MS = 1_500;
/** Far above the grace, far below the 30 s the webhook send deadline and SHUTDOWN_TIMEOUT_MS allow. */
const EXIT_BOUND_MS = 10_000;

/** A raw connection that has sent `text` and then goes quiet, keeping the socket open. */
function stalledClient(port: number, text: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      resolve(socket);
    });
    socket.on('error', () => {}); // the server closing it is what the test expects
    socket.once('error', reject);
  });
}

/** A complete keep-alive request; the socket stays open and idle after its answer. */
function idleKeptAliveClient(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'));
    socket.on('error', () => {});
    socket.once('data', () => resolve(socket));
  });
}

for (const target of testDatabases()) {
  describe(`SIGTERM with hung clients on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let dataDir: string;
    let key: string;
    let receiver: Server;
    let receiverPort: number;
    let deliveriesArrived = 0;
    const servers: AkweProcess[] = [];
    const sockets: Socket[] = [];

    before(async () => {
      db = await target.open();
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-hung-'));
      const services = createServices({ database: db.database, catalog: loadDefaultCatalog() });
      const { merchant } = await services.merchants.createMerchant({ name: 'Hung', kycStatus: 'validated', keyEnvironments: [] });
      key = (await services.merchants.createKey({ merchantId: merchant.id, environment: 'test' })).secret;
      // A receiver that reads each delivery and never answers it.
      receiver = createServer((request) => {
        deliveriesArrived += 1;
        request.resume();
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverPort = (receiver.address() as { port: number }).port;
    });
    after(async () => {
      for (const socket of sockets) socket.destroy();
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await Promise.allSettled(servers.map((s) => s.exited));
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('exits 0 within its grace, answering the complete request, and the delivery cut short is retried later', { timeout: 60_000 }, async () => {
      const port = await freePort();
      const env = { PORT: String(port), HOST: '127.0.0.1', AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: String(GRACE_MS) };
      const server = startAkwe(['serve'], { env, cwd: dataDir });
      servers.push(server);
      const url = `http://127.0.0.1:${port}`;
      await waitForUrl(`${url}/health`, { process: server });
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

      const endpoint = await fetch(`${url}/api/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook` }) });
      assert.equal(endpoint.status, 201, await endpoint.text());
      const payment = await fetch(`${url}/api/v1/collect/payments`, { method: 'POST', headers: { ...headers, 'idempotency-key': newId() }, body: JSON.stringify(direct()) });
      assert.equal(payment.status, 201);
      for (let waited = 0; deliveriesArrived === 0; waited += 50) {
        assert.ok(waited < 10_000, 'no delivery reached the receiver');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      sockets.push(
        await stalledClient(
          port,
          `POST /api/v1/bulk-payments/import_csv/?name=slow HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nIdempotency-Key: ${newId()}\r\nContent-Type: text/csv\r\nContent-Length: 100000\r\n\r\nnom;telephone;montant;devise;reference;operateur\r\n`,
        ),
        await stalledClient(port, 'GET /api/v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthori'),
        await idleKeptAliveClient(port),
      );
      // A complete request whose answer is under way when the signal comes: it must get it.
      const complete = fetch(`${url}/api/v1/collect/payments?limit=5`, { headers });
      await new Promise((resolve) => setTimeout(resolve, 100));

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const result = await Promise.race([server.exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), EXIT_BOUND_MS))]);
      assert.notEqual(result, 'hung', `still running ${EXIT_BOUND_MS} ms after SIGTERM:\n${server.stdout().slice(-3000)}`);
      const exited = result as Exclude<typeof result, 'hung'>;
      assert.equal(exited.code, 0, exited.stdout.slice(-3000) + exited.stderr);
      assert.match(exited.stdout, /shut down cleanly/);
      assert.ok(Date.now() - signalledAt < EXIT_BOUND_MS);
      assert.equal((await complete).status, 200);

      const deliveries = await db.database.db.selectFrom('webhook_deliveries').select(['status', 'last_error', 'attempts']).execute();
      assert.equal(deliveries.length >= 1, true);
      const cutShort = deliveries.find((delivery) => delivery.last_error !== null);
      assert.ok(cutShort, JSON.stringify(deliveries));
      assert.equal(cutShort.status, 'retrying', JSON.stringify(deliveries));
      assert.match(cutShort.last_error ?? '', /shutting down/);
    });
  });
}
