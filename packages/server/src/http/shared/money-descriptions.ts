/**
 * How every money field states its unit in the API reference, in one wording: collect's current
 * contract speaks major units (whole FCFA), everything else centimes, and a 100x mix-up passes
 * silently unless the reference says which at each field.
 */
export function inCentimes(text = ''): string {
  return `Centimes (10000 = 100 FCFA).${text ? ` ${text}` : ''}`;
}

export function inMajorUnits(text = ''): string {
  return `Major units, whole FCFA (3000 = 3 000 FCFA, which is 300000 centimes).${text ? ` ${text}` : ''}`;
}
