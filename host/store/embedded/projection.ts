import { UnsupportedQueryError, type Projection } from '../../../core/store/port.js';
import { checkPath } from './json-path.js';

type Doc = Record<string, unknown>;

/** Validates a projection; returns whether it is an inclusion (`{a: 1}`) projection. */
export function checkProjection(projection: Projection | undefined): { inclusive: boolean } | null {
  if (projection === undefined || projection === null) return null;
  if (typeof projection !== 'object' || Array.isArray(projection))
    throw new UnsupportedQueryError('A projection must be an object of field paths');
  const entries = Object.entries(projection);
  if (entries.length === 0) return null;
  for (const [path, flag] of entries) {
    checkPath(path);
    if (flag !== 0 && flag !== 1) throw new UnsupportedQueryError(`Projection of '${path}' must be 0 or 1`);
  }
  const fields = entries.filter(([path]) => path !== '_id');
  const inclusive = fields.some(([, flag]) => flag === 1);
  if (inclusive && fields.some(([, flag]) => flag === 0))
    throw new UnsupportedQueryError('A projection cannot mix inclusion and exclusion');
  // `{_id: 1}` alone is an inclusion of `_id` only; `{_id: 0}` alone excludes it.
  return { inclusive: inclusive || (fields.length === 0 && projection._id === 1) };
}

function pick(doc: Doc, segments: readonly string[]): unknown {
  let node: unknown = doc;
  for (const segment of segments) node = node && typeof node === 'object' && !Array.isArray(node) ? (node as Doc)[segment] : undefined;
  return node;
}

/** Inclusion or exclusion projection of a decoded document; `_id` is kept unless `_id: 0`. */
export function project<T extends Doc>(doc: T, projection: Projection | undefined): T {
  const shape = checkProjection(projection);
  if (!shape) return doc;
  const keepId = projection!._id !== 0;
  if (shape.inclusive) {
    const out: Doc = {};
    if (keepId && '_id' in doc) out._id = doc._id;
    for (const [path, flag] of Object.entries(projection!)) {
      if (path === '_id' || flag !== 1) continue;
      const segments = checkPath(path);
      const value = pick(doc, segments);
      if (value === undefined) continue;
      let target = out;
      for (const segment of segments.slice(0, -1)) target = (target[segment] ??= {}) as Doc;
      target[segments.at(-1)!] = value;
    }
    return out as T;
  }
  const out: Doc = { ...doc };
  for (const [path, flag] of Object.entries(projection!)) {
    if (flag !== 0 || path === '_id') continue;
    const segments = checkPath(path);
    // Copy each sub-document on the way so the decoded original is never changed.
    let node = out;
    for (const segment of segments.slice(0, -1)) {
      const next = node[segment];
      if (!next || typeof next !== 'object' || Array.isArray(next) || next instanceof Date) {
        node = {};
        break;
      }
      node = node[segment] = { ...(next as Doc) };
    }
    delete node[segments.at(-1)!];
  }
  if (!keepId) delete out._id;
  return out as T;
}
