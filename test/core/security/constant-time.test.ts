import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { safeEqual } from '../../../core/security/constant-time.js';

const test = suite('core/security: safeEqual');

test('equal strings and buffers compare equal', () => {
  assert.ok(safeEqual('s3cr3t-token', 's3cr3t-token'));
  assert.ok(safeEqual(Buffer.from('abc'), Buffer.from('abc')));
  assert.ok(safeEqual('abc', Buffer.from('abc')));
  assert.ok(safeEqual('', ''));
});

test('different values, including different lengths, compare unequal without throwing', () => {
  assert.not.ok(safeEqual('s3cr3t-token', 's3cr3t-tokeN'));
  assert.not.ok(safeEqual('short', 'a much longer value'));
  assert.not.ok(safeEqual('', 'x'));
  assert.not.ok(safeEqual(Buffer.from([0]), Buffer.alloc(0)));
});

test('a missing value (e.g. an absent header) is unequal rather than a crash', () => {
  assert.not.ok(safeEqual(undefined as unknown as string, 'token'));
  assert.not.ok(safeEqual('token', null as unknown as string));
});

test.run();
