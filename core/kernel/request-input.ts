import { INPUT_LIMITS } from './input-limits.js';
import { apiError } from '../errors/catalogue.js';

/**
 * Decoding of request bytes into values, shared by the host's dispatcher and routes that
 * decode their own body (the webhook trigger, after checking a signature). Every object
 * built here has a null prototype, so `__proto__`, `constructor` and `prototype` are
 * ordinary keys; every JSON value is bounded in depth and finite before a route sees it.
 */

export type Params = Record<string, string | string[]>;

const invalidJson = (message: string) => apiError('rest_invalid_json', { message });

/**
 * Why a decoded JSON value cannot be accepted, or null. Iterative, so a hostile depth
 * cannot overflow the stack here (JSON.parse itself is iterative in V8).
 */
export function jsonValueProblem(value: unknown, maxDepth: number = INPUT_LIMITS.jsonDepth): string | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return 'a number is out of range (larger than a double can hold)';
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    if (depth + 1 > maxDepth) return `objects and arrays are nested deeper than ${maxDepth} levels`;
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return null;
}

/** JSON.parse, then the depth and number bounds; failures are 400 `rest_invalid_json` saying which rule. */
export function parseJsonInput(text: string, maxDepth: number = INPUT_LIMITS.jsonDepth): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidJson(`Invalid JSON body passed: ${(error as Error).message}`);
  }
  const problem = jsonValueProblem(value, maxDepth);
  if (problem) throw invalidJson(`Invalid JSON body passed: ${problem}.`);
  return value;
}

/** Every value of each name, in order (`a=1&a=2` keeps both), in a null-prototype object. */
export function allValues(params: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (const [name, value] of params) (out[name] ??= []).push(value);
  return out;
}

/** PHP-style: `a=1&a=2` and `a[]=1` become arrays, a name sent once a string. */
export function phpStyleParams(params: URLSearchParams): Params {
  const out: Params = Object.create(null);
  for (const [rawKey, value] of params) {
    const isList = rawKey.endsWith('[]');
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    const existing = out[key];
    if (existing === undefined) out[key] = isList ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[key] = [existing, value];
  }
  return out;
}

/** The query string of a request target as PHP-style params. */
export function parseQueryInput(url: string): Params {
  const index = url.indexOf('?');
  return phpStyleParams(new URLSearchParams(index < 0 ? '' : url.slice(index + 1)));
}

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}
