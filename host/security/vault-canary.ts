import type { Collection } from '../../core/store/port.js';
import { DuplicateKeyError } from '../../core/store/port.js';
import type { Vault } from '../../core/security/vault.js';

const CANARY_ID = 'vault-canary';
const CANARY_TEXT = 'flowhost vault canary';

export class VaultKeyMismatchError extends Error {
  constructor() {
    super(
      'The configured secret key (FLOWHOST_SECRET_KEY or <data dir>/secret.key) cannot decrypt the secrets already stored in this database. Restore the key the data was written with.',
    );
    this.name = 'VaultKeyMismatchError';
  }
}

/**
 * A sealed canary written at first start: afterwards a wrong key stops start-up at once
 * with a clear message, instead of failing later on every secret.
 */
export async function verifyVaultKey(vault: Vault, meta: Collection): Promise<'created' | 'verified'> {
  const existing = await meta.findOne({ _id: CANARY_ID });
  if (!existing) {
    try {
      await meta.insertOne({ _id: CANARY_ID, sealed: vault.encrypt(CANARY_TEXT, 'vault-canary') });
      return 'created';
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return verifyVaultKey(vault, meta); // another host wrote it first: check theirs
    }
  }
  try {
    if (vault.decrypt(String(existing.sealed), 'vault-canary') === CANARY_TEXT) return 'verified';
  } catch {
    // fall through
  }
  throw new VaultKeyMismatchError();
}
