// JSON Schema → fast-check arbitrary of values the schema (mostly) accepts. Covers what
// route schemas use: type (one or a list), const, enum, minimum/maximum (and exclusive),
// minLength/maxLength, pattern, simple formats, required, properties,
// additionalProperties, minProperties, items, minItems/maxItems, oneOf/anyOf/allOf.
// Values known to exist (fixture ids) can be mixed in by property name.
import fc from 'fast-check';
import type { JsonSchema } from '../../core/kernel/json-schema.js';

export interface SchemaArbitraryOptions {
  /** Values that exist on the host, by property name (`flow_id`, `pipeline_step_id`...). */
  known?: Readonly<Record<string, readonly unknown[]>>;
  /** Keys that exist, for maps keyed by id (`flow_config` is keyed by step id). */
  knownKeys?: readonly string[];
}

type Schema = JsonSchema;
const SAFE = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };
const OPEN_VALUE = fc.jsonValue({ maxDepth: 2 });

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  const lower = num(schema.minimum) ?? (exMin !== undefined ? exMin + 1 : undefined);
  const min = Math.max(SAFE.min, Math.ceil(lower ?? SAFE.min));
  const max = Math.min(SAFE.max, Math.floor(num(schema.maximum) ?? (exMax !== undefined ? exMax - 1 : SAFE.max)));
  if (min > max) return fc.constant(min);
  // Small values near the lower bound (ids 1, 2...) or near 0 are the interesting ones, then the bounds.
  const anchor = lower !== undefined ? min : Math.min(max, Math.max(min, 0));
  return fc.oneof(
    { arbitrary: fc.integer({ min: Math.max(min, anchor - (lower !== undefined ? 0 : 5)), max: Math.min(max, anchor + 5) }), weight: 4 },
    {
      arbitrary: fc.integer({ min: Math.max(min, -0x80000000), max: Math.max(Math.max(min, -0x80000000), Math.min(max, 0x7fffffff)) }),
      weight: 2,
    },
    { arbitrary: fc.integer({ min, max }), weight: 1 },
    { arbitrary: fc.constantFrom(min, max, Math.max(min, max - 1)), weight: 1 },
  );
}

function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = num(schema.minimum) ?? num(schema.exclusiveMinimum) ?? -Number.MAX_VALUE;
  const max = num(schema.maximum) ?? num(schema.exclusiveMaximum) ?? Number.MAX_VALUE;
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .filter((n) => !Object.is(n, -0) && n !== num(schema.exclusiveMinimum) && n !== num(schema.exclusiveMaximum));
}

function formatArbitrary(format: string): fc.Arbitrary<string> | undefined {
  const dates = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true });
  switch (format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return dates.map((d) => d.toISOString());
    case 'date':
      return dates.map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
    case 'uri-reference':
      return fc.webUrl();
    case 'hostname':
      return fc.domain();
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    default:
      return undefined;
  }
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.max(minLength, Math.min(num(schema.maxLength) ?? 40, minLength + 40));
  const fits = (s: string) => s.length >= minLength && s.length <= (num(schema.maxLength) ?? Infinity);
  const format = typeof schema.format === 'string' ? formatArbitrary(schema.format) : undefined;
  if (format) return format;
  if (typeof schema.pattern === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(schema.pattern);
    } catch {
      // not a JavaScript regex: plain strings below
    }
    if (pattern) {
      const re = pattern;
      const branches: fc.Arbitrary<string>[] = [fc.stringMatching(re).filter(fits)];
      // Random digits rarely make a real date: a pattern that accepts ISO dates gets real ones too.
      for (const iso of [
        (d: Date) => d.toISOString(),
        (d: Date) => d.toISOString().slice(0, 10),
        (d: Date) => d.toISOString().slice(0, 19).replace('T', ' '),
      ]) {
        if (re.test(iso(new Date(0))) && fits(iso(new Date(0)))) branches.push(formatArbitrary('date-time')!.map((s) => iso(new Date(s))));
      }
      return fc.oneof(...branches);
    }
  }
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 3 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 1 },
  );
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.required || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function objectArbitrary(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = [...new Set([...Object.keys(properties), ...required])];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) model[name] = propertyArbitrary(name, properties[name] ?? {}, options);
  let arbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: names.filter((n) => required.has(n)) });

  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    // A map (flow_config keyed by step id): known keys mixed with junk ones.
    const keys = options.knownKeys?.length
      ? fc.oneof(fc.constantFrom(...options.knownKeys), fc.string({ maxLength: 20 }))
      : fc.string({ maxLength: 20 });
    const map = fc.dictionary(keys, schemaArbitrary(extra as Schema, options), { maxKeys: 3 });
    arbitrary = fc.tuple(arbitrary, map).map(([fixed, more]) => ({ ...more, ...fixed }));
  } else if (names.length === 0 && extra !== false) {
    // An open object ({type: 'object'}): anything JSON.
    arbitrary = fc.dictionary(fc.string({ maxLength: 12 }), OPEN_VALUE, { maxKeys: 4 });
  }
  const minProperties = num(schema.minProperties) ?? 0;
  if (minProperties > 0 && names.length >= minProperties) arbitrary = arbitrary.filter((o) => Object.keys(o).length >= minProperties);
  return arbitrary;
}

function arrayArbitrary(schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown[]> {
  const items = schema.items && typeof schema.items === 'object' ? schemaArbitrary(schema.items as Schema, options) : OPEN_VALUE;
  const minLength = num(schema.minItems) ?? 0;
  const maxLength = Math.max(minLength, Math.min(num(schema.maxItems) ?? 4, minLength + 4));
  return fc.array(items, { minLength, maxLength });
}

function typedArbitrary(type: string, schema: Schema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'object':
      return objectArbitrary(schema, options);
    case 'array':
      return arrayArbitrary(schema, options);
    default:
      return OPEN_VALUE;
  }
}

/** Values for `schema`; valid for every keyword listed above. */
export function schemaArbitrary(schema: Schema, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length) {
      const { [key]: _omit, ...rest } = schema;
      return fc.oneof(...branches.map((b) => schemaArbitrary({ ...rest, ...(b as Schema) }, options)));
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    const { allOf, ...rest } = schema;
    const merged = (allOf as Schema[]).reduce<Schema>(
      (acc, part) => ({ ...acc, ...part, properties: { ...(acc.properties as object), ...(part.properties as object) } }),
      rest,
    );
    return schemaArbitrary(merged, options);
  }
  const types = typesOf(schema);
  if (types.length === 0) return OPEN_VALUE;
  if (types.length === 1) return typedArbitrary(types[0]!, schema, options);
  return fc.oneof(...types.map((type) => typedArbitrary(type, schema, options)));
}

/** A property's values: known ones (existing ids) first, then what its schema allows. */
export function propertyArbitrary(name: string, schema: Schema, options: SchemaArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const own = schemaArbitrary(schema, options);
  const known = options.known?.[name];
  if (!known?.length) return own;
  return fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 2 }, { arbitrary: own, weight: 1 });
}
