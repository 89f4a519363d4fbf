/**
 * FedaPay's inbound calls, under /api/v1/operators/fedapay/ (no API key: FedaPay calls them).
 *
 * - `POST /webhooks`: FedaPay's signed events. The raw body's X-FEDAPAY-SIGNATURE must match one
 *   endpoint secret of a configured FedaPay entry (and be recent), else 401 and nothing is read.
 *   Even then the event only names our payment or payout (its `merchant_reference`): that resource
 *   is refreshed from FedaPay's own status read, and only that answer changes a state.
 * (Where FedaPay's payment page sends the customer back: customer-return-routes.ts.)
 */
import type { FastifyInstance } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import type { OperatorConnectors } from '../../core/operators/operator-connector.js';
import type { PaymentService } from '../../core/payments/payment-service.js';
import type { PayoutService } from '../../core/payouts/payout-service.js';
import type { Clock } from '../../core/ports.js';
import { FedaPayProtocolError } from '../../operators/fedapay/fedapay-responses.js';
import { fedaPayWebhookSubject, parseFedaPayEvent } from '../../operators/fedapay/fedapay-webhooks.js';
import { MemoryRateLimitCounter, RedisRateLimitCounter, type RateLimitCounter } from '../plugins/rate-limit-store.js';

export interface FedaPayWebhookOptions {
  payments: PaymentService;
  payouts: PayoutService;
  operators: OperatorConnectors;
  /** Calls per client address and minute, as for the other operators' callbacks. */
  perAddressPerMinute: number;
  redisUrl?: string;
  clock: Clock;
}

const WINDOW_MS = 60_000;

export async function fedaPayWebhookRoutes(app: FastifyInstance, options: FedaPayWebhookOptions): Promise<void> {
  const counter: RateLimitCounter = options.redisUrl
    ? new RedisRateLimitCounter({
        url: options.redisUrl,
        keyPrefix: 'akwe:callbacks:fedapay:',
        onConnectionError: (error) => app.log.warn({ err: error }, 'FedaPay webhook limits: Redis unreachable'),
        onReady: () => {},
      })
    : new MemoryRateLimitCounter(options.clock);
  app.addHook('onClose', () => counter.close());
  app.addHook('onRequest', async (request) => {
    let window;
    try {
      window = await counter.hit(`callbacks:ip:${request.ip}`, WINDOW_MS);
    } catch (error) {
      request.log.warn({ err: error }, 'FedaPay webhook limits unavailable; call let through');
      return;
    }
    if (window.count > options.perAddressPerMinute) {
      const seconds = Math.max(1, Math.ceil(window.resetInMs / 1000));
      throw new AkweError('rate_limited', `Too many operator callbacks from this address; retry in ${seconds} s.`, { retryAfterSeconds: seconds });
    }
  });

  // The signature covers the raw bytes: this scope keeps JSON bodies as a Buffer.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/fedapay/webhooks', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const nowSeconds = Math.floor(options.clock.now().getTime() / 1000);
    const signed = options.operators.liveConnectorsOf('fedapay').some((connector) => connector.verifyWebhook?.(raw, request.headers, nowSeconds));
    if (!signed) throw new AkweError('unauthenticated', 'The X-FEDAPAY-SIGNATURE header does not match this body (or is too old).');
    let subject;
    try {
      subject = fedaPayWebhookSubject(parseFedaPayEvent(JSON.parse(raw.toString('utf8'))));
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof FedaPayProtocolError) throw new AkweError('validation_error', `Not a FedaPay event: ${error.message}.`);
      throw error;
    }
    const log = request.log.child({ operator_family: 'fedapay', resource: subject?.resource, resource_id: subject?.id });
    const found = subject === undefined ? undefined : await (subject.resource === 'payment' ? options.payments : options.payouts).refreshOnOperatorHint(subject.id);
    if (found === undefined) log.warn('FedaPay webhook names nothing of ours; acknowledged, nothing changed');
    else log.info('FedaPay webhook: refreshed from FedaPay');
    return reply.code(200).send({ received: true });
  });
}
