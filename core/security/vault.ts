import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Encryption of secrets at rest. */
export interface Vault {
  /** Seals a secret; `context` (e.g. 'flow:12:webhook') is bound as authenticated data. */
  encrypt(plaintext: string, context?: string): string;
  /** Opens a sealed value; throws VaultDecryptError if tampered, wrong key or wrong context. */
  decrypt(sealed: string, context?: string): string;
  isSealed(value: unknown): boolean;
}

export class VaultDecryptError extends Error {
  constructor(message = 'A sealed secret could not be decrypted (wrong key, wrong context or tampered value)') {
    super(message);
    this.name = 'VaultDecryptError';
  }
}

const PREFIX = 'fhv1:';

/** AES-256-GCM with a random 12-byte IV per value: `fhv1:<iv>.<tag>.<ciphertext>` (base64url). */
export function createVault(key: Buffer): Vault {
  if (!Buffer.isBuffer(key) || key.length !== 32) throw new Error('The vault key must be exactly 32 bytes');
  const aad = (context: string | undefined) => Buffer.from(`flowhost:${context ?? ''}`, 'utf8');
  return {
    encrypt(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${PREFIX}${iv.toString('base64url')}.${tag.toString('base64url')}.${ciphertext.toString('base64url')}`;
    },
    decrypt(sealed, context) {
      if (typeof sealed !== 'string' || !sealed.startsWith(PREFIX)) throw new VaultDecryptError('Not a sealed value');
      const [ivText, tagText, dataText] = sealed.slice(PREFIX.length).split('.');
      if (!ivText || !tagText || dataText === undefined) throw new VaultDecryptError('Malformed sealed value');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
        decipher.setAAD(aad(context));
        decipher.setAuthTag(Buffer.from(tagText, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new VaultDecryptError();
      }
    },
    isSealed(value) {
      return typeof value === 'string' && value.startsWith(PREFIX);
    },
  };
}
