import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

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

/** Whether a value has the sealed format, without a vault (views that must never carry one). */
export function looksSealed(value: unknown): boolean {
  return typeof value === 'string' && SEALED.test(value);
}

/**
 * The host's vault: the core's own (core contexts, unscoped), and the one each plugin
 * receives, which seals and opens under that plugin's id only.
 */
export interface HostVault extends Vault {
  forPlugin(pluginId: string): Vault;
  /**
   * HMAC-SHA256 of `data` under a key derived from the host's key for `context` (the core's
   * signed links: every host of a cluster shares the key, so any of them checks a link).
   */
  sign(data: string, context: string): Buffer;
}

// The context is prefixed so that "no context" and a context can never collide with
// a value sealed by some other program under the same key.
const coreAad = (context: string | undefined): Buffer => Buffer.from(`flowhost-vault:${context ?? ''}`, 'utf8');
// A plugin's values carry its id in another domain: no context a plugin passes makes the
// core's data (`flowhost-vault:…`) or another plugin's (a plugin id has no ':') for it.
const pluginAad = (pluginId: string, context: string | undefined): Buffer =>
  Buffer.from(`flowhost-plugin-vault:${pluginId}:${context ?? ''}`, 'utf8');

/**
 * Namespaces of the contexts the core seals under. Before plugins had vaults of their own,
 * built-in plugins sealed under the core's domain with a context named after themselves
 * (`docsync:github_token`): those values still open for that plugin, but never when the
 * plugin's id is one of these (a plugin named `webhook` must not open `webhook:7`). A new
 * context namespace the core seals under must be added here, or a plugin of that name
 * would open its values through this fallback.
 */
const CORE_NAMESPACES = new Set([
  'credentials',
  'oauth-state',
  'webhook',
  'provider-key',
  'handler-settings',
  'vault-canary',
  'run-checkpoint',
  'plugin-settings',
]);

function legacyContextOf(pluginId: string, context: string | undefined): boolean {
  return typeof context === 'string' && !CORE_NAMESPACES.has(pluginId) && context.startsWith(`${pluginId}:`);
}

/**
 * AES-256-GCM with a random 12-byte IV per value, sealed as
 * `fhv1:<iv>.<tag>.<ciphertext>` (base64url). The version prefix leaves room for a
 * later format or key rotation.
 */
export function createVault(key: Buffer): HostVault {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new Error(`The vault key must be exactly ${KEY_BYTES} bytes`);
  }
  const secretKey = Buffer.from(key); // a private copy: the caller may reuse or zero its buffer
  const isSealed = looksSealed;

  const core: Vault = {
    encrypt: (plaintext, context) => seal(secretKey, plaintext, coreAad(context)),
    decrypt: (sealed, context) => open(secretKey, sealed, coreAad(context)),
    isSealed,
  };
  const signingKeys = new Map<string, Buffer>();
  const signingKey = (context: string): Buffer => {
    let derived = signingKeys.get(context);
    if (!derived) {
      derived = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `flowhost-sign:${context}`, 32));
      signingKeys.set(context, derived);
    }
    return derived;
  };
  return {
    ...core,
    sign: (data, context) => createHmac('sha256', signingKey(context)).update(data, 'utf8').digest(),
    forPlugin(pluginId) {
      if (typeof pluginId !== 'string' || pluginId === '' || pluginId.includes(':')) throw new Error('A plugin vault needs a plugin id');
      return {
        encrypt: (plaintext, context) => seal(secretKey, plaintext, pluginAad(pluginId, context)),
        decrypt(sealed, context) {
          try {
            return open(secretKey, sealed, pluginAad(pluginId, context));
          } catch (error) {
            if (!legacyContextOf(pluginId, context)) throw error;
            return open(secretKey, sealed, coreAad(context));
          }
        },
        isSealed,
      };
    },
  };
}

function seal(secretKey: Buffer, plaintext: string, aad: Buffer): string {
  if (typeof plaintext !== 'string') throw new TypeError('Only strings can be sealed');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secretKey, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${PREFIX}${iv.toString('base64url')}.${tag.toString('base64url')}.${ciphertext.toString('base64url')}`;
}

function open(secretKey: Buffer, sealed: string, aad: Buffer): string {
  const match = typeof sealed === 'string' ? SEALED.exec(sealed) : null;
  if (!match) throw new VaultDecryptError('Not a sealed value');
  const iv = Buffer.from(match[1]!, 'base64url');
  const tag = Buffer.from(match[2]!, 'base64url');
  // A truncated tag would make forgeries easier; GCM would otherwise accept 4 bytes.
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new VaultDecryptError('Malformed sealed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', secretKey, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(match[3]!, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new VaultDecryptError();
  }
}
