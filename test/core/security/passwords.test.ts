import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  generateApplicationPassword,
  hashPassword,
  normalizeApplicationPassword,
  verifyDummy,
  verifyPassword,
} from '../../../core/security/passwords.js';

const test = suite('core/security: passwords');

test('hashPassword encodes scrypt parameters, a 16-byte salt and a 32-byte key', async () => {
  const encoded = await hashPassword('correct horse');
  const parts = encoded.split('$');
  assert.is(parts.length, 6);
  assert.equal(parts.slice(0, 4), ['scrypt', '16384', '8', '1']);
  assert.is(Buffer.from(parts[4]!, 'base64').length, 16);
  assert.is(Buffer.from(parts[5]!, 'base64').length, 32);
  assert.is.not(await hashPassword('correct horse'), encoded, 'a fresh salt each time');
});

test('verifyPassword accepts the right password and rejects a wrong one', async () => {
  const encoded = await hashPassword('correct horse');
  assert.is(await verifyPassword('correct horse', encoded), true);
  assert.is(await verifyPassword('correct horsE', encoded), false);
  assert.is(await verifyPassword('', encoded), false);
});

test('verifyPassword returns false, never throws, for malformed encodings', async () => {
  const good = await hashPassword('pw');
  const [, n, r, p, salt, hash] = good.split('$');
  const bad = [
    '',
    'plain-text-password',
    'bcrypt$10$abc',
    `scrypt$${n}$${r}$${p}$${salt}`,
    `scrypt$abc$${r}$${p}$${salt}$${hash}`,
    `scrypt$1000$${r}$${p}$${salt}$${hash}`, // N not a power of two
    `scrypt$${n}$${r}$${p}$${salt}$AAAA`, // hash too short to mean anything
    `scrypt$${n}$${r}$${p}$!!notbase64!!$${hash}`,
    `scrypt$1048576$64$16$${salt}$${hash}`, // would need gigabytes
    null,
    undefined,
    42,
  ];
  for (const encoded of bad) assert.is(await verifyPassword('pw', encoded as string), false, String(encoded));
  assert.is(await verifyPassword(undefined as unknown as string, good), false);
});

test('verifyDummy always fails', async () => {
  assert.is(await verifyDummy('anything'), false);
  assert.is(await verifyDummy(''), false);
});

test('generateApplicationPassword: 6 groups of 4 characters from [A-Za-z0-9], different each time', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const password = generateApplicationPassword();
    assert.match(password, /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    seen.add(password);
  }
  assert.is(seen.size, 50);
});

test('normalizeApplicationPassword removes the spaces users may or may not paste', async () => {
  const generated = generateApplicationPassword();
  const compact = generated.replace(/ /g, '');
  assert.is(compact.length, 24);
  assert.is(normalizeApplicationPassword(generated), compact);
  assert.is(normalizeApplicationPassword(compact), compact);
  assert.is(normalizeApplicationPassword(` ${generated}\n`), compact);
  const encoded = await hashPassword(normalizeApplicationPassword(generated));
  assert.ok(await verifyPassword(normalizeApplicationPassword(compact), encoded));
});

test.run();
