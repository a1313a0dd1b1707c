import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const KEY_FILE = 'secret.key';

/** Parses FLOWHOST_SECRET_KEY: 64 hex characters or base64/base64url of exactly 32 bytes. */
function parseEnvKey(value: string): Buffer {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (decoded.length === 32) return decoded;
  }
  // Never echo the value: it is meant to be a secret.
  throw new Error('FLOWHOST_SECRET_KEY must be 64 hex characters or the base64 of exactly 32 bytes (e.g. `openssl rand -hex 32`)');
}

/**
 * The vault key: FLOWHOST_SECRET_KEY when set, else <dataDir>/secret.key, created on first
 * use with mode 0600 (exclusive create, so two processes racing agree on one key).
 */
export async function loadVaultKey(options: { dataDir: string; secretKey?: string }): Promise<{ key: Buffer; source: 'env' | 'file' | 'created' }> {
  if (options.secretKey) return { key: parseEnvKey(options.secretKey), source: 'env' };
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const file = join(options.dataDir, KEY_FILE);
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    return { key: readKeyFile(file), source: 'created' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { key: readKeyFile(file), source: 'file' };
}

function readKeyFile(file: string): Buffer {
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`The key file ${file} is malformed (64 hex characters expected)`);
  return Buffer.from(text, 'hex');
}
