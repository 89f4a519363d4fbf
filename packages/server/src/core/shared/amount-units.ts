/**
 * Amount errors say the unit and give the conversion, so a 100× mistake shows in the message: the
 * current collect contract (and its refunds) speaks major units (FCFA), payouts, bulk lines and the
 * earlier collect contract speak centimes. The core holds centimes and names the bound; the edge
 * picks the unit of its contract.
 */
import { MINOR_PER_MAJOR, toMajorUnitsCeil, toMajorUnitsFloor } from './money.js';

export type AmountUnit = 'major' | 'minor';

/** A minimum or maximum an amount broke, in centimes. */
export interface AmountBound {
  bound: 'minimum' | 'maximum';
  limitMinor: number;
  /** What the bound is of: "payout", "payment", "payout through mtn_bj". */
  subject: string;
  /** The amount that broke it, in centimes. */
  sentMinor: number;
}

/** Appended to schema complaints about an amount. */
export function amountUnitHint(unit: AmountUnit): string {
  return unit === 'minor' ? 'amount is in centimes: 100 FCFA is 10000' : 'amount is in major units (FCFA): 3000 is 3 000 FCFA; centimes are not used in this contract';
}

function fcfa(minor: number): string {
  return `${minor / MINOR_PER_MAJOR} FCFA`;
}

/** "amount is in centimes: 100 FCFA is 10000; the minimum payout is 10000 centimes (100 FCFA)." */
export function amountBoundMessage({ bound, limitMinor, subject, sentMinor }: AmountBound, unit: AmountUnit): string {
  const sent = unit === 'major' ? sentMinor / MINOR_PER_MAJOR : sentMinor;
  if (unit === 'major') {
    // Neither bound shown in major units may promise more than the real one allows.
    const limitMajor = bound === 'minimum' ? toMajorUnitsCeil(limitMinor) : toMajorUnitsFloor(limitMinor);
    return `amount is in major units (FCFA): the ${bound} ${subject} is ${limitMajor} (${limitMajor} FCFA); got ${sent}; centimes are not used in this contract.`;
  }
  const conversion = bound === 'minimum' ? `${sent} FCFA is ${sent * MINOR_PER_MAJOR}` : '100 FCFA is 10000';
  return `amount is in centimes: ${conversion}; the ${bound} ${subject} is ${limitMinor} centimes (${fcfa(limitMinor)}); got ${sent} (${fcfa(sent)}).`;
}
