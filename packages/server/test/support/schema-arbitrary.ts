/**
 * fast-check arbitraries from the JSON Schemas the routes declare (TypeBox emits plain JSON
 * Schema), so a property test can drive any route, a new one included, with values its schema
 * accepts or nearly accepts. Knows the keywords our schemas use (type, properties, required,
 * additionalProperties, items, anyOf/oneOf, const, enum, lengths, bounds, pattern, format);
 * anything else becomes any JSON value.
 *
 * `hint` lets a test offer realistic values for a property by name (a country the catalog knows,
 * a reference that exists), mixed in with the schema's own. `hostile`, when given, is mixed into
 * every value, and objects then sometimes lose a required property or gain an unknown one.
 */
import fc from 'fast-check';

type Schema = Record<string, unknown>;

export interface SchemaArbitraryOptions {
  /** Realistic values for a property name, or undefined. */
  hint?: (property: string) => fc.Arbitrary<unknown> | undefined;
  /** Mixed into every value, at about one in `hostileOneIn`. */
  hostile?: fc.Arbitrary<unknown>;
  hostileOneIn?: number;
}

const SAFE_MAX = Number.MAX_SAFE_INTEGER;

function bounded(schema: Schema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' ? value : undefined;
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const minLength = bounded(schema, 'minLength') ?? 0;
  const maxLength = Math.min(bounded(schema, 'maxLength') ?? 64, minLength + 64);
  switch (schema.format) {
    case 'uri':
      return fc.webUrl({ withQueryParameters: true, withFragments: true });
    case 'date-time':
      return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
  }
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (bounded(schema, 'maxLength') ?? Infinity));
  }
  return fc.string({ minLength, maxLength });
}

function numberFor(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = bounded(schema, 'minimum') ?? bounded(schema, 'exclusiveMinimum') ?? -SAFE_MAX;
  const max = bounded(schema, 'maximum') ?? bounded(schema, 'exclusiveMaximum') ?? SAFE_MAX;
  const edges = fc.constantFrom(min, max, Math.max(min, Math.min(max, 0)));
  const inRange = integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ arbitrary: inRange, weight: 4 }, { arbitrary: edges, weight: 1 });
}

function objectFor(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const own = arbitraryFromSchema(property, options);
    const hinted = options.hint?.(name);
    model[name] = hinted ? fc.oneof({ arbitrary: hinted, weight: 3 }, { arbitrary: own, weight: 1 }) : own;
  }
  const record = fc.record(model, { requiredKeys: required.filter((name) => name in model) });
  if (!options.hostile) return record;
  // Nearly valid: a required property missing, or an unknown one added.
  const extra = fc.dictionary(fc.oneof(fc.constantFrom('extra', '__proto__', 'constructor', ''), fc.string({ maxLength: 8 })), options.hostile, { maxKeys: 2 });
  const rarely = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) => fc.oneof({ arbitrary: fc.constant(null), weight: oneIn - 1 }, { arbitrary, weight: 1 });
  return fc.tuple(record, rarely(fc.constantFrom(...(required.length > 0 ? required : [''])), 6), rarely(extra, 4)).map(([value, dropped, added]) => {
    const result: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (dropped !== null) delete result[dropped];
    if (added !== null)
      for (const [key, member] of Object.entries(added)) Object.defineProperty(result, key, { value: member, enumerable: true, writable: true, configurable: true });
    return result;
  });
}

function ownArbitrary(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) return fc.oneof(...choices.map((choice) => arbitraryFromSchema(choice, options)));
  const type = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (type.length > 1) return fc.oneof(...type.map((one) => ownArbitrary({ ...schema, type: one }, options)));
  switch (type[0]) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items ?? {}) as Schema;
      const minLength = bounded(schema, 'minItems') ?? 0;
      return fc.array(arbitraryFromSchema(items, options), { minLength, maxLength: Math.min(bounded(schema, 'maxItems') ?? 5, minLength + 5) });
    }
    case 'object':
      return objectFor(schema, options);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values for `schema`: valid ones, and with `options.hostile` also nearly valid and hostile ones. */
export function arbitraryFromSchema(schema: unknown, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const own = schema !== null && typeof schema === 'object' ? ownArbitrary(schema as Schema, options) : fc.jsonValue({ maxDepth: 2 });
  if (!options.hostile) return own;
  return fc.oneof({ arbitrary: own, weight: (options.hostileOneIn ?? 8) - 1 }, { arbitrary: options.hostile, weight: 1 });
}
