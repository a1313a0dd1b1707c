import { isPlainObject } from '../../../core/store/document-shape.js';
import { UnsupportedQueryError, type Filter } from '../../../core/store/port.js';
import { checkPath } from './json-path.js';

type Doc = Record<string, unknown>;

/** The equality value of one filter condition, or undefined when it is not an equality. */
function equalityOf(value: unknown): unknown {
  if (value instanceof RegExp) return undefined;
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => k.startsWith('$'))) return value; // a sub-document
  return '$eq' in value && !(value.$eq instanceof RegExp) ? value.$eq : undefined;
}

function seedInto(doc: Doc, filter: Filter): void {
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (value === undefined) continue;
    if (key === '$and') {
      // MongoDB also takes equalities from a top-level $and (never from $or).
      if (Array.isArray(value)) for (const part of value) seedInto(doc, part as Filter);
      continue;
    }
    if (key.startsWith('$')) continue;
    const seed = equalityOf(value);
    if (seed === undefined) continue;
    const segments = checkPath(key);
    let node = doc;
    for (const segment of segments.slice(0, -1)) {
      const next = (node[segment] ??= {});
      if (!isPlainObject(next)) throw new UnsupportedQueryError(`Cannot upsert: the filter sets '${segment}' and a path below it`);
      node = next;
    }
    node[segments.at(-1)!] = structuredClone(seed);
  }
}

/** The document an upsert starts from: the filter's equality conditions, like MongoDB. */
export function seedFromFilter(filter: Filter): Doc {
  const doc: Doc = {};
  seedInto(doc, filter);
  return doc;
}
