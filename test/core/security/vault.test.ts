import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { createVault, VaultDecryptError } from '../../../core/security/vault.js';

const test = suite('core/security: vault');
const key = randomBytes(32);
const SEALED_FORMAT = /^fhv1:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Asserts a VaultDecryptError whose message reveals neither the plaintext nor the key. */
function assertDecryptFails(run: () => unknown, plaintext: string): void {
  try {
    run();
  } catch (error) {
    assert.instance(error, VaultDecryptError);
    const message = (error as Error).message;
    assert.not.ok(message.includes(plaintext), 'plaintext in message');
    assert.not.ok(message.includes(key.toString('hex')) || message.includes(key.toString('base64')), 'key in message');
    return;
  }
  assert.unreachable('decrypt should have thrown');
}

test('round trip, with and without a context, including unicode and empty strings', () => {
  const vault = createVault(key);
  for (const plaintext of ['client-secret-123', '', 'ключ 🔑 clé']) {
    const sealed = vault.encrypt(plaintext);
    assert.match(sealed, SEALED_FORMAT);
    assert.not.ok(sealed.includes(plaintext) && plaintext !== '', 'ciphertext does not contain the plaintext');
    assert.is(vault.decrypt(sealed), plaintext);
    assert.is(vault.decrypt(vault.encrypt(plaintext, 'flow:7:webhook'), 'flow:7:webhook'), plaintext);
  }
});

test('a random IV: sealing the same value twice gives different results', () => {
  const vault = createVault(key);
  const a = vault.encrypt('same');
  const b = vault.encrypt('same');
  assert.is.not(a, b);
  assert.is.not(a.split('.')[0], b.split('.')[0]);
  assert.is(Buffer.from(a.slice('fhv1:'.length).split('.')[0]!, 'base64url').length, 12);
});

test('a tampered ciphertext, tag or IV is detected', () => {
  const vault = createVault(key);
  const sealed = vault.encrypt('hunter2-credential');
  const [iv, tag, data] = sealed.slice('fhv1:'.length).split('.') as [string, string, string];
  const flip = (b64: string): string => {
    const bytes = Buffer.from(b64, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    return bytes.toString('base64url');
  };
  assertDecryptFails(() => vault.decrypt(`fhv1:${iv}.${tag}.${flip(data)}`), 'hunter2-credential');
  assertDecryptFails(() => vault.decrypt(`fhv1:${iv}.${flip(tag)}.${data}`), 'hunter2-credential');
  assertDecryptFails(() => vault.decrypt(`fhv1:${flip(iv)}.${tag}.${data}`), 'hunter2-credential');
  const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
  assertDecryptFails(() => vault.decrypt(`fhv1:${iv}.${shortTag}.${data}`), 'hunter2-credential');
});

test('a value sealed under another key does not open', () => {
  const sealed = createVault(randomBytes(32)).encrypt('other-key-secret');
  assertDecryptFails(() => createVault(key).decrypt(sealed), 'other-key-secret');
});

test('a value sealed for one context cannot be opened as another', () => {
  const vault = createVault(key);
  const sealed = vault.encrypt('webhook-secret', 'flow:1:webhook');
  assertDecryptFails(() => vault.decrypt(sealed, 'flow:2:webhook'), 'webhook-secret');
  assertDecryptFails(() => vault.decrypt(sealed), 'webhook-secret');
  assertDecryptFails(() => vault.decrypt(vault.encrypt('no-context'), 'flow:1:webhook'), 'no-context');
});

test('malformed input is a VaultDecryptError, and isSealed tells sealed values apart', () => {
  const vault = createVault(key);
  for (const value of ['plain text', 'fhv1:', 'fhv1:a.b', 'fhv2:a.b.c', 'fhv1:***.b.c']) {
    assert.throws(
      () => vault.decrypt(value),
      (e: unknown) => e instanceof VaultDecryptError,
      value,
    );
  }
  assert.throws(
    () => vault.decrypt(undefined as unknown as string),
    (e: unknown) => e instanceof VaultDecryptError,
  );
  assert.ok(vault.isSealed(vault.encrypt('x')));
  assert.not.ok(vault.isSealed('plain'));
  assert.not.ok(vault.isSealed(null));
  assert.not.ok(vault.isSealed({ sealed: 'fhv1:a.b.c' }));
});

test('the key must be exactly 32 bytes', () => {
  for (const bad of [randomBytes(16), randomBytes(31), randomBytes(33), Buffer.alloc(0)]) {
    assert.throws(() => createVault(bad), /32 bytes/);
  }
  assert.throws(() => createVault('0'.repeat(64) as unknown as Buffer), /32 bytes/);
});

test('the vault keeps its own copy of the key', () => {
  const mine = Buffer.from(key);
  const vault = createVault(mine);
  const sealed = vault.encrypt('copy');
  mine.fill(0);
  assert.is(vault.decrypt(sealed), 'copy');
});

test("a plugin's vault: its own values round trip; the core's and another plugin's never open, whatever the context", () => {
  const host = createVault(key);
  const mine = host.forPlugin('acme');
  const other = host.forPlugin('other');
  const sealed = mine.encrypt('acme-secret', 'acme:token');
  assert.is(mine.decrypt(sealed, 'acme:token'), 'acme-secret');
  assertDecryptFails(() => other.decrypt(sealed, 'acme:token'), 'acme-secret');
  assertDecryptFails(() => host.decrypt(sealed, 'acme:token'), 'acme-secret');
  // What the core seals (handler settings, webhook secrets) opens for no plugin.
  for (const context of ['handler-settings', 'webhook:7', 'credentials:github:client_secret', undefined]) {
    const core = host.encrypt('core-secret', context);
    assert.is(host.decrypt(core, context), 'core-secret');
    assertDecryptFails(() => mine.decrypt(core, context), 'core-secret');
  }
  // A plugin sealing under a context shaped like another's gets a value only it opens.
  assertDecryptFails(() => other.decrypt(mine.encrypt('x-secret', 'other:token'), 'other:token'), 'x-secret');
});

test('values sealed before plugins had their own vault open for the plugin they are named after, and no other', () => {
  const host = createVault(key);
  // What docsync wrote with the host's vault under 'docsync:github_token' before this version.
  const legacy = host.encrypt('ghp-legacy-token', 'docsync:github_token');
  assert.is(host.forPlugin('docsync').decrypt(legacy, 'docsync:github_token'), 'ghp-legacy-token');
  assertDecryptFails(() => host.forPlugin('thief').decrypt(legacy, 'docsync:github_token'), 'ghp-legacy-token');
  // A plugin named after a namespace of the core's does not open the core's values that way.
  for (const [id, context] of [
    ['webhook', 'webhook:7'],
    ['credentials', 'credentials:github:client_secret'],
    ['provider-key', 'provider-key:openai'],
  ] as const) {
    assertDecryptFails(() => host.forPlugin(id).decrypt(host.encrypt('core-secret', context), context), 'core-secret');
  }
});

test('a value the previous version sealed still opens for the core, and for no plugin', () => {
  // Sealed by 1.0's vault (AAD 'flowhost-vault:handler-settings', key of 7s, IV of 1s): the
  // core's format is unchanged, so stores written before plugins had their own vaults open.
  const written = 'fhv1:AQEBAQEBAQEBAQEB.WY2L6srPBf_Kin1i2ae2vA.AZPgw-TagiOzrfEQXgc';
  const host = createVault(Buffer.alloc(32, 7));
  assert.is(host.decrypt(written, 'handler-settings'), 'written-by-1.0');
  assertDecryptFails(() => host.forPlugin('thief').decrypt(written, 'handler-settings'), 'written-by-1.0');
});

test.run();
