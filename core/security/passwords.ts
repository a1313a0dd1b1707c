import { randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost for new hashes (about 50 ms and 16 MiB per hash). */
const N = 16384;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds what a stored hash's parameters may demand (scrypt needs about 128·N·r bytes); costlier ones verify as false. */
const MAX_MEMORY = 256 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** scrypt hash, self-describing so the cost can be raised later: `scrypt$N$r$p$saltB64$hashB64`. */
export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scrypt(String(plain), salt, KEY_BYTES, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return ['scrypt', N, R, P, salt.toString('base64'), hash.toString('base64')].join('$');
}

interface ParsedHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const isPowerOfTwo = (x: number): boolean => x > 1 && (x & (x - 1)) === 0;

function parseEncoded(encoded: unknown): ParsedHash | null {
  if (typeof encoded !== 'string') return null;
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, nText, rText, pText, saltText, hashText] = parts as [string, string, string, string, string, string];
  if (![nText, rText, pText].every((t) => /^[1-9][0-9]{0,7}$/.test(t))) return null;
  const [n, r, p] = [Number(nText), Number(rText), Number(pText)];
  if (!isPowerOfTwo(n) || r > 64 || p > 16) return null;
  if (!BASE64.test(saltText) || !BASE64.test(hashText)) return null;
  const salt = Buffer.from(saltText, 'base64');
  const hash = Buffer.from(hashText, 'base64');
  // A short stored hash would make a wrong password match by chance.
  if (salt.length < 8 || hash.length < 16) return null;
  return { n, r, p, salt, hash };
}

/** Checks a password against an encoded hash in constant time; false (never a throw) for bad input. */
export async function verifyPassword(plain: string, encoded: string): Promise<boolean> {
  const parsed = parseEncoded(encoded);
  if (!parsed || typeof plain !== 'string') return false;
  try {
    const actual = await scrypt(plain, parsed.salt, parsed.hash.length, { N: parsed.n, r: parsed.r, p: parsed.p, maxmem: MAX_MEMORY });
    return timingSafeEqual(actual, parsed.hash);
  } catch {
    return false; // parameters beyond MAX_MEMORY
  }
}

// A well-formed hash with the current parameters that no password matches in practice:
// verifying against it costs exactly what a real verification costs.
const DUMMY_HASH = ['scrypt', N, R, P, Buffer.alloc(SALT_BYTES, 7).toString('base64'), Buffer.alloc(KEY_BYTES).toString('base64')].join(
  '$',
);

/** Burns the time of one real verification; used for unknown logins so every failure takes as long. */
export async function verifyDummy(plain: string): Promise<false> {
  await verifyPassword(typeof plain === 'string' ? plain : '', DUMMY_HASH);
  return false;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 24 random characters from [A-Za-z0-9] (about 142 bits) in six groups of four, WordPress style. */
export function generateApplicationPassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 6; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join(' ');
}

/** Users paste application passwords with or without the spaces between groups. */
export function normalizeApplicationPassword(input: string): string {
  return typeof input === 'string' ? input.replace(/\s+/g, '') : '';
}
