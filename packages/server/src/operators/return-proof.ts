import { createHmac } from 'node:crypto';
import { sameText } from '../core/shared/constant-time.js';

/**
 * The proof a customer-return URL carries (docs/operators.md "Customer returns"). Those routes
 * answer with the payment's checkout page, whose address is the checkout token: a secret. So the
 * return URL an operator's session was given carries a proof of its payment, and without it nobody
 * who merely knows a payment id is led to that payment's checkout page.
 *
 * HMAC-SHA256 of the family and payment id under the server's secret (base64url): stateless (nothing
 * stored with the payment), and a proof of one payment or one family is worth nothing for another.
 */
export function returnProof(serverSecret: string, family: string, paymentId: string): string {
  return createHmac('sha256', serverSecret).update(`akwe-${family}-return\0${paymentId.toLowerCase()}`).digest('base64url');
}

/** Whether a presented proof is the payment's, compared in constant time. */
export function returnProofMatches(serverSecret: string, family: string, paymentId: string, presented: string): boolean {
  return sameText(presented, returnProof(serverSecret, family, paymentId));
}
