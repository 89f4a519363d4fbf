import { timingSafeEqual } from 'node:crypto';

/** Two texts compared in constant time (a secret, a signature or token tag against the expected one). */
export function sameText(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}
