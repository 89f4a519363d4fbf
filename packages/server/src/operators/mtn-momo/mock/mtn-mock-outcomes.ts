/**
 * How the mock decides, as MTN's own sandbox does with its test numbers (46733123450 fails,
 * …451 is rejected, …452 times out, …453 and …454 stay pending): here the payer's (or payee's)
 * number ending decides, so any valid Benin or Côte d'Ivoire number can be used.
 */
export interface MockOutcome {
  /** The final status, or PENDING for good. */
  status: 'SUCCESSFUL' | 'FAILED' | 'PENDING';
  reason?: string;
}

export const mockOutcomesByEnding: Readonly<Record<string, MockOutcome>> = {
  '450': { status: 'FAILED', reason: 'PAYER_NOT_FOUND' },
  '451': { status: 'FAILED', reason: 'APPROVAL_REJECTED' },
  '452': { status: 'FAILED', reason: 'EXPIRED' },
  '453': { status: 'PENDING' },
  '454': { status: 'PENDING' },
  '455': { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' },
};

export function mockOutcome(partyId: string, kind: 'requesttopay' | 'transfer'): MockOutcome {
  const outcome = mockOutcomesByEnding[partyId.slice(-3)] ?? { status: 'SUCCESSFUL' };
  // A transfer names a payee: MTN's reason then speaks of the payee.
  if (kind === 'transfer' && outcome.reason === 'PAYER_NOT_FOUND') return { ...outcome, reason: 'PAYEE_NOT_FOUND' };
  return outcome;
}
