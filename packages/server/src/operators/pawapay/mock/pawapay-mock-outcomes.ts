/**
 * How the mock decides, as pawaPay's sandbox does with its test numbers (its "Sandbox test numbers"
 * page, per provider). pawaPay's numbers for one country differ only in their last three digits,
 * and those endings mean the same across the countries Akwe serves (e.g. Benin MTN 22951345029,
 * Côte d'Ivoire 2250503456029: PAYER_NOT_FOUND). The mock reads the ending, so any valid number of
 * Benin, Togo or Côte d'Ivoire can play each outcome (Benin's numbers now have ten digits).
 */
export interface MockOutcome {
  /** The final status, or PROCESSING for good (pawaPay's "SUBMITTED, no callback"). */
  status: 'COMPLETED' | 'FAILED' | 'PROCESSING';
  failureCode?: string;
}

export const depositOutcomesByEnding: Readonly<Record<string, MockOutcome>> = {
  '019': { status: 'FAILED', failureCode: 'PAYER_LIMIT_REACHED' },
  '029': { status: 'FAILED', failureCode: 'PAYER_NOT_FOUND' },
  '039': { status: 'FAILED', failureCode: 'PAYMENT_NOT_APPROVED' },
  '049': { status: 'FAILED', failureCode: 'INSUFFICIENT_BALANCE' },
  '069': { status: 'FAILED', failureCode: 'UNSPECIFIED_FAILURE' },
  '129': { status: 'PROCESSING' },
  '789': { status: 'COMPLETED' },
};

export const payoutOutcomesByEnding: Readonly<Record<string, MockOutcome>> = {
  '089': { status: 'FAILED', failureCode: 'RECIPIENT_NOT_FOUND' },
  '119': { status: 'FAILED', failureCode: 'UNSPECIFIED_FAILURE' },
  '129': { status: 'PROCESSING' },
  '789': { status: 'COMPLETED' },
};

/** The pre-authorisation code the mock refuses (the deposit fails PAYMENT_NOT_APPROVED); any other is taken. */
export const REFUSED_PREAUTHORISATION_CODE = '000000';

export function depositOutcome(phoneNumber: string): MockOutcome {
  return depositOutcomesByEnding[phoneNumber.slice(-3)] ?? { status: 'COMPLETED' };
}

export function payoutOutcome(phoneNumber: string): MockOutcome {
  return payoutOutcomesByEnding[phoneNumber.slice(-3)] ?? { status: 'COMPLETED' };
}
