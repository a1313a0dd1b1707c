// Validators kept on disk between processes (ajv standalone code): a second compile of the
// same schema under the same options is read from the cache and validates exactly as ajv's
// own validator (defaults, formats, errors); a damaged file is compiled and written again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createAjv, schemaProblem } from '../../../core/kernel/validator.js';
import { cachedCompile, knownValidSchema, validatorCacheFile, validSchemasSaved } from '../../../core/kernel/validator-code-cache.js';

const version = (name: string) => (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;

const test = suite('validator code cache');
const written: string[] = [];

/** A schema no other test compiles (its title is unique), using formats, defaults and patterns. */
function freshSchema() {
  return {
    title: `cache-test-${randomUUID()}`,
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', format: 'uri' },
      when: { type: 'string', format: 'date-time' },
      slug: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 20 },
      tags: { type: 'array', items: { type: 'string' }, default: ['news'] },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    },
  };
}

test.after(() => {
  for (const file of written) rmSync(file, { force: true });
});

test('a second compile is read from the file the first wrote, and validates as ajv does', () => {
  const ajv = createAjv();
  const schema = freshSchema();
  const text = JSON.stringify(schema);
  const file = validatorCacheFile('{}', text);
  assert.ok(file, 'the cache is on in the test run');
  written.push(file!);
  assert.not.ok(existsSync(file!));
  let compiles = 0;
  const compile = () => (compiles++, ajv.compile(schema));
  const first = cachedCompile(ajv, '{}', text, compile);
  assert.is(compiles, 1);
  assert.ok(existsSync(file!), 'the validator was written');
  const second = cachedCompile(createAjv(), '{}', text, compile);
  assert.is(compiles, 1, 'the second came from the file');
  assert.is.not(second, first);

  const cases: unknown[] = [
    { url: 'https://example.com/a', when: '2030-01-01T10:00:00Z', slug: 'ok-1' },
    { url: 'not a uri' },
    { url: 'https://example.com', when: 'yesterday' },
    { url: 'https://example.com', slug: 'Has Spaces', limit: 0, extra: true },
    { tags: 'x' },
    'not an object',
  ];
  for (const input of cases) {
    const [a, b] = [structuredClone(input), structuredClone(input)];
    const [okA, okB] = [first(a), second(b)];
    assert.is(okB, okA, `same verdict for ${JSON.stringify(input)}`);
    assert.equal(b, a, 'same defaults applied');
    assert.equal(second.errors ?? null, first.errors ?? null, `same errors for ${JSON.stringify(input)}`);
  }
  const defaulted = { url: 'https://example.com' } as Record<string, unknown>;
  assert.ok(second(defaulted));
  assert.equal(defaulted, { url: 'https://example.com', tags: ['news'], limit: 10 });
});

test('other options or another schema text never share a file', () => {
  const text = JSON.stringify(freshSchema());
  assert.is.not(validatorCacheFile('{}', text), validatorCacheFile('{"useDefaults":false}', text));
  assert.is.not(validatorCacheFile('{}', text), validatorCacheFile('{}', text.replace('100', '99')));
});

test('a damaged cache file is compiled again and rewritten', () => {
  const ajv = createAjv();
  const schema = freshSchema();
  const text = JSON.stringify(schema);
  const file = validatorCacheFile('{}', text)!;
  written.push(file);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, 'this is { not javascript');
  let compiles = 0;
  const validate = cachedCompile(ajv, '{}', text, () => (compiles++, ajv.compile(schema)));
  assert.is(compiles, 1);
  assert.not.ok(validate({ url: 'nope' }));
  cachedCompile(createAjv(), '{}', text, () => (compiles++, ajv.compile(schema)));
  assert.is(compiles, 1, 'the rewritten file loads');
});

test('a schema found valid is remembered on disk for the next process; an invalid one never is', async () => {
  const valid = freshSchema();
  const text = JSON.stringify(valid);
  assert.not.ok(knownValidSchema(text), 'a schema no one checked yet');
  assert.is(schemaProblem(valid), null);
  assert.ok(knownValidSchema(text));
  await validSchemasSaved();
  const file = join(dirname(validatorCacheFile('{}', text)!), 'valid-schemas.json');
  const keys = JSON.parse(readFileSync(file, 'utf8')) as string[];
  const key = createHash('sha256')
    .update(`ajv@${version('ajv')} ajv-formats@${version('ajv-formats')}\u0000meta-schema\u0000${text}`)
    .digest('hex')
    .slice(0, 32);
  assert.ok(keys.includes(key), 'the key is in the file the next process reads');

  const invalid = { title: `cache-test-${randomUUID()}`, type: 'object', properties: { a: { type: 'no-such-type' } } };
  assert.match(schemaProblem(invalid) ?? '', /schema is invalid/);
  assert.not.ok(knownValidSchema(JSON.stringify(invalid)));
  await validSchemasSaved();
  assert.is(schemaProblem(invalid)?.startsWith('schema is invalid'), true, 'still refused the second time');
});

test.run();
