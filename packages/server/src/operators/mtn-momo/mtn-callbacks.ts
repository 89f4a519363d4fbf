import { looksLikeId } from '../../core/shared/ids.js';
import { MtnProtocolError, parseTransaction } from './mtn-responses.js';

/** The callback URLs the connector gives MTN: `<PUBLIC_URL>/api/v1/operators/mtn-momo/callbacks/<kind>/<our id>`. */
export const mtnCallbackKinds = ['requesttopay', 'transfer', 'refund'] as const;
export type MtnCallbackKind = (typeof mtnCallbackKinds)[number];

const resourceOf = { requesttopay: 'payment', transfer: 'payout', refund: 'refund' } as const;

export type MtnCallback = { resource: 'payment' | 'payout' | 'refund'; id: string } | { invalid: string };

/**
 * Reads an MTN callback. MTN does not sign its callbacks, so nothing in the body is believed: it
 * only has to be a status body, and it names which of our resources to ask MTN about (by the id
 * in the URL we gave it). The answer decides; the callback never changes a state by itself.
 */
export function readMtnCallback(kind: string, id: string, body: unknown): MtnCallback {
  if (!(mtnCallbackKinds as readonly string[]).includes(kind)) return { invalid: `unknown callback kind ${kind}` };
  if (!looksLikeId(id)) return { invalid: 'the callback URL names no id of ours' };
  try {
    parseTransaction(body);
  } catch (error) {
    if (error instanceof MtnProtocolError) return { invalid: error.message };
    throw error;
  }
  return { resource: resourceOf[kind as MtnCallbackKind], id: id.toLowerCase() };
}
