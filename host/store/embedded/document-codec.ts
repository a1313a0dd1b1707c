/**
 * JSON with Dates kept: a Date is stored as a sentinel-prefixed fixed-width ISO string,
 * so stored string order is time order (filters, sorts and indexes on dates work in SQL)
 * and reading turns it back into a Date.
 */
export const DATE_PREFIX = '\u0001\u0002date:';
/** Sorts after every encoded date and before any ordinary string. */
export const DATE_UPPER = '\u0001\u0002date;';

export function encodeDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new TypeError('Invalid Date cannot be stored');
  return `${DATE_PREFIX}${date.toISOString()}`;
}

export function encodeValue(value: unknown): unknown {
  if (value instanceof Date) return encodeDate(value);
  if (Array.isArray(value)) return value.map(encodeValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = encodeValue(v);
    return out;
  }
  return value;
}

export function encodeDocument(doc: Record<string, unknown>): string {
  return JSON.stringify(encodeValue(doc));
}

function reviver(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.startsWith(DATE_PREFIX) ? new Date(value.slice(DATE_PREFIX.length)) : value;
}

export function decodeDocument<T>(text: string): T {
  return JSON.parse(text, reviver) as T;
}
