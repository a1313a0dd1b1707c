import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY_FILE, loadVaultKey } from '../../../host/security/vault-key.js';

const test = suite('host/security: vault key loading');
const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-key-'));
  dirs.push(dir);
  return dir;
};
test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('FLOWHOST_SECRET_KEY as 64 hex characters', async () => {
  const raw = randomBytes(32);
  const dataDir = join(tempDir(), 'data');
  const loaded = await loadVaultKey({ dataDir, secretKey: raw.toString('hex') });
  assert.is(loaded.source, 'env');
  assert.ok(loaded.key.equals(raw));
  assert.throws(() => statSync(join(dataDir, KEY_FILE)), /ENOENT/, 'no key file is written when the env key is used');
});

test('FLOWHOST_SECRET_KEY as base64 and base64url of 32 bytes', async () => {
  const raw = Buffer.from('fbff'.repeat(16), 'hex'); // bytes whose base64 holds + and /
  for (const text of [raw.toString('base64'), raw.toString('base64url'), ` ${raw.toString('base64')}\n`]) {
    const loaded = await loadVaultKey({ dataDir: tempDir(), secretKey: text });
    assert.is(loaded.source, 'env');
    assert.ok(loaded.key.equals(raw), text);
  }
});

test('a bad FLOWHOST_SECRET_KEY is refused with a message naming it, never echoing it', async () => {
  const bad = [
    'hunter2-not-a-key',
    'ab'.repeat(31), // 62 hex characters
    'ab'.repeat(33),
    randomBytes(16).toString('base64'),
    randomBytes(33).toString('base64'),
    `${'a'.repeat(63)}g`,
  ];
  for (const secretKey of bad) {
    try {
      await loadVaultKey({ dataDir: tempDir(), secretKey });
      assert.unreachable(`accepted ${secretKey.length} characters`);
    } catch (error) {
      const message = (error as Error).message;
      assert.match(message, /FLOWHOST_SECRET_KEY/);
      assert.match(message, /64 hex characters/);
      assert.match(message, /32 bytes/);
      assert.not.ok(message.includes(secretKey.trim()), 'the value is not echoed');
    }
  }
});

test('without an env key, a key file is created with mode 0600 (and the data dir with it)', async () => {
  const dataDir = join(tempDir(), 'nested', 'data');
  const loaded = await loadVaultKey({ dataDir });
  assert.is(loaded.source, 'created');
  assert.is(loaded.key.length, 32);
  const file = join(dataDir, KEY_FILE);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readFileSync(file, 'utf8').trim(), loaded.key.toString('hex'));
});

test('an empty env value counts as unset', async () => {
  const loaded = await loadVaultKey({ dataDir: tempDir(), secretKey: '' });
  assert.is(loaded.source, 'created');
});

test('the key file is reused on the next start', async () => {
  const dataDir = tempDir();
  const first = await loadVaultKey({ dataDir });
  const second = await loadVaultKey({ dataDir });
  assert.is(second.source, 'file');
  assert.ok(second.key.equals(first.key));
});

test('processes starting together on a fresh data dir agree on one key', async () => {
  const dataDir = tempDir();
  const results = await Promise.all(Array.from({ length: 8 }, () => loadVaultKey({ dataDir })));
  assert.is(results.filter((r) => r.source === 'created').length, 1);
  for (const result of results) assert.ok(result.key.equals(results[0]!.key));
});

test('a malformed key file is refused, naming the file', async () => {
  const dataDir = tempDir();
  const file = join(dataDir, KEY_FILE);
  writeFileSync(file, 'not a key\n', { mode: 0o600 });
  try {
    await loadVaultKey({ dataDir });
    assert.unreachable('accepted a malformed key file');
  } catch (error) {
    assert.ok((error as Error).message.includes(file), (error as Error).message);
    assert.match((error as Error).message, /malformed/);
  }
  assert.is(readFileSync(file, 'utf8'), 'not a key\n', 'the file is left alone');
});

test.run();
