import type { FastifyReply } from 'fastify';
import type { AkweError } from '../../core/errors/index.js';

/** The header a read with `sync=true` carries when the operator could not be asked. */
export const SYNC_HEADER = 'akwe-sync';

/**
 * A read with `sync=true` whose operator could not be asked (down, its breaker open, a call of the
 * resource in flight) answers the resource as stored, 200, and says so in `Akwe-Sync`: a read
 * never answers an error that reads like a failed write (docs/operators.md "Faults").
 */
export function syncHint(reply: FastifyReply): { onOperatorNotAsked: (reason: AkweError) => void } {
  return { onOperatorNotAsked: (reason) => void reply.header(SYNC_HEADER, `not-asked; reason=${reason.code}`) };
}
