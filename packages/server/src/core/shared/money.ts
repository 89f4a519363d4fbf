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
