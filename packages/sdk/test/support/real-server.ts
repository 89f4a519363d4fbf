/**
 * A real Akwe server for the SDK's tests: the server's own buildTestApp on a throwaway SQLite file,
 * listening on a free port of 127.0.0.1, so the client talks HTTP to it like to any deployment.
 */
import type { AddressInfo } from 'node:net';
import { newId } from '../../../server/src/core/shared/ids.js';
import { renderDelivery } from '../../../server/src/http/contracts/index.js';
import { WebhookDeliveryJob } from '../../../server/src/webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../../../server/src/webhooks/webhook-senders.js';
import { FakeClock } from '../../../server/test/support/fake-clock.js';
import { buildTestApp, type TestApp } from '../../../server/test/support/test-app.js';
import { testDatabases } from '../../../server/test/support/test-databases.js';

export interface RealServer {
  testApp: TestApp;
  /** The API root, `/api/v1` included: what the client takes as baseUrl. */
  baseUrl: string;
  clock: FakeClock;
  close(): Promise<void>;
}

/** `env`: settings of the server's configuration (testConfig's own lifted rate limits stay unless named). */
export async function startRealServer(env: Record<string, string> = {}): Promise<RealServer> {
  const sqlite = testDatabases().find((target) => target.name === 'sqlite')!;
  // A fake clock that starts now: webhook timestamps stay within the verifier's tolerance.
  const clock = new FakeClock(new Date());
  const testApp = await buildTestApp(sqlite, { clock, env });
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = testApp.app.server.address() as AddressInfo;
  return { testApp, clock, baseUrl: `http://127.0.0.1:${port}/api/v1`, close: () => testApp.close() };
}

/** Runs the server's fan-out and delivery job until nothing is left to send: the worker's work, done now. */
export async function deliverWebhooks(server: RealServer): Promise<void> {
  const { services } = server.testApp;
  const job = new WebhookDeliveryJob(
    {
      store: services.webhookStore,
      webhooks: services.webhooks,
      senderFor: webhookSenders({ dev: true }),
      clock: server.clock,
      newId,
      publicUrl: 'http://localhost:8080',
      render: renderDelivery,
    },
    { timeoutMs: 2_000, random: () => 0.5 },
  );
  while ((await services.webhooks.fanOut()) > 0);
  while ((await job.runOnce()) > 0) await job.drain();
  await job.drain();
}
