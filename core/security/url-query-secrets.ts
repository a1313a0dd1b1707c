/**
 * Secrets written into a URL's query (`https://host/feed.xml?token=abc&page=2`): a private
 * feed or an API often takes its key that way, so a handler setting holding such a URL
 * carries a secret as surely as an `api_key` field. Which parameters are secret is the
 * request log's list (secret-parameters.ts). Only their values are rewritten (sealed,
 * masked, opened, dropped), so the rest of the address stays readable and byte for byte
 * as written.
 */
import { isSecretParameter } from './secret-parameters.js';

/** A secret parameter's value as written (percent-encoded or not); null drops the parameter. */
export type SecretValueRewrite = (value: string, name: string, occurrence: number) => string | null;

interface Query {
  /** Up to and including `?`. */
  before: string;
  parts: string[];
  /** From `#` on, or ''. */
  after: string;
}

function query(value: string): Query | null {
  if (typeof value !== 'string' || !value.includes('?') || !URL.canParse(value)) return null;
  const scheme = value.indexOf('://');
  if (scheme <= 0 || !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(value.slice(0, scheme))) return null;
  const at = value.indexOf('?');
  const hash = value.indexOf('#', at);
  const end = hash === -1 ? value.length : hash;
  return { before: value.slice(0, at + 1), parts: value.slice(at + 1, end).split('&'), after: value.slice(end) };
}

/** The `name=value` pairs of a URL's query whose name is secret and value not empty. */
export function secretParameters(value: string): Array<{ name: string; value: string }> {
  const parsed = query(value);
  if (!parsed) return [];
  const out: Array<{ name: string; value: string }> = [];
  for (const part of parsed.parts) {
    const equals = part.indexOf('=');
    if (equals > 0 && equals < part.length - 1 && isSecretParameter(part.slice(0, equals)))
      out.push({ name: part.slice(0, equals), value: part.slice(equals + 1) });
  }
  return out;
}

/**
 * The URL with every secret parameter's value rewritten (its nth occurrence of that name
 * counted from 0); null when `value` is not a URL with one, so callers keep it as it is.
 */
export function rewriteSecretParameters(value: string, rewrite: SecretValueRewrite): string | null {
  const parsed = query(value);
  if (!parsed || secretParameters(value).length === 0) return null;
  const seen = new Map<string, number>();
  const parts: string[] = [];
  for (const part of parsed.parts) {
    const equals = part.indexOf('=');
    if (!(equals > 0 && equals < part.length - 1 && isSecretParameter(part.slice(0, equals)))) {
      parts.push(part);
      continue;
    }
    const name = part.slice(0, equals);
    const occurrence = seen.get(name) ?? 0;
    seen.set(name, occurrence + 1);
    const next = rewrite(part.slice(equals + 1), name, occurrence);
    if (next !== null) parts.push(`${name}=${next}`);
  }
  const kept = parts.join('&');
  return kept === '' ? `${parsed.before.slice(0, -1)}${parsed.after}` : `${parsed.before}${kept}${parsed.after}`;
}

/** The scheme, host and port of a URL ('' when it is not one). */
export function originOf(value: string): string {
  return URL.canParse(value) ? new URL(value).origin : '';
}
