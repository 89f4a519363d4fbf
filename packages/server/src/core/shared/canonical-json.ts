/**
 * Canonical JSON: one serialisation for every place that needs the same bytes for the same data
 * whatever the key order (idempotency fingerprints, earlier-contract webhook bodies and signatures).
 */
/**
 * JSON text with the keys of every object sorted (by UTF-16 code units, as `Array.prototype.sort`),
 * no whitespace, and JSON.stringify's own rules otherwise: `toJSON` is honoured, members whose value
 * is undefined, a function or a symbol are left out (and become null inside arrays), non-finite
 * numbers become null. `undefined` at the top (no body) gives the empty string.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, new Set()) ?? '';
}

function serialize(value: unknown, ancestors: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError('canonical JSON: a BigInt has no JSON form');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  const object = value as object;
  if (ancestors.has(object)) throw new TypeError('canonical JSON: circular structure');
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      return `[${object.map((item: unknown) => serialize(item, ancestors) ?? 'null').join(',')}]`;
    }
    const record = object as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = serialize(record[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(object);
  }
}
