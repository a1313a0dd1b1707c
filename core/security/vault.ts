import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Encryption of secrets at rest (credentials, tokens, webhook secrets). */
export interface Vault {
  /** Seals a secret; `context` (e.g. 'credential:12:client_secret') is bound as authenticated data. */
  encrypt(plaintext: string, context?: string): string;
  /** Opens a sealed value; throws VaultDecryptError when tampered with, sealed under another key or another context. */
  decrypt(sealed: string, context?: string): string;
  /** Whether a value has the sealed format (says nothing about whether it decrypts). */
  isSealed(value: unknown): boolean;
}

/** Never carries the sealed value, the plaintext or the key: it may end up in a log. */
export class VaultDecryptError extends Error {
  readonly code = 'vault_decrypt_failed';
  constructor(message = 'A sealed secret could not be decrypted (wrong key, wrong context or tampered value)') {
    super(message);
    this.name = 'VaultDecryptError';
  }
}

const PREFIX = 'fhv1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^fhv1:([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/;

// The context is prefixed so that "no context" and a context can never collide with
// a value sealed by some other program under the same key.
const aad = (context: string | undefined): Buffer => Buffer.from(`flowhost-vault:${context ?? ''}`, 'utf8');

/**
 * AES-256-GCM with a random 12-byte IV per value, sealed as
 * `fhv1:<iv>.<tag>.<ciphertext>` (base64url). The version prefix leaves room for a
 * later format or key rotation.
 */
export function createVault(key: Buffer): Vault {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new Error(`The vault key must be exactly ${KEY_BYTES} bytes`);
  }
  const secretKey = Buffer.from(key); // a private copy: the caller may reuse or zero its buffer

  return {
    encrypt(plaintext, context) {
      if (typeof plaintext !== 'string') throw new TypeError('Only strings can be sealed');
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secretKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${PREFIX}${iv.toString('base64url')}.${tag.toString('base64url')}.${ciphertext.toString('base64url')}`;
    },

    decrypt(sealed, context) {
      const match = typeof sealed === 'string' ? SEALED.exec(sealed) : null;
      if (!match) throw new VaultDecryptError('Not a sealed value');
      const iv = Buffer.from(match[1]!, 'base64url');
      const tag = Buffer.from(match[2]!, 'base64url');
      // A truncated tag would make forgeries easier; GCM would otherwise accept 4 bytes.
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new VaultDecryptError('Malformed sealed value');
      try {
        const decipher = createDecipheriv('aes-256-gcm', secretKey, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(aad(context));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(match[3]!, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new VaultDecryptError();
      }
    },

    isSealed(value) {
      return typeof value === 'string' && SEALED.test(value);
    },
  };
}
