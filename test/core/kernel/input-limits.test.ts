import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../core/errors.js';
import { INPUT_LIMITS, boundSchema } from '../../../core/kernel/input-limits.js';
import { jsonValueProblem, parseJsonInput, parseQueryInput, phpStyleParams } from '../../../core/kernel/request-input.js';
import { createAjv } from '../../../core/kernel/validator.js';

const deepText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

function invalidJson(text: string): ApiError {
  try {
    parseJsonInput(text);
  } catch (error) {
    assert.instance(error, ApiError);
    assert.is((error as ApiError).code, 'rest_invalid_json');
    assert.is((error as ApiError).status, 400);
    return error as ApiError;
  }
  throw new Error(`accepted: ${text.slice(0, 40)}`);
}

const json = suite('request input: JSON bodies within the limits');

json('depth up to the limit is accepted; one more, 3,000 and 100,000 levels are 400 naming the rule', () => {
  assert.ok(parseJsonInput(deepText(INPUT_LIMITS.jsonDepth)));
  assert.match(invalidJson(deepText(INPUT_LIMITS.jsonDepth + 1)).message, /nested deeper than 64 levels/);
  invalidJson(`{"initial_data":${deepText(3000)}}`);
  invalidJson(deepText(100_000));
});

json('numbers a double cannot hold are refused; big integers are JSON rounding, not refused here', () => {
  assert.match(invalidJson('{"pipeline_id":1e999}').message, /out of range/);
  invalidJson('[1, -1e400]');
  assert.equal(parseJsonInput('{"id":9007199254740993}'), { id: 9007199254740992 });
  assert.match(invalidJson('{"a":').message, /Invalid JSON body passed/);
});

json('__proto__ in a body is an own key and pollutes nothing', () => {
  const value = parseJsonInput('{"__proto__":{"polluted":true},"constructor":{"prototype":1}}') as Record<string, unknown>;
  assert.equal(Object.keys(value), ['__proto__', 'constructor']);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(jsonValueProblem(value), null);
});

json.run();

const query = suite('request input: query strings and forms');

query('__proto__, constructor and prototype are ordinary names, repeated names become lists', () => {
  const q = parseQueryInput('/x?__proto__=a&constructor=b&constructor=c&prototype[]=d&n=1');
  assert.is(Object.getPrototypeOf(q), null);
  assert.equal(Object.keys(q), ['__proto__', 'constructor', 'prototype', 'n']);
  assert.is(q.__proto__, 'a');
  assert.equal(q.constructor, ['b', 'c']);
  assert.equal(q.prototype, ['d']);
  const form = phpStyleParams(new URLSearchParams('__proto__=1&__proto__=2'));
  assert.equal(form.__proto__, ['1', '2']);
  assert.equal(Object.keys(parseQueryInput('/no-query')), []);
});

query.run();

const bounds = suite('input limits: route schemas hold safe integers and finite numbers');

bounds('integers get safe bounds unless tighter ones are declared; numbers must be finite', () => {
  const schema = boundSchema({
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1 },
      small: { type: 'integer', minimum: 0, maximum: 10 },
      ratio: { type: 'number' },
      list: { type: 'array', items: { type: 'integer' } },
      either: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
    },
  }) as { properties: Record<string, Record<string, unknown>> };
  assert.equal(schema.properties.id, { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
  assert.equal(schema.properties.small, { type: 'integer', minimum: 0, maximum: 10 });
  assert.is(schema.properties.ratio!.maximum, Number.MAX_VALUE);
  assert.is((schema.properties.list!.items as Record<string, unknown>).maximum, Number.MAX_SAFE_INTEGER);
  assert.is((schema.properties.either!.anyOf as Array<Record<string, unknown>>)[0]!.minimum, Number.MIN_SAFE_INTEGER);
});

bounds('query coercion no longer lets 1e309, Infinity or 2^53 + 1 through', () => {
  const validate = createAjv({ coerceTypes: 'array' }).compile(
    boundSchema({ type: 'object', properties: { offset: { type: 'integer', minimum: 0 }, ratio: { type: 'number' } } }) as object,
  );
  for (const offset of ['1e309', 'Infinity', '99999999999999999999', '9007199254740993']) assert.not.ok(validate({ offset }), offset);
  assert.not.ok(validate({ ratio: '1e309' }));
  const ok = { offset: '9007199254740991', ratio: '0.5' };
  assert.ok(validate(ok));
  assert.equal(ok, { offset: 9007199254740991, ratio: 0.5 } as unknown as typeof ok);
});

bounds.run();
