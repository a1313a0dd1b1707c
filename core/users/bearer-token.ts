/**
 * Bearer tokens: an application password used on its own, without the login, for clients
 * that send `Authorization: Bearer <token>` (MCP clients among them). The token carries a
 * lookup id stored (indexed) with the application password, so the server finds the one
 * password it may be by a single read, never by hashing against every password; the rest
 * of the token is the application password itself, checked against its stored hash.
 *
 * `fh_<16 hex: lookup id>_<24 letters and digits: the password without its spaces>`:
 * recognisable (secret scanners, logs) and of one fixed shape, parsed without a pattern
 * that could backtrack.
 */
import { randomBytes } from 'node:crypto';
import { normalizeApplicationPassword } from '../security/passwords.js';

export const TOKEN_PREFIX = 'fh_';
const ID_LENGTH = 16;
const SECRET_LENGTH = 24;
const TOKEN_LENGTH = TOKEN_PREFIX.length + ID_LENGTH + 1 + SECRET_LENGTH;
const HEX = /^[0-9a-f]+$/;
const ALNUM = /^[A-Za-z0-9]+$/;

/** A new lookup id (64 random bits; the store's unique index refuses a repeat). */
export function newTokenId(): string {
  return randomBytes(ID_LENGTH / 2).toString('hex');
}

export function bearerToken(tokenId: string, password: string): string {
  return `${TOKEN_PREFIX}${tokenId}_${normalizeApplicationPassword(password)}`;
}

/** The lookup id and the secret of a token of the right shape, else null. */
export function parseBearerToken(token: string): { tokenId: string; secret: string } | null {
  if (typeof token !== 'string' || token.length !== TOKEN_LENGTH || !token.startsWith(TOKEN_PREFIX)) return null;
  const tokenId = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + ID_LENGTH);
  const separator = token[TOKEN_PREFIX.length + ID_LENGTH];
  const secret = token.slice(TOKEN_LENGTH - SECRET_LENGTH);
  if (separator !== '_' || !HEX.test(tokenId) || !ALNUM.test(secret)) return null;
  return { tokenId, secret };
}
