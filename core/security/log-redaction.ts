import { LOGGED_SECRET_FIELDS } from './mask.js';

/** What a redacted value is logged as. */
export const REDACTED = '[redacted]';

const SECRET_FIELDS: ReadonlySet<string> = new Set(LOGGED_SECRET_FIELDS);
/** Credential headers by wire name, under `req.headers`, `res.headers` and a top-level `headers`. */
const REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
  'x-api-key',
  'x-wp-nonce',
  'x-flowhost-nonce',
]);
const RESPONSE_HEADERS: ReadonlySet<string> = new Set(['set-cookie']);
const TOP_LEVEL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'x-api-key']);

type Fields = Record<string, unknown>;

/**
 * A shallow copy that keeps what serializers need: an Error's message and stack are own
 * properties that are not enumerable, and a spread would drop them. An accessor is copied
 * as the value it gives on the original: on Node 24 an Error's `stack` is an accessor that
 * reads the error's internal state, and on a copy it would give nothing.
 */
function copyOf<T extends object>(value: T): T {
  if (Array.isArray(value)) return value.slice() as T;
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(value);
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as string]!;
    if (descriptor.get || descriptor.set) {
      descriptors[key as string] = {
        value: Reflect.get(value, key) as unknown,
        writable: true,
        enumerable: descriptor.enumerable,
        configurable: true,
      };
    }
  }
  return Object.create(Object.getPrototypeOf(value) as object | null, descriptors) as T;
}

/** `value` with each of `names` it holds replaced by REDACTED (a copy, only when one is there). */
function withoutFields(value: object, names: ReadonlySet<string>): object {
  let out: Fields | null = null;
  for (const key of Object.keys(value)) {
    if (names.has(key)) (out ??= copyOf(value) as Fields)[key] = REDACTED;
  }
  return out ?? value;
}

/** One level down: secret fields, and the credential headers of a request or response. */
function redactChild(parentKey: string, value: object): object {
  let out = withoutFields(value, SECRET_FIELDS);
  if (parentKey === 'headers') out = withoutFields(out, TOP_LEVEL_HEADERS);
  if ((parentKey === 'req' || parentKey === 'res') && !Array.isArray(out)) {
    const headers = (out as Fields).headers;
    if (headers && typeof headers === 'object') {
      const clean = withoutFields(headers, parentKey === 'req' ? REQUEST_HEADERS : RESPONSE_HEADERS);
      if (clean !== headers) {
        if (out === value) out = copyOf(value);
        (out as Fields).headers = clean;
      }
    }
  }
  return out;
}

/**
 * The logger's redaction, as a pino `formatters.log`: every secret field at the top of a
 * log object and one level down (`{ user: { password } }`), and credential headers under
 * `req.headers`, `res.headers` and `headers`. Field names inside user data deeper than
 * that must be passed through maskDeep before logging.
 *
 * It replaced pino's `redact` paths, which covered the same fields: with their `*.field`
 * wildcards they cost about 27 µs a line, two lines per webhook accepted, a third of the
 * trigger's CPU with logging on. This walk looks at the keys a line has and copies only
 * what it changes; the object logged is never modified.
 */
export function redactLogObject(object: Fields): Fields {
  let out: Fields | null = null;
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (SECRET_FIELDS.has(key)) (out ??= copyOf(object))[key] = REDACTED;
    else if (value !== null && typeof value === 'object') {
      const clean = redactChild(key, value);
      if (clean !== value) (out ??= copyOf(object))[key] = clean;
    }
  }
  return out ?? object;
}
