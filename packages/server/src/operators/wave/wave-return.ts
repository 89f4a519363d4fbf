import { returnProof } from '../return-proof.js';
import type { WaveSettings } from './wave-settings.js';

/**
 * Where Wave sends the customer back:
 * `<PUBLIC_URL>/api/v1/operators/wave/checkout-return/<payment id>/<success|error>/<proof>`.
 * The route answers with the payment's checkout page, whose address is the checkout token: a
 * secret. So the return URL carries a proof only the Wave session was given (docs/operators.md):
 * without it, anyone knowing a payment id could be led to that payment's checkout page.
 */
export const WAVE_RETURN_PATH = '/api/v1/operators/wave/checkout-return';

/** The pair of return URLs of a checkout session, under the public URL, each with the payment's proof. */
export function waveReturnUrls(publicUrl: string, serverSecret: () => string): Pick<WaveSettings, 'successUrlFor' | 'errorUrlFor'> {
  const base = `${publicUrl.replace(/\/+$/, '')}${WAVE_RETURN_PATH}`;
  const url = (paymentId: string, outcome: 'success' | 'error') => `${base}/${encodeURIComponent(paymentId)}/${outcome}/${returnProof(serverSecret(), 'wave', paymentId)}`;
  return { successUrlFor: (paymentId) => url(paymentId, 'success'), errorUrlFor: (paymentId) => url(paymentId, 'error') };
}
