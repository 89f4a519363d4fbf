/**
 * Sends one webhook try from a process of its own and prints the answer as JSON, so a test can
 * start it with NODE_EXTRA_CA_CERTS (read by Node only at start) and see HTTPS delivery succeed
 * with the sender's real certificate checks. The hostname resolves to `resolveTo` (no real DNS).
 * Usage: node --import tsx webhook-send-child.ts '{"url": …, "body": …, "resolveTo": "127.0.0.1"}'
 */
import { WebhookSender } from '../../src/webhooks/webhook-sender.js';

const { url, body, resolveTo } = JSON.parse(process.argv[2] ?? '{}') as { url: string; body: string; resolveTo: string };
const sender = new WebhookSender({ allowPrivate: true, resolver: async () => [{ address: resolveTo, family: 4 }] });
const answer = await sender.send({ url, body, headers: { 'X-Service-Event-Id': 'evt_https' }, timeoutMs: 5_000 });
process.stdout.write(`${JSON.stringify(answer)}\n`);
