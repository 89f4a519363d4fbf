import type { Logger } from 'pino';
import type { Clock, IdSource } from '../core/ports.js';
import type { Environment } from '../core/shared/environment.js';
import { decideAfterTry } from '../core/webhooks/delivery-outcome.js';
import { CALLBACK_DESTINATION, signingSecrets, type WebhookDelivery } from '../core/webhooks/webhook-endpoint.js';
import type { WebhookService } from '../core/webhooks/webhook-service.js';
import type { DeliveryUpdate, SendingContext, TryResult, WebhookStore } from '../core/webhooks/webhook-store.js';
import { defaultDeliveryBudgets, maxInFlightBounds, type DeliveryBudgets } from '../core/webhooks/delivery-budgets.js';
import { ResultBatcher } from './result-batcher.js';
import { StreamThrottle } from './stream-throttle.js';
import type { WorkerJob } from '../workers/worker-pool.js';
import type { StoredEvent } from '../core/events/stored-event.js';
import type { WebhookApiVersion } from '../core/webhooks/webhook-endpoint.js';
import type { WebhookAnswer, WebhookDelivery as OutgoingRequest } from './webhook-sender.js';

/** How long a freed send slot waits for others before waking the claim (see slotFreed). */
const SLOT_WAKE_DELAY_MS = 2;

export interface DeliveryJobOptions {
  /** The receiver must answer within 30 s. */
  timeoutMs?: number;
  /** How long a claim stays ours; longer than the timeout, so only a dead worker's claim is taken over. */
  leaseSeconds?: number;
  /** Sends in flight in this process at once. */
  maxInFlight?: number;
  /** In flight per stream, merchant and host, across processes (delivery-budgets.ts). */
  budgets?: Partial<DeliveryBudgets>;
  /** The pause when idle and no signal comes (deliveries due later: retries). */
  idleDelayMs?: number;
  random?: () => number;
}

export interface DeliveryRenderOptions {
  publicUrl: string;
  /** The secrets that sign it now (two during a rotation overlap). */
  secrets: readonly string[];
  now: Date;
}

export interface RenderedDelivery {
  body: string;
  headers: Record<string, string>;
}

/** The exact bytes and headers of one delivery in its endpoint's contract version (the contract registry supplies it). */
export type DeliveryRenderer = (event: StoredEvent, apiVersion: WebhookApiVersion, options: DeliveryRenderOptions) => RenderedDelivery;

export interface DeliveryJobDeps {
  store: WebhookStore;
  webhooks: WebhookService;
  /** The sender for a delivery's environment (live is always strict about private addresses). */
  senderFor(environment: Environment): { send(request: OutgoingRequest): Promise<WebhookAnswer> };
  clock: Clock;
  newId: IdSource;
  publicUrl: string;
  render: DeliveryRenderer;
  logger?: Logger;
  /** Called when a send finishes and its slot is free (wakes this job's loop). */
  onSlotFree?: () => void;
  /** Closes the senders' kept-alive connections when the job stops. */
  closeSenders?: () => Promise<void>;
  /** Told what each recorded try decided (the metrics count them). */
  onTryRecorded?: (status: DeliveryUpdate['status']) => void;
}

/**
 * Claims due deliveries and sends them without waiting for one another: each pass starts as many
 * sends as there are free slots (within the budgets) and returns; a finished send wakes the loop
 * for the next. Results are recorded in batches. `stop()` waits for the sends in flight, up to a grace.
 */
export class WebhookDeliveryJob implements WorkerJob {
  readonly name = 'webhook-delivery';
  readonly idleDelayMs: number;
  readonly wakeOn = ['deliveries'] as const;
  private readonly inFlight = new Set<Promise<void>>();
  /** Aborted when stop's grace is over: the sends still waiting for an answer end as failed tries. */
  private readonly stopping = new AbortController();
  /** This process's sends in flight per stream, for the back-off. */
  private readonly streamSends = new Map<string, number>();
  /** Sends answered whose result is still being written: their slots are free (ClaimOptions.answered). */
  private readonly answered = new Set<string>();
  private readonly throttle: StreamThrottle;
  private readonly results: ResultBatcher<TryResult, boolean>;
  private slotWake: NodeJS.Timeout | undefined;
  private readonly budgets: DeliveryBudgets;
  private readonly options: Required<Omit<DeliveryJobOptions, 'random' | 'idleDelayMs' | 'budgets'>> & { random?: () => number };

  constructor(
    private readonly deps: DeliveryJobDeps,
    options: DeliveryJobOptions = {},
  ) {
    this.idleDelayMs = options.idleDelayMs ?? 1_000;
    this.budgets = { ...defaultDeliveryBudgets, ...options.budgets };
    this.options = {
      timeoutMs: options.timeoutMs ?? 30_000,
      leaseSeconds: options.leaseSeconds ?? 90,
      maxInFlight: options.maxInFlight ?? 256,
      random: options.random,
    };
    this.throttle = new StreamThrottle(maxInFlightBounds.max);
    this.results = new ResultBatcher((tries) => this.deps.store.recordTries(tries));
  }

  async runOnce(): Promise<number> {
    const free = this.options.maxInFlight - this.inFlight.size;
    if (free <= 0) return 0;
    const now = this.deps.clock.now();
    const claimToken = this.deps.newId();
    const { claimed, loading } = await this.deps.store.claimForSending({
      now: now.toISOString(),
      limit: free,
      leaseUntil: new Date(now.getTime() + this.options.leaseSeconds * 1000).toISOString(),
      claimToken,
      budgets: this.budgets,
      streamCap: (stream) => this.throttle.cap(stream),
      pausedStreams: this.throttle.paused(now.getTime()),
      answered: this.answered,
    });
    if (claimed.length === 0) return 0;
    // One read for the whole claim, which the sends wait for (while the next pass goes on, where
    // it is not part of the claim). Should it fail, each send fails (logged) and its claim is
    // taken over once its lease runs out.
    for (const delivery of claimed) {
      this.streamSends.set(delivery.stream, (this.streamSends.get(delivery.stream) ?? 0) + 1);
      const send: Promise<void> = loading
        .then((loaded) => this.deliver(delivery, claimToken, loaded.get(delivery.id)))
        .catch((error: unknown) => this.deps.logger?.error({ err: error, delivery: delivery.id }, 'webhook delivery failed unexpectedly'))
        .finally(() => {
          this.inFlight.delete(send);
          const left = (this.streamSends.get(delivery.stream) ?? 1) - 1;
          if (left > 0) this.streamSends.set(delivery.stream, left);
          else this.streamSends.delete(delivery.stream);
          this.slotFreed();
        });
      this.inFlight.add(send);
    }
    return claimed.length;
  }

  /**
   * Sends finishing one by one would each start a claim pass for one slot; the wake-up waits a
   * moment so that the sends finishing meanwhile free their slots for the same pass.
   */
  private slotFreed(): void {
    if (this.slotWake !== undefined || !this.deps.onSlotFree) return;
    this.slotWake = setTimeout(() => {
      this.slotWake = undefined;
      this.deps.onSlotFree?.();
    }, SLOT_WAKE_DELAY_MS);
  }

  /** Waits for every send started so far and its recorded result (tests use it after `runOnce`). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.results.flushed();
  }

  /**
   * Waits up to `graceMs` for the sends in flight; a receiver still silent then has its try ended
   * (recorded as failed, retried on the usual schedule by whichever process runs next), so a hung
   * receiver cannot hold a shutdown for the whole send deadline.
   */
  async stop(graceMs = this.options.timeoutMs): Promise<void> {
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs)));
    await Promise.race([this.drain(), graceOver]);
    clearTimeout(graceTimer);
    if (this.inFlight.size > 0) this.deps.logger?.warn({ sends: this.inFlight.size }, 'shutdown: ending webhook sends still waiting for an answer');
    this.stopping.abort();
    await this.drain();
    clearTimeout(this.slotWake);
    await this.deps.closeSenders?.();
  }

  private async deliver(delivery: WebhookDelivery, claimToken: string, loaded: SendingContext | undefined): Promise<void> {
    const startedAt = this.deps.clock.now();
    const attemptNumber = delivery.attempts + 1;
    const record = (answer: WebhookAnswer, update: DeliveryUpdate, disableEndpoint?: { reason: string }) =>
      this.results.add({
        delivery,
        claimToken,
        attempt: {
          id: this.deps.newId(),
          deliveryId: delivery.id,
          attemptNumber,
          attemptedAt: startedAt.toISOString(),
          statusCode: answer.statusCode ?? null,
          durationMs: Math.round(answer.durationMs),
          responseExcerpt: answer.bodyExcerpt ?? null,
          error: answer.error ?? null,
        },
        update,
        ...(disableEndpoint ? { disableEndpoint } : {}),
      });
    // Decided by `destination`, which never changes: a deleted endpoint's delivery must not turn
    // into a callback delivery signed with the merchant's callback secret.
    const toEndpoint = delivery.destination !== CALLBACK_DESTINATION;
    const endpointGone = toEndpoint && (!loaded?.endpoint || !loaded.endpoint.enabled);
    if (!loaded || endpointGone) {
      const error = !loaded ? 'event no longer exists' : 'endpoint deleted or disabled';
      if (
        await record(
          { outcome: 'failed', durationMs: 0, error },
          { status: 'cancelled', nextAttemptAt: startedAt.toISOString(), lastStatusCode: null, lastError: error, succeededAt: null },
        )
      )
        this.deps.onTryRecorded?.('cancelled');
      return;
    }

    const secrets = toEndpoint ? signingSecrets(loaded.endpoint!, startedAt) : [await this.deps.webhooks.callbackSecret(delivery)];
    const { body, headers } = this.deps.render(loaded.event, delivery.apiVersion, { publicUrl: this.deps.publicUrl, secrets, now: startedAt });
    const answer = await this.deps
      .senderFor(delivery.environment)
      .send({ url: delivery.targetUrl, body, headers, timeoutMs: this.options.timeoutMs, signal: this.stopping.signal });

    const finishedAt = this.deps.clock.now();
    // The receiver is done with this request: its slot is free for the next claim while the result
    // is written (the write takes a commit, shared with other results).
    this.answered.add(delivery.id);
    this.slotFreed();
    this.throttle.observe(delivery.stream, answer, this.streamSends.get(delivery.stream) ?? 1, finishedAt.getTime());
    const decision = decideAfterTry(answer, attemptNumber, finishedAt, this.options.random);
    const lastError = answer.error ?? (decision.status === 'succeeded' ? null : `HTTP ${answer.statusCode}`);
    const update: DeliveryUpdate = {
      status: decision.status,
      nextAttemptAt: decision.status === 'retrying' ? decision.nextAttemptAt.toISOString() : finishedAt.toISOString(),
      lastStatusCode: answer.statusCode ?? null,
      lastError,
      succeededAt: decision.status === 'succeeded' ? finishedAt.toISOString() : null,
    };
    const disable = decision.status === 'cancelled' ? { reason: `${delivery.targetUrl} answered 410 Gone` } : undefined;
    const recorded = await record(answer, update, disable).finally(() => this.answered.delete(delivery.id));
    if (recorded) this.deps.onTryRecorded?.(update.status);
    else this.deps.logger?.warn({ delivery: delivery.id }, 'delivery claim was taken over before the result was recorded');
  }
}
