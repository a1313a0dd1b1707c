import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { createVault } from '../../../core/security/vault.js';
import { verifyVaultKey, VaultKeyMismatchError } from '../../../host/security/vault-canary.js';
import { fakeCollection } from '../../support/fake-collection.js';

const test = suite('host/security: vault canary');

test('first start writes a sealed canary, later starts verify it', async () => {
  const meta = fakeCollection();
  const vault = createVault(randomBytes(32));
  assert.is(await verifyVaultKey(vault, meta), 'created');
  const doc = meta.docs.get('vault-canary');
  assert.ok(doc);
  assert.ok(vault.isSealed(doc.sealed));
  assert.is(await verifyVaultKey(vault, meta), 'verified');
  assert.is(meta.docs.size, 1);
});

test('a different key is refused with a message that says what to do', async () => {
  const meta = fakeCollection();
  await verifyVaultKey(createVault(randomBytes(32)), meta);
  try {
    await verifyVaultKey(createVault(randomBytes(32)), meta);
    assert.unreachable('a wrong key was accepted');
  } catch (error) {
    assert.instance(error, VaultKeyMismatchError);
    const message = (error as Error).message;
    assert.match(message, /FLOWHOST_SECRET_KEY/);
    assert.match(message, /secret\.key/);
    assert.match(message, /cannot decrypt/);
    assert.match(message, /[Rr]estore the original key/);
  }
});

test('a canary that is not a sealed value is a mismatch, not a crash', async () => {
  const meta = fakeCollection();
  await meta.insertOne({ _id: 'vault-canary', sealed: 42 });
  try {
    await verifyVaultKey(createVault(randomBytes(32)), meta);
    assert.unreachable('accepted a broken canary');
  } catch (error) {
    assert.instance(error, VaultKeyMismatchError);
  }
});

test('when another host writes the canary first, ours verifies theirs', async () => {
  const key = randomBytes(32);
  const meta = fakeCollection();
  const other = createVault(key);
  meta.beforeInsert = () => {
    meta.beforeInsert = undefined;
    meta.docs.set('vault-canary', { _id: 'vault-canary', sealed: other.encrypt('flowhost vault canary', 'vault-canary') });
  };
  assert.is(await verifyVaultKey(createVault(key), meta), 'verified');
});

test('when another host with a different key wins the race, ours is refused', async () => {
  const meta = fakeCollection();
  const other = createVault(randomBytes(32));
  meta.beforeInsert = () => {
    meta.beforeInsert = undefined;
    meta.docs.set('vault-canary', { _id: 'vault-canary', sealed: other.encrypt('flowhost vault canary', 'vault-canary') });
  };
  try {
    await verifyVaultKey(createVault(randomBytes(32)), meta);
    assert.unreachable('accepted a key other than the winner’s');
  } catch (error) {
    assert.instance(error, VaultKeyMismatchError);
  }
});

test('store failures other than a duplicate key are not mistaken for a key problem', async () => {
  const meta = fakeCollection();
  meta.beforeInsert = () => {
    throw new Error('store unavailable');
  };
  try {
    await verifyVaultKey(createVault(randomBytes(32)), meta);
    assert.unreachable();
  } catch (error) {
    assert.not.instance(error, VaultKeyMismatchError);
    assert.is((error as Error).message, 'store unavailable');
  }
});

test.run();
