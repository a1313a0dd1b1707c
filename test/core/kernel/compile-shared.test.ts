// compileShared: hosts in one process (every test host of a suite) compile the same route
// and contribution schemas; the second host reuses the first one's validators. Reuse must
// never cross options (coercion, defaults, removal change what a validator does).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileShared, createAjv } from '../../../core/kernel/validator.js';

const test = suite('validator: compileShared');

const schema = () => ({
  type: 'object',
  properties: { per_page: { type: 'integer', default: 10 }, q: { type: 'string' } },
  additionalProperties: false,
});

test('a second instance with the same options reuses the validator compiled for the same schema text', () => {
  const first = compileShared(createAjv({ coerceTypes: 'array', removeAdditional: 'all' }), schema());
  const second = compileShared(createAjv({ coerceTypes: 'array', removeAdditional: 'all' }), schema());
  assert.is(second, first);
  const other = compileShared(createAjv({ coerceTypes: 'array', removeAdditional: 'all' }), { ...schema(), required: ['q'] });
  assert.is.not(other, first, 'another schema text is compiled anew');
});

test('instances with other options get their own validator, which keeps their behaviour', () => {
  const coercing = compileShared(createAjv({ coerceTypes: 'array', removeAdditional: 'all' }), schema());
  const strict = compileShared(createAjv(), schema());
  assert.is.not(strict, coercing);
  const query: Record<string, unknown> = { per_page: '5', extra: 'x' };
  assert.ok(coercing(query), 'coerced and stripped');
  assert.equal(query, { per_page: 5 });
  const body: Record<string, unknown> = { per_page: '5' };
  assert.not.ok(strict(body), 'no coercion without the option');
  const empty: Record<string, unknown> = {};
  assert.ok(strict(empty));
  assert.equal(empty, { per_page: 10 }, 'defaults applied, as createAjv configures');
});

test('a schema that does not compile throws each time and is not kept', () => {
  const broken = { type: 'object', properties: { a: { $ref: '#/nowhere' } } };
  assert.throws(() => compileShared(createAjv(), broken));
  assert.throws(() => compileShared(createAjv(), broken));
});

test.run();
