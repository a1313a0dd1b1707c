/**
 * Masking of secrets in every API response and every log line.
 *
 * Whether a field is secret is decided from its name, so a plugin's own settings
 * (`client_secret`, `webhookToken`, `x-api-key`) are masked without registering them.
 */

/** Fixed length, so the mask says nothing about the secret's length. */
const MASK = '••••••••';

/** Secrets shorter than this are masked entirely: their last 4 characters would be too much of them. */
const MIN_LENGTH_FOR_HINT = 16;

/**
 * Name endings (words joined without separators) that mark a secret. Matching the end
 * rather than any part keeps `token_url`, `token_type`, `max_tokens` and
 * `password_changed_at` readable while `access_token`, `appSecret`, `x-api-key`,
 * `set-cookie` and `stripe_secret_key` are masked.
 */
const SECRET_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'authorization',
  'cookie',
  'privatekey',
  'secretkey',
  'accesskey',
  'signingkey',
  'encryptionkey',
];

/** A trailing word that keeps the name secret: `password_hash`, `secret_value`, `passwordConfirmation`. */
const SECRET_QUALIFIERS = new Set([
  'hash',
  'value',
  'plain',
  'plaintext',
  'raw',
  'hex',
  'base64',
  'pem',
  'encrypted',
  'sealed',
  'confirm',
  'confirmation',
  'again',
  'repeat',
]);

/** Masked form of a secret: '' when unset; the last 4 characters only for values of 16 or more. */
export function maskSecret(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value);
  return text.length >= MIN_LENGTH_FOR_HINT ? `${MASK}${text.slice(-4)}` : MASK;
}

/** Splits snake_case, kebab-case, dotted and camelCase names into lower-case words. */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const endsSecret = (joined: string): boolean => SECRET_ENDINGS.some((ending) => joined.endsWith(ending));

// Field names repeat (every log line has job_id, flow_id...): answers are kept, up to a
// bound, so masking a context costs a lookup per key instead of three regex passes.
const KNOWN_KEYS_MAX = 10_000;
const knownKeys = new Map<string, boolean>();

/** Whether a field name carries a secret (case-insensitive; snake, kebab or camel case). */
export function isSecretKey(key: string): boolean {
  if (typeof key !== 'string') return false;
  const known = knownKeys.get(key);
  if (known !== undefined) return known;
  const secret = classifyKey(key);
  if (knownKeys.size < KNOWN_KEYS_MAX) knownKeys.set(key, secret);
  return secret;
}

function classifyKey(key: string): boolean {
  const parts = words(key);
  if (parts.length === 0) return false;
  if (endsSecret(parts.join(''))) return true;
  const last = parts[parts.length - 1]!;
  return parts.length > 1 && SECRET_QUALIFIERS.has(last) && endsSecret(parts.slice(0, -1).join(''));
}

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * A deep copy of plain objects and arrays in which every value under a secret-named key
 * is masked: strings with maskSecret, numbers and other scalars with the fixed mask,
 * objects and arrays leaf by leaf. Booleans, null and undefined stay (`has_password:
 * true` reveals nothing). Cycles are preserved, not followed forever. Instances of other
 * classes (Map, Error, ...) are returned as they are, except under a secret key.
 */
export function maskDeep<T>(value: T): T {
  // One memo per mode: the same object may be reachable under a secret and a plain key.
  const copies = { plain: new WeakMap<object, unknown>(), secret: new WeakMap<object, unknown>() };

  const walk = (input: unknown, secret: boolean): unknown => {
    if (input === null || input === undefined || typeof input === 'boolean') return input;
    if (typeof input === 'string') return secret ? maskSecret(input) : input;
    if (typeof input !== 'object') return secret && typeof input !== 'function' ? MASK : input;
    if (input instanceof Date) return secret ? MASK : new Date(input.getTime());
    if (ArrayBuffer.isView(input)) return secret ? MASK : Buffer.isBuffer(input) ? Buffer.from(input) : input;
    if (!Array.isArray(input) && !isPlainObject(input)) return secret ? MASK : input;

    const memo = secret ? copies.secret : copies.plain;
    if (memo.has(input)) return memo.get(input);
    if (Array.isArray(input)) {
      const out: unknown[] = [];
      memo.set(input, out);
      for (const item of input) out.push(walk(item, secret));
      return out;
    }
    const out: Record<string, unknown> = Object.getPrototypeOf(input) === null ? Object.create(null) : {};
    memo.set(input, out);
    for (const [k, v] of Object.entries(input)) out[k] = walk(v, secret || isSecretKey(k));
    return out;
  };

  return walk(value, false) as T;
}

/** Secret field names redacted by the logger at the top level and one level down. */
export const LOGGED_SECRET_FIELDS: readonly string[] = [
  'password',
  'app_password',
  'new_password',
  'secret',
  'client_secret',
  'consumer_secret',
  'app_secret',
  'webhook_secret',
  'hmac_secret',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'api_key',
  'apiKey',
  'secretKey',
  'private_key',
  'authorization',
  'cookie',
];
