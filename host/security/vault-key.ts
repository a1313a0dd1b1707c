import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory } from '../runtime/make-directory.js';
import { setTimeout as sleep } from 'node:timers/promises';

export const KEY_FILE = 'secret.key';
const KEY_BYTES = 32;
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]+={0,2}$/;

export interface LoadedVaultKey {
  key: Buffer;
  /** 'env': FLOWHOST_SECRET_KEY; 'file': an existing key file; 'created': this call wrote the key file. */
  source: 'env' | 'file' | 'created';
}

/** FLOWHOST_SECRET_KEY: 64 hex characters, or base64 / base64url of exactly 32 bytes. */
function parseEnvKey(value: string): Buffer {
  const text = value.trim();
  if (HEX_KEY.test(text)) return Buffer.from(text, 'hex');
  if (BASE64_KEY.test(text)) {
    const decoded = Buffer.from(text, 'base64url'); // Node's base64url decoder also reads + / and padding
    if (decoded.length === KEY_BYTES) return decoded;
  }
  // Never echo the value: it is meant to be a secret, and this message reaches logs.
  throw new Error(
    'FLOWHOST_SECRET_KEY is not a valid key: expected 64 hex characters or the base64 of exactly 32 bytes ' +
      '(generate one with `openssl rand -hex 32`)',
  );
}

/**
 * The vault key: FLOWHOST_SECRET_KEY when set, otherwise `<dataDir>/secret.key` (hex),
 * created on first start with mode 0600. Creation is exclusive ('wx'), so when two
 * processes start at once on a fresh data directory one writes the key and the other
 * reads it: both end up with the same key.
 */
export async function loadVaultKey(options: { dataDir: string; secretKey?: string }): Promise<LoadedVaultKey> {
  if (options.secretKey !== undefined && options.secretKey.trim() !== '') {
    return { key: parseEnvKey(options.secretKey), source: 'env' };
  }
  makeDirectory(options.dataDir);
  const file = join(options.dataDir, KEY_FILE);
  const key = randomBytes(KEY_BYTES);
  try {
    await writeFile(file, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    return { key, source: 'created' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { key: await readKeyFile(file), source: 'file' };
}

/**
 * Reads an existing key file. An empty file is re-read for a moment: another process
 * that has just created it exclusively may not have written the key yet.
 */
async function readKeyFile(file: string): Promise<Buffer> {
  for (let attempt = 0; ; attempt++) {
    const text = (await readFile(file, 'utf8')).trim();
    if (text === '' && attempt < 20) {
      await sleep(25);
      continue;
    }
    if (!HEX_KEY.test(text)) {
      throw new Error(`The key file ${file} is malformed: expected 64 hex characters (the key that encrypted this data's secrets)`);
    }
    return Buffer.from(text, 'hex');
  }
}
