import { looksLikeId } from '../../core/shared/ids.js';
import { PawapayProtocolError, parseTransaction } from './pawapay-responses.js';

/** The callback URLs registered in pawaPay's Dashboard: `<PUBLIC_URL>/api/v1/operators/pawapay/callbacks/<kind>`. */
export const pawapayCallbackKinds = ['deposits', 'payouts', 'refunds'] as const;
export type PawapayCallbackKind = (typeof pawapayCallbackKinds)[number];

const resourceOf = { deposits: 'payment', payouts: 'payout', refunds: 'refund' } as const;
const idFieldOf = { deposits: 'depositId', payouts: 'payoutId', refunds: 'refundId' } as const;

export type PawapayCallback = { resource: 'payment' | 'payout' | 'refund'; id: string } | { invalid: string };

/**
 * Reads a pawaPay callback body: a transaction of the kind its URL names, whose id is one of ours.
 * Nothing else in it is believed: it only says which resource to ask pawaPay about, and the status
 * check decides (a signature, when configured, is checked before this).
 */
export function readPawapayCallback(kind: string, body: unknown): PawapayCallback {
  if (!(pawapayCallbackKinds as readonly string[]).includes(kind)) return { invalid: `unknown callback kind ${kind}` };
  const callbackKind = kind as PawapayCallbackKind;
  try {
    parseTransaction(body);
  } catch (error) {
    if (error instanceof PawapayProtocolError) return { invalid: error.message };
    throw error;
  }
  const id = (body as Record<string, unknown>)[idFieldOf[callbackKind]];
  if (typeof id !== 'string' || !looksLikeId(id)) return { invalid: `the callback names no ${idFieldOf[callbackKind]} of ours` };
  return { resource: resourceOf[callbackKind], id: id.toLowerCase() };
}
