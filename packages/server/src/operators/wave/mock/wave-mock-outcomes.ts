/**
 * How the mock decides a payout, by the recipient's number ending (any valid number can be used,
 * as with the MTN mock). Wave publishes no sandbox numbers; the codes are the ones its payout docs
 * list.
 *
 * | ending | what happens                                                                        |
 * | ------ | ----------------------------------------------------------------------------------- |
 * | 450    | accepted (processing), then failed `recipient-account-inactive` (payer_not_found)  |
 * | 451    | accepted, then failed `recipient-account-blocked` (operator_declined)               |
 * | 452    | accepted, then failed `recipient-limit-exceeded` (payer_limit_reached)              |
 * | 453    | accepted, stays processing for good (settle it through /_mock)                      |
 * | 455    | refused at once: 422 `insufficient-funds` (our wallet is short); nothing is created |
 * | other  | accepted, then succeeded                                                            |
 *
 * "Then" is after the mock's `decisionDelayMs`; with 0 the POST already answers the final status.
 */
export type WavePayoutOutcome =
  | { kind: 'decide'; status: 'succeeded' }
  | { kind: 'decide'; status: 'failed'; errorCode: string; errorMessage: string }
  | { kind: 'pending' }
  | { kind: 'refuse'; httpStatus: number; code: string; message: string };

export const payoutOutcomesByEnding: Readonly<Record<string, WavePayoutOutcome>> = {
  '450': { kind: 'decide', status: 'failed', errorCode: 'recipient-account-inactive', errorMessage: 'The recipient has no active Wave account.' },
  '451': { kind: 'decide', status: 'failed', errorCode: 'recipient-account-blocked', errorMessage: 'The recipient account is blocked.' },
  '452': { kind: 'decide', status: 'failed', errorCode: 'recipient-limit-exceeded', errorMessage: 'The recipient reached their monthly limit.' },
  '453': { kind: 'pending' },
  '455': { kind: 'refuse', httpStatus: 422, code: 'insufficient-funds', message: 'Your wallet does not hold the amount plus fees.' },
};

export function payoutOutcome(mobile: string): WavePayoutOutcome {
  return payoutOutcomesByEnding[mobile.slice(-3)] ?? { kind: 'decide', status: 'succeeded' };
}

/** What the customer does on the mock's pay page (form field `outcome`). */
export const customerOutcomes = ['succeeded', 'failed', 'cancelled'] as const;
export type CustomerOutcome = (typeof customerOutcomes)[number];

/** The reason a failed attempt gives when the form names none (field `error_code`). */
export const DEFAULT_PAYMENT_ERROR = { code: 'insufficient-funds', message: 'The customer does not have enough money in their Wave wallet.' } as const;
