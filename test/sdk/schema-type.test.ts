// The SDK's Type builds what TypeBox's Type builds: the same JSON (keys in the same order,
// so openapi.json does not move), the same hidden markers, and a host that loads no TypeBox
// module at start.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Type as TypeBox } from 'typebox';
import { Type } from '../../sdk/schema-type.js';

const test = suite('sdk: Type, against TypeBox');

type Built = Record<string, unknown>;
const markers = (schema: Built) =>
  Object.fromEntries((['~kind', '~optional', '~unsafe'] as const).filter((m) => Object.hasOwn(schema, m)).map((m) => [m, schema[m]]));

function same(ours: unknown, theirs: unknown, what: string) {
  assert.is(JSON.stringify(ours), JSON.stringify(theirs), `${what}: the same JSON, key order included`);
  assert.equal(markers(ours as Built), markers(theirs as Built), `${what}: the same markers`);
  assert.equal(Object.keys(ours as Built), Object.keys(theirs as Built), `${what}: markers hidden from Object.keys`);
}

test('scalars, with and without options', () => {
  same(Type.String(), TypeBox.String(), 'String');
  same(
    Type.String({ minLength: 1, maxLength: 200, format: 'uri' }),
    TypeBox.String({ minLength: 1, maxLength: 200, format: 'uri' }),
    'String+',
  );
  same(Type.Integer({ minimum: 1, default: 10 }), TypeBox.Integer({ minimum: 1, default: 10 }), 'Integer');
  same(Type.Boolean({ default: false }), TypeBox.Boolean({ default: false }), 'Boolean');
  same(Type.Unknown(), TypeBox.Unknown(), 'Unknown');
  same(Type.Unknown({ description: 'any' }), TypeBox.Unknown({ description: 'any' }), 'Unknown+');
});

test('enums, arrays, records and unsafe schemas', () => {
  same(Type.Enum(['a', 'b']), TypeBox.Enum(['a', 'b']), 'Enum');
  same(
    Type.Enum(['publish', 'draft'], { type: 'string', default: 'publish' }),
    TypeBox.Enum(['publish', 'draft'], { type: 'string', default: 'publish' }),
    'Enum+',
  );
  same(Type.Array(Type.String(), { maxItems: 3 }), TypeBox.Array(TypeBox.String(), { maxItems: 3 }), 'Array');
  same(Type.Record(Type.String(), Type.Unknown()), TypeBox.Record(TypeBox.String(), TypeBox.Unknown()), 'Record');
  const raw = { type: 'array', minItems: 1, maxItems: 500 };
  same(Type.Unsafe<unknown[]>({ ...raw }), TypeBox.Unsafe<unknown[]>({ ...raw }), 'Unsafe');
  assert.throws(() => Type.Record(Type.Integer(), Type.Unknown()), /Type.String\(\) keys only/);
});

test('objects: required from the non-optional properties, options after the properties', () => {
  const ours = Type.Object(
    {
      id: Type.Integer({ minimum: 1 }),
      name: Type.Optional(Type.String()),
      tags: Type.Optional(Type.Array(Type.String())),
      meta: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object', maxProperties: 100 })),
      status: Type.Optional(Type.Enum(['a', 'b'])),
    },
    { additionalProperties: false },
  );
  const theirs = TypeBox.Object(
    {
      id: TypeBox.Integer({ minimum: 1 }),
      name: TypeBox.Optional(TypeBox.String()),
      tags: TypeBox.Optional(TypeBox.Array(TypeBox.String())),
      meta: TypeBox.Optional(TypeBox.Unsafe<Record<string, unknown>>({ type: 'object', maxProperties: 100 })),
      status: TypeBox.Optional(TypeBox.Enum(['a', 'b'])),
    },
    { additionalProperties: false },
  );
  same(ours, theirs, 'Object');
  for (const key of Object.keys(theirs.properties)) same(ours.properties[key as 'id'], theirs.properties[key as 'id'], `property ${key}`);
  same(Type.Object({}), TypeBox.Object({}), 'empty Object');
  same(Type.Object({ a: Type.Optional(Type.String()) }), TypeBox.Object({ a: TypeBox.Optional(TypeBox.String()) }), 'all optional');
  const inner = Type.String();
  Type.Optional(inner);
  assert.not.ok(Object.hasOwn(inner, '~optional'), 'Optional marks a copy, not the schema given');
});

test('the static types are TypeBox’s: a typed value compiles against a schema built here', () => {
  const schema = Type.Object({ id: Type.Integer(), name: Type.Optional(Type.String()) });
  type Value = import('typebox').Static<typeof schema>;
  const value: Value = { id: 1 };
  // @ts-expect-error id must be a number
  const wrong: Value = { id: 'x' };
  assert.ok(value && wrong);
});

test.run();
