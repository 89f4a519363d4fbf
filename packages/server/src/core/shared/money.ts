/**
 * Money crosses the wire in two units: the current contract speaks major units (3000 = 3 000 FCFA),
 * the earlier contract and payouts speak centimes. Storage and the core always hold centimes.
 */
export const MINOR_PER_MAJOR = 100;

export function toMinorUnits(major: number): number {
  return major * MINOR_PER_MAJOR;
}

/** A stored amount shown in major units, rounded down (`amount_minor` beside it keeps it exact). */
export function toMajorUnitsFloor(minor: number): number {
  return Math.floor(minor / MINOR_PER_MAJOR);
}

/** A minimum shown in major units must not promise less than the real minimum. */
export function toMajorUnitsCeil(minor: number): number {
  return Math.ceil(minor / MINOR_PER_MAJOR);
}

/**
 * A major-unit amount as an operator writes it (`"1500"`, `"1500.5"`, `"-20.25"`, or the number
 * 1500) in centimes; undefined when it is not one (more than two decimals, text, empty).
 */
export function minorFromMajorText(value: unknown): number | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = /^(-?)(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  const minor = Number(whole) * MINOR_PER_MAJOR + Number(fraction.padEnd(2, '0'));
  return sign === '-' ? -minor : minor;
}
