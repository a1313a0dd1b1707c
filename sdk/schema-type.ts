/**
 * `Type`: the TypeBox builders the SDK's typed schemas use, building the same JSON Schema
 * objects TypeBox builds (same keys in the same order, the same hidden `~kind`,
 * `~optional` and `~unsafe` markers) and typed by TypeBox's own signatures, so
 * `defineRoute`, `defineHandler` and `defineChatTool` type their handlers from them
 * exactly as from TypeBox's `Type`.
 *
 * Why not TypeBox's own at run time: `import { Type } from 'typebox'` loads 373 ES modules
 * (TypeBox 1.x's type engine), about 200 ms of a host's start on this machine, a seventh
 * of `flowhost serve` to its first answer, for ten small functions that each return an
 * object. TypeBox stays what types them (type-only imports cost nothing at run time), and
 * a plugin may still build its schemas with TypeBox itself: the host takes either.
 * test/sdk/schema-type.test.ts checks each builder against TypeBox's output.
 */
import type { Type as TypeBox } from 'typebox';

type Builders = typeof TypeBox;
type Schema = Record<string, unknown>;

/** TypeBox's markers are non-enumerable: absent from JSON, present to `'~kind' in schema`. */
function mark<T extends Schema>(schema: T, marker: '~kind' | '~optional' | '~unsafe', value: string | boolean | null): T {
  return Object.defineProperty(schema, marker, { value, writable: true, enumerable: false, configurable: true });
}

/** A shallow copy that keeps the hidden markers (a spread drops non-enumerable keys). */
function copy(schema: Schema): Schema {
  const out: Schema = { ...schema };
  for (const marker of ['~kind', '~optional', '~unsafe'] as const) {
    if (Object.hasOwn(schema, marker)) mark(out, marker, schema[marker] as string | boolean | null);
  }
  return out;
}

const kinded = (kind: string, schema: Schema) => mark(schema, '~kind', kind);

const builders = {
  String: (options: Schema = {}) => kinded('String', { type: 'string', ...options }),
  Integer: (options: Schema = {}) => kinded('Integer', { type: 'integer', ...options }),
  Boolean: (options: Schema = {}) => kinded('Boolean', { type: 'boolean', ...options }),
  Unknown: (options: Schema = {}) => kinded('Unknown', { ...options }),
  Array: (items: Schema, options: Schema = {}) => kinded('Array', { type: 'array', items, ...options }),
  Enum: (values: unknown[], options: Schema = {}) => kinded('Enum', { enum: [...values], ...options }),
  Record: (key: Schema, value: Schema, options: Schema = {}) => {
    // TypeBox turns other key types into other patterns; only string keys are built here.
    if (key['~kind'] !== 'String' || Object.keys(key).length !== 1)
      throw new TypeError("The SDK's Type.Record takes Type.String() keys only; use TypeBox's own Type for other keys");
    return kinded('Record', { type: 'object', patternProperties: { '^.*$': value }, ...options });
  },
  Object: (properties: Record<string, Schema>, options: Schema = {}) => {
    const required = Object.keys(properties).filter((name) => properties[name]!['~optional'] !== true);
    return kinded('Object', { type: 'object', ...(required.length ? { required } : {}), properties, ...options });
  },
  Optional: (schema: Schema) => mark(copy(schema), '~optional', true),
  Unsafe: (schema: Schema) => mark(copy(schema), '~unsafe', null),
};

/** The builders, each with TypeBox's signature (its generics and static types included). */
export const Type = builders as unknown as Pick<
  Builders,
  'String' | 'Integer' | 'Boolean' | 'Unknown' | 'Array' | 'Enum' | 'Record' | 'Object' | 'Optional' | 'Unsafe'
>;
