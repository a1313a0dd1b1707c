/** Masking of secrets in every response and log line. */

const MASK = '••••••••';
const SECRET_WORDS = ['password', 'passwd', 'secret', 'token', 'apikey', 'api_key', 'authorization', 'cookie', 'private_key', 'privatekey', 'credential'];

/** Masked form of a secret: '' when unset; the last 4 characters only for long values. */
export function maskSecret(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return value.length >= 16 ? `${MASK}${value.slice(-4)}` : MASK;
}

/** Whether a field name carries a secret (snake_case, camelCase or kebab-case). */
export function isSecretKey(key: string): boolean {
  const normal = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/-/g, '_').toLowerCase();
  const squashed = normal.replace(/_/g, '');
  return SECRET_WORDS.some((word) => normal.includes(word) || squashed.includes(word.replace(/_/g, '')));
}

/** A deep copy with every value under a secret-named key masked. */
export function maskDeep<T>(value: T): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (input: unknown, secret: boolean): unknown => {
    if (secret) return typeof input === 'string' ? maskSecret(input) : input === null || input === undefined ? input : MASK;
    if (input === null || typeof input !== 'object') return input;
    if (input instanceof Date) return new Date(input.getTime());
    if (seen.has(input)) return seen.get(input);
    if (Array.isArray(input)) {
      const out: unknown[] = [];
      seen.set(input, out);
      for (const item of input) out.push(walk(item, false));
      return out;
    }
    const out: Record<string, unknown> = {};
    seen.set(input, out);
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) out[k] = walk(v, isSecretKey(k));
    return out;
  };
  return walk(value, false) as T;
}

/** pino `redact` paths: headers and common secret fields, one and two levels deep. */
export const SECRET_LOG_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'cookie',
  ...['password', 'app_password', 'secret', 'client_secret', 'consumer_secret', 'app_secret', 'token', 'access_token', 'refresh_token', 'api_key', 'secretKey'].flatMap((k) => [k, `*.${k}`]),
];
