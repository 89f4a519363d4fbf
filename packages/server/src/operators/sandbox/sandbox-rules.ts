import type { FailureCode } from '../../core/shared/failure-codes.js';

/**
 * The sandbox's scripted outcomes (docs/decisions.md, sandbox), first match wins:
 * OTP operators wait for a code; then reference keywords (any letter case) FAIL, CANCEL, PENDING;
 * then phone suffixes 0001 failed, 0002 pending, 0003 cancelled, 0000 completed; otherwise completed.
 */
export type ScriptedOutcome = 'completed' | 'failed' | 'pending' | 'cancelled';

const keywords: [string, ScriptedOutcome][] = [
  ['FAIL', 'failed'],
  ['CANCEL', 'cancelled'],
  ['PENDING', 'pending'],
];

const suffixes: [string, ScriptedOutcome][] = [
  ['0001', 'failed'],
  ['0002', 'pending'],
  ['0003', 'cancelled'],
  ['0000', 'completed'],
];

export function scriptedOutcome(reference: string, phone: string | null): ScriptedOutcome {
  const upper = reference.toUpperCase();
  for (const [keyword, outcome] of keywords) if (upper.includes(keyword)) return outcome;
  if (phone) for (const [suffix, outcome] of suffixes) if (phone.endsWith(suffix)) return outcome;
  return 'completed';
}

/** Sandbox OTP codes: 123456 completes, 000000 fails, 111111 leaves the payment pending. */
export const sandboxOtpOutcomes: Readonly<Record<string, 'completed' | 'failed' | 'pending'>> = {
  '123456': 'completed',
  '000000': 'failed',
  '111111': 'pending',
};

/**
 * Failure codes an operator can give, chosen in the sandbox by `FAIL_<CODE>` in the reference
 * (any letter case, e.g. `order-7-fail_insufficient_funds`). The reference still contains FAIL,
 * so the outcome stays `failed` as the rules above say; only the code becomes precise.
 */
export const sandboxFailureCodes: readonly FailureCode[] = [
  'payer_not_found',
  'insufficient_funds',
  'payer_declined',
  'payer_limit_reached',
  'operator_declined',
  'timeout',
  'operator_unavailable',
];

export function scriptedFailureCode(reference: string): FailureCode | undefined {
  const upper = reference.toUpperCase();
  return sandboxFailureCodes.find((code) => upper.includes(`FAIL_${code.toUpperCase()}`));
}
