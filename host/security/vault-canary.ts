import { DuplicateKeyError, type Collection } from '../../core/store/port.js';
import type { Vault } from '../../core/security/vault.js';

const CANARY_ID = 'vault-canary';
const CANARY_CONTEXT = 'vault-canary';
const CANARY_TEXT = 'flowhost vault canary';

/** The configured key is not the one the stored secrets were sealed with. */
export class VaultKeyMismatchError extends Error {
  readonly code = 'vault_key_mismatch';
  constructor() {
    super(
      'The configured secret key (FLOWHOST_SECRET_KEY, or <data dir>/secret.key when it is unset) cannot decrypt ' +
        'the secrets already stored in this database. Restore the original key the data was written with; ' +
        'starting with a new key would leave every stored credential and webhook secret unreadable.',
    );
    this.name = 'VaultKeyMismatchError';
  }
}

/**
 * A sealed canary written on first start. On every later start it must decrypt, so a
 * lost or changed key stops the host at once with a clear message instead of failing
 * later on each secret. Several hosts sharing one MongoDB may race to write it: the
 * loser verifies the winner's.
 */
export async function verifyVaultKey(vault: Vault, meta: Collection): Promise<'created' | 'verified'> {
  let existing = await meta.findOne({ _id: CANARY_ID });
  if (!existing) {
    try {
      await meta.insertOne({ _id: CANARY_ID, sealed: vault.encrypt(CANARY_TEXT, CANARY_CONTEXT) });
      return 'created';
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    existing = await meta.findOne({ _id: CANARY_ID });
    if (!existing) throw new Error('The vault canary could be neither written nor read back from the store');
  }
  const sealed = existing.sealed;
  try {
    if (typeof sealed === 'string' && vault.decrypt(sealed, CANARY_CONTEXT) === CANARY_TEXT) return 'verified';
  } catch {
    // a VaultDecryptError is the expected way to learn the key is wrong; reported below
  }
  throw new VaultKeyMismatchError();
}
