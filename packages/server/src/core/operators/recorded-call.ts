import { AkweError } from '../errors/index.js';
import type { Clock } from '../ports.js';

/** The boundaries between recorded phases, where a test may simulate a crash. */
export type PhaseBoundary = 'after_intent' | 'after_operator_call' | 'after_outcome';

/** Test-only hook called at each phase boundary (never reachable from HTTP). */
export interface PhaseFaults {
  reached(boundary: PhaseBoundary, resourceId: string): void | Promise<void>;
}

export const DEFAULT_LEASE_SECONDS = 60;

export interface RecordedCallsOptions {
  clock: Clock;
  /** How long the run that started an operator call is presumed alive (seconds); 60 by default. */
  leaseSeconds?: number;
  faults?: PhaseFaults;
}

/**
 * What every operator call made in recorded phases shares (payments, refunds, payouts; see
 * docs/architecture.md "Recorded phases"): the intent is committed before the call, the call is
 * made outside any transaction, the outcome is committed after it. The run that made the call
 * holds it for a lease; a call left open past its lease was abandoned, and whoever resumes it asks
 * the operator about our reference before sending anything again.
 */
export class RecordedCalls {
  /** How long a run that started a call is presumed alive (ms). */
  readonly leaseMs: number;

  constructor(private readonly options: RecordedCallsOptions) {
    this.leaseMs = (options.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
  }

  /** Phase 2 of a call whose intent has committed: its boundaries, and the call between them. */
  async afterIntent<T>(resourceId: string, call: () => Promise<T>): Promise<T> {
    await this.reached('after_intent', resourceId);
    const answer = await call();
    await this.reached('after_operator_call', resourceId);
    return answer;
  }

  /**
   * Runs an operator call; a failure without an answer leaves the outcome unknown (502
   * operator_outcome_unknown: the recovery point stays). `onOutcomeUnknown` runs first, so a
   * caller can end its lease at once and let the retry (or the worker) resume the call now.
   */
  async call<T>(work: () => Promise<T>, onOutcomeUnknown?: (error: unknown) => Promise<void>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const failure = error instanceof AkweError ? error : new AkweError('operator_outcome_unknown');
      if (failure.code === 'operator_outcome_unknown') await onOutcomeUnknown?.(error);
      throw failure;
    }
  }

  /**
   * A call being resumed: the operator is asked about our reference first, and the call is made
   * only when the operator never heard of it (so a resumed call is never made twice).
   */
  async askFirst<T>(ask: () => Promise<T | undefined>, send: () => Promise<T>): Promise<T> {
    return (await ask()) ?? (await send());
  }

  /** The instant (ISO-8601) before which a call's lease has ended: older open calls were abandoned. */
  abandonedBefore(): string {
    return new Date(this.options.clock.now().getTime() - this.leaseMs).toISOString();
  }

  /** What is left of a lease taken at `leasedAt` (ISO-8601): negative once it has ended. */
  leaseLeftMs(leasedAt: string): number {
    return Date.parse(leasedAt) + this.leaseMs - this.options.clock.now().getTime();
  }

  leaseEnded(leasedAt: string | null): boolean {
    return leasedAt !== null && this.leaseLeftMs(leasedAt) <= 0;
  }

  /**
   * When a send begun at `sentAt` (ISO-8601) may be sent again if its operator does not know it: two
   * leases later. Until then it may still arrive (held by a proxy, queued at the operator), so "not
   * known" is not yet "never sent" (docs/operators.md "Faults"). Epoch milliseconds.
   */
  resendAllowedAt(sentAt: string): number {
    return Date.parse(sentAt) + 2 * this.leaseMs;
  }

  /** Past half its lease, a run about to call renews it first, or another run could take the call over. */
  needsRenewal(leasedAt: string): boolean {
    return this.options.clock.now().getTime() - Date.parse(leasedAt) >= this.leaseMs / 2;
  }

  /** 409 operator_call_in_progress, with the wait until the lease taken at `leasedAt` ends. */
  callInProgress(leasedAt: string, message?: string): AkweError {
    return new AkweError('operator_call_in_progress', message, { retryAfterSeconds: Math.max(1, this.leaseLeftMs(leasedAt) / 1000) });
  }

  /** Refuses to take over a call whose lease, taken at `leasedAt`, still runs: someone is making it. */
  refuseWhileLeased(leasedAt: string, message?: string): void {
    if (this.leaseLeftMs(leasedAt) > 0) throw this.callInProgress(leasedAt, message);
  }

  /**
   * Resumes abandoned calls one after another, as `resumes` yields them. Returns how many it
   * settled; when none could be, the first failure is thrown (after the others were tried).
   */
  async recoverEach(resumes: AsyncIterable<() => Promise<unknown>>): Promise<number> {
    let settled = 0;
    let firstError: { error: unknown } | undefined;
    for await (const resume of resumes) {
      try {
        await resume();
        settled += 1;
      } catch (error) {
        firstError ??= { error };
      }
    }
    if (firstError && settled === 0) throw firstError.error;
    return settled;
  }

  async reached(boundary: PhaseBoundary, resourceId: string): Promise<void> {
    await this.options.faults?.reached(boundary, resourceId);
  }
}
