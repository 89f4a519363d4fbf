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
import type { RefundService } from '../../core/payments/refund-service.js';
import type { PayoutService } from '../../core/payouts/payout-service.js';
import { AkweError } from '../../core/errors/index.js';
import type { OperatorConnectors } from '../../core/operators/operator-connector.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { readMtnCallback } from '../../operators/mtn-momo/mtn-callbacks.js';
import { ORANGE_STATE } from '../../operators/orange-money/orange-money-connector.js';
import { notificationMatches, readOrangeNotification } from '../../operators/orange-money/orange-notifications.js';
import { WaveProtocolError } from '../../operators/wave/wave-responses.js';
import { parseWaveEvent, waveWebhookSubject } from '../../operators/wave/wave-webhooks.js';
import { pawapayCallbackRoutes } from './pawapay-callback-routes.js';
import { MemoryRateLimitCounter, RedisRateLimitCounter, type RateLimitCounter } from '../plugins/rate-limit-store.js';

export interface OperatorCallbackOptions {
  payments: PaymentService;
  refunds: RefundService;
  payouts: PayoutService;
  operators: OperatorConnectors;
  /** Our public origin (pawaPay's callbacks name it). */
  publicUrl: string;
  /** Callbacks per client address and minute. */
  perAddressPerMinute: number;
  redisUrl?: string;
  clock: Clock;
}

const WINDOW_MS = 60_000;

export async function operatorCallbackRoutes(app: FastifyInstance, options: OperatorCallbackOptions): Promise<void> {
  const counter: RateLimitCounter = options.redisUrl
    ? new RedisRateLimitCounter({
        url: options.redisUrl,
        keyPrefix: 'akwe:callbacks:',
        onConnectionError: (error) => app.log.warn({ err: error }, 'operator callback limits: Redis unreachable'),
        onReady: () => {},
      })
    : new MemoryRateLimitCounter(options.clock);
  app.addHook('onClose', () => counter.close());

  const refreshers: Record<'payment' | 'payout' | 'refund', (id: string) => Promise<unknown>> = {
    payment: (id) => options.payments.refreshOnOperatorHint(id),
    payout: (id) => options.payouts.refreshOnOperatorHint(id),
    refund: (id) => options.refunds.refreshOnOperatorHint(id),
  };

  /** Refreshes, from its operator, what a callback names; one naming nothing of ours is logged and acknowledged. */
  const refreshNamed = async (request: FastifyRequest, family: string, named: { resource: 'payment' | 'payout' | 'refund'; id: string } | undefined) => {
    const log = request.log.child({ operator_family: family, resource: named?.resource, resource_id: named?.id });
    const found = named === undefined ? undefined : await refreshers[named.resource](named.id);
    if (found === undefined) log.warn('operator callback names nothing of ours; acknowledged, nothing changed');
    else log.info('operator callback: refreshed from the operator');
  };

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
      await refreshNamed(request, 'mtn-momo', callback);
      return reply.code(200).send({ received: true });
    },
  });

  // Wave signs its webhooks over the raw body: this scope keeps JSON bodies as bytes.
  await app.register(async (signed) => {
    signed.removeContentTypeParser('application/json');
    signed.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    signed.post('/wave/webhooks', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      const raw = request.body as Buffer;
      const nowSeconds = Math.floor(options.clock.now().getTime() / 1000);
      // One signing secret per configured Wave wallet: the webhook is Wave's if one of them signed it.
      const signedBy = options.operators.liveConnectorsOf('wave').some((connector) => connector.verifyWebhook?.(raw, request.headers, nowSeconds));
      if (!signedBy) throw new AkweError('unauthenticated', 'The Wave-Signature header does not match this body (or is too old).');
      let subject;
      try {
        subject = waveWebhookSubject(parseWaveEvent(JSON.parse(raw.toString('utf8'))));
      } catch (error) {
        if (error instanceof SyntaxError || error instanceof WaveProtocolError) throw new AkweError('validation_error', `Not a Wave event: ${error.message}.`);
        throw error;
      }
      await refreshNamed(request, 'wave', subject);
      return reply.code(200).send({ received: true });
    });
  });

  await app.register(pawapayCallbackRoutes, { operators: options.operators, publicUrl: options.publicUrl, clock: options.clock, refresh: refreshNamed });

  // Orange posts `{ status, notif_token, txnid }` to the notif_url of one payment. Only the
  // notif_token Orange gave for that payment authenticates it (constant-time, against the hash we
  // kept); even then Orange's transactionstatus decides what changes, never the body.
  app.post<{ Params: { id: string } }>('/orange-money/notifications/:id', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const notification = readOrangeNotification(request.body);
    if ('invalid' in notification) throw new AkweError('validation_error', `Not an Orange Money notification: ${notification.invalid}.`);
    const { id } = request.params;
    const payment = looksLikeId(id) ? await options.payments.findForReturn(id) : undefined;
    if (!payment || !notificationMatches(notification, payment.operatorState?.[ORANGE_STATE.notifTokenHash])) {
      request.log.warn({ operator_family: 'orange-money', resource_id: id }, 'Orange Money notification with a notif_token that is not this payment’s; refused, nothing changed');
      throw new AkweError('unauthenticated', 'The notif_token does not match this payment.');
    }
    await refreshNamed(request, 'orange-money', { resource: 'payment', id });
    return reply.code(200).send({ received: true });
  });
}
