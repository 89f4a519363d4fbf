/**
 * How the FedaPay mock decides, by the last three digits of the customer's (or recipient's)
 * number, as FedaPay's sandbox decides by its test numbers. Any valid number of the operator's
 * country can be used; the endings are the same for every mode.
 *
 * | ending | transaction (collect)                                   | payout                                   |
 * | ------ | ------------------------------------------------------- | ---------------------------------------- |
 * | 450    | declined, `invalid_phone_number` (payer_not_found)      | failed, `account_not_found`              |
 * | 451    | canceled by the customer (payer_declined)               | failed, `rejected` (operator_declined)   |
 * | 452    | declined, `timeout` (timeout)                           | failed, `timeout`                        |
 * | 453    | stays pending (settle it through /_mock)                | stays started                            |
 * | 455    | declined, `insufficient_funds` (insufficient_funds)     | failed, `insufficient_balance`           |
 * | other  | approved                                                | sent                                     |
 */
export type FedaPayMockDecision = { status: string; errorCode?: string; errorMessage?: string } | { stays: true };

const transactionOutcomes: Readonly<Record<string, FedaPayMockDecision>> = {
  '450': { status: 'declined', errorCode: 'invalid_phone_number', errorMessage: 'The number has no mobile money account.' },
  '451': { status: 'canceled', errorCode: 'rejected_by_customer', errorMessage: 'The customer refused the payment.' },
  '452': { status: 'declined', errorCode: 'timeout', errorMessage: 'The customer did not answer in time.' },
  '453': { stays: true },
  '455': { status: 'declined', errorCode: 'insufficient_funds', errorMessage: 'The wallet does not hold enough money.' },
};

const payoutOutcomes: Readonly<Record<string, FedaPayMockDecision>> = {
  '450': { status: 'failed', errorCode: 'account_not_found', errorMessage: 'The recipient has no mobile money account.' },
  '451': { status: 'failed', errorCode: 'rejected', errorMessage: 'The operator rejected the payout.' },
  '452': { status: 'failed', errorCode: 'timeout', errorMessage: 'The operator did not answer in time.' },
  '453': { stays: true },
  '455': { status: 'failed', errorCode: 'insufficient_balance', errorMessage: 'The account balance is too low for this payout.' },
};

export function transactionOutcome(phone: string): FedaPayMockDecision {
  return transactionOutcomes[phone.slice(-3)] ?? { status: 'approved' };
}

export function payoutOutcome(phone: string): FedaPayMockDecision {
  return payoutOutcomes[phone.slice(-3)] ?? { status: 'sent' };
}

/** The payment modes the mock takes (FedaPay's no-redirect modes of Bénin and Togo). */
export const mockModes = ['mtn_open', 'moov', 'sbin', 'togocel', 'moov_tg'] as const;
