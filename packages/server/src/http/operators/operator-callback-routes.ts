/**
 * Inbound operator callbacks, under /api/v1/operators/<family>/callbacks/… (no API key: operators
 * call them). A callback is a hint: the resource it names is refreshed from the operator's status
 * query, so a forged or replayed one changes nothing the operator did not say. Duplicates are
 * no-ops (the state already moved); an unknown reference is logged and acknowledged (the operator
 * would only retry); a body that is not the operator's is a 400; calls are limited per address.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/ports.js';
import type { PaymentService } from '../../core/payments/payment-service.js';
import type { PayoutService } from '../../core/payouts/payout-service.js';
import { AkweError } from '../../core/errors/index.js';
import { readMtnCallback } from '../../operators/mtn-momo/mtn-callbacks.js';
import { MemoryRateLimitCounter, RedisRateLimitCounter, type RateLimitCounter } from '../plugins/rate-limit-store.js';

export interface OperatorCallbackOptions {
  payments: PaymentService;
  payouts: PayoutService;
  /** Callbacks per client address and minute. */
  perAddressPerMinute: number;
  redisUrl?: string;
  clock: Clock;
}

const WINDOW_MS = 60_000;

export async function operatorCallbackRoutes(app: FastifyInstance, options: OperatorCallbackOptions): Promise<void> {
  const counter: RateLimitCounter = options.redisUrl
    ? new RedisRateLimitCounter({ url: options.redisUrl, keyPrefix: 'akwe:callbacks:', onConnectionError: (error) => app.log.warn({ err: error }, 'operator callback limits: Redis unreachable'), onReady: () => {} })
    : new MemoryRateLimitCounter(options.clock);
  app.addHook('onClose', () => counter.close());

  app.addHook('onRequest', async (request: FastifyRequest) => {
    let window;
    try {
      window = await counter.hit(`callbacks:ip:${request.ip}`, WINDOW_MS);
    } catch (error) {
      request.log.warn({ err: error }, 'operator callback limits unavailable; callback let through');
      return;
    }
    if (window.count > options.perAddressPerMinute) {
      const seconds = Math.max(1, Math.ceil(window.resetInMs / 1000));
      throw new AkweError('rate_limited', `Too many operator callbacks from this address; retry in ${seconds} s.`, { retryAfterSeconds: seconds });
    }
  });

  app.route<{ Params: { kind: string; id: string } }>({
    method: ['POST', 'PUT'],
    url: '/mtn-momo/callbacks/:kind/:id',
    config: { public: true },
    schema: { hide: true },
    handler: async (request, reply) => {
      const callback = readMtnCallback(request.params.kind, request.params.id, request.body);
      if ('invalid' in callback) throw new AkweError('validation_error', `Not an MTN MoMo callback: ${callback.invalid}.`);
      const log = request.log.child({ operator_family: 'mtn-momo', resource: callback.resource, resource_id: callback.id });
      let found: unknown;
      if (callback.resource === 'payment') found = await options.payments.refreshOnOperatorHint(callback.id);
      else if (callback.resource === 'payout') found = await options.payouts.refreshOnOperatorHint(callback.id);
      else found = await options.payments.refreshRefundOnOperatorHint(callback.id);
      if (found === undefined) log.warn('operator callback names nothing of ours; acknowledged, nothing changed');
      else log.info('operator callback: refreshed from the operator');
      return reply.code(200).send({ received: true });
    },
  });
}
