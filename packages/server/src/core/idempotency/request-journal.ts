/**
 * A request's journal: how a core operation records its phases in the request's idempotency claim
 * (docs/architecture.md "Recorded phases"). The operation asks it for the claim write of each
 * phase and passes that write to the store, which makes it in the phase's own transaction; after
 * the commit the operation reports it back (`committed`). A request without an Idempotency-Key has
 * no journal: its phases write the same resources, with no claim beside them.
 */
import { AkweError } from '../errors/index.js';
import type { ClaimWrite, IdempotencyClaim, RecoveryPoint, StoredResponse } from './idempotency-store.js';

/** Another request holds the key: thrown inside a phase's transaction, which then rolls back. */
export class IdempotencyClaimLost extends AkweError {
  constructor() {
    super('idempotency_request_in_progress', undefined, { retryAfterSeconds: 1 });
  }
}

/** What an earlier, interrupted run of this request recorded before its lease ran out. */
export interface ResumedRequest {
  recoveryPoint: RecoveryPoint;
  resourceId: string | null;
}

export class RequestJournal {
  private claimed: boolean;
  private finished = false;

  /**
   * @param claim the key, fingerprint, lease token and times of this run's claim
   * @param resumed set when this run took over a claim whose holder is gone
   * @param claimed whether the record exists already with this run's lease token (a takeover)
   */
  constructor(
    readonly claim: IdempotencyClaim,
    readonly resumed: ResumedRequest | undefined,
    claimed: boolean,
  ) {
    this.claimed = claimed;
  }

  /** The record holds this run's lease token in the database. */
  get isClaimed(): boolean {
    return this.claimed;
  }

  /** The response is stored: nothing is left to record. */
  get isFinished(): boolean {
    return this.finished;
  }

  /** The write that records "operator call started" for `resourceId` (claiming the key if needed). */
  step(resourceId: string): ClaimWrite {
    return this.write('operator_call_started', resourceId, null);
  }

  /** The write that stores the response and completes the claim. */
  finish(resourceId: string | null, response: StoredResponse): ClaimWrite {
    return this.write('finished', resourceId, response);
  }

  /** Reports that the transaction holding `write` committed. */
  committed(write: ClaimWrite): void {
    this.claimed = true;
    if (write.response) this.finished = true;
  }

  private write(recoveryPoint: RecoveryPoint, resourceId: string | null, response: StoredResponse | null): ClaimWrite {
    if (this.finished) throw new Error('the request journal is finished already');
    return { claim: this.claim, insert: !this.claimed, recoveryPoint, resourceId, response };
  }
}

/** What a core operation is told of the request it serves: its journal and how its result is answered. */
export interface RecordedRequest<T> {
  journal?: RequestJournal;
  /** The response the caller will send for this result; stored with the phase that produces it. */
  render?: (result: T) => StoredResponse;
}

/** The claim write of a phase that starts an operator call for `resourceId`, if the request has a journal. */
export function stepWrite<T>(request: RecordedRequest<T>, resourceId: string): ClaimWrite | undefined {
  return request.journal?.step(resourceId);
}

/** The claim write of the phase that produces `result`, with its rendered response, if the request has a journal. */
export function finishWrite<T>(request: RecordedRequest<T>, resourceId: string | null, result: T): ClaimWrite | undefined {
  if (!request.journal) return undefined;
  if (!request.render) throw new Error('a recorded request needs a render function');
  return request.journal.finish(resourceId, request.render(result));
}

export function reportCommitted<T>(request: RecordedRequest<T>, write: ClaimWrite | undefined): void {
  if (write) request.journal?.committed(write);
}
