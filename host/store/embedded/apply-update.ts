import { UnsupportedQueryError, type Filter, type Projection, type Update } from '../../../core/store/port.js';
import { checkPath } from './json-path.js';

type Doc = Record<string, unknown>;
const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$push', '$pull', '$setOnInsert']);

function isEqual(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** Parent object of a dot path, created on the way when `create` is set. */
function parentOf(doc: Doc, path: string, create: boolean): { parent: Doc; key: string } | null {
  const segments = checkPath(path);
  let node: Doc = doc;
  for (const segment of segments.slice(0, -1)) {
    let next = node[segment];
    if (next === undefined || next === null) {
      if (!create) return null;
      next = {};
      node[segment] = next;
    }
    if (typeof next !== 'object' || Array.isArray(next) || next instanceof Date) {
      throw new UnsupportedQueryError(`Cannot update '${path}': '${segment}' is not an object`);
    }
    node = next as Doc;
  }
  return { parent: node, key: segments.at(-1)! };
}

export function checkUpdate(update: Update): void {
  if (!update || typeof update !== 'object') throw new UnsupportedQueryError('An update must be an object of operators');
  const keys = Object.keys(update);
  if (keys.length === 0) throw new UnsupportedQueryError('An update needs at least one operator');
  for (const key of keys) if (!UPDATE_OPERATORS.has(key)) throw new UnsupportedQueryError(`Unsupported update operator ${key}`);
  for (const fields of Object.values(update)) for (const path of Object.keys(fields ?? {})) {
    if (path === '_id') throw new UnsupportedQueryError("'_id' cannot be updated");
    checkPath(path);
  }
}

/** Applies $set/$unset/$inc/$push/$pull (and $setOnInsert when inserting) to a copy. */
export function applyUpdate(original: Doc, update: Update, inserting: boolean): Doc {
  checkUpdate(update);
  const doc = structuredClone(original);
  const ops: Array<[keyof Update, Record<string, unknown> | undefined]> = [
    ['$set', update.$set],
    ['$setOnInsert', inserting ? update.$setOnInsert : undefined],
    ['$unset', update.$unset],
    ['$inc', update.$inc],
    ['$push', update.$push],
    ['$pull', update.$pull],
  ];
  for (const [op, fields] of ops) {
    for (const [path, value] of Object.entries(fields ?? {})) {
      if (op === '$unset') {
        const at = parentOf(doc, path, false);
        if (at) delete at.parent[at.key];
        continue;
      }
      const { parent, key } = parentOf(doc, path, true)!;
      const current = parent[key];
      switch (op) {
        case '$set':
        case '$setOnInsert':
          parent[key] = structuredClone(value);
          break;
        case '$inc':
          if (typeof value !== 'number') throw new UnsupportedQueryError(`$inc on '${path}' needs a number`);
          if (current !== undefined && current !== null && typeof current !== 'number') throw new UnsupportedQueryError(`$inc on '${path}': the field is not a number`);
          parent[key] = ((current as number | undefined) ?? 0) + value;
          break;
        case '$push':
          if (current !== undefined && !Array.isArray(current)) throw new UnsupportedQueryError(`$push on '${path}': the field is not an array`);
          parent[key] = [...((current as unknown[]) ?? []), structuredClone(value)];
          break;
        case '$pull':
          if (Array.isArray(current)) parent[key] = current.filter((item) => !isEqual(item, value));
          break;
      }
    }
  }
  return doc;
}

/** The document an upsert starts from: the filter's equality fields (like MongoDB). */
export function seedFromFilter(filter: Filter): Doc {
  const doc: Doc = {};
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (key.startsWith('$')) continue;
    let v = value;
    if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof RegExp)) {
      const ops = v as Record<string, unknown>;
      if (!('$eq' in ops)) continue;
      v = ops.$eq;
    }
    if (v instanceof RegExp) continue;
    if (key === '_id') {
      doc._id = v;
      continue;
    }
    const { parent, key: last } = parentOf(doc, key, true)!;
    parent[last] = structuredClone(v);
  }
  return doc;
}

/** Inclusion or exclusion projection; `_id` kept unless `_id: 0`. */
export function project<T extends Doc>(doc: T, projection: Projection | undefined): T {
  if (!projection || Object.keys(projection).length === 0) return doc;
  const entries = Object.entries(projection);
  const inclusive = entries.some(([k, v]) => k !== '_id' && v === 1);
  const exclusive = entries.some(([k, v]) => k !== '_id' && v === 0);
  if (inclusive && exclusive) throw new UnsupportedQueryError('A projection cannot mix inclusion and exclusion');
  const keepId = projection._id !== 0;
  if (inclusive) {
    const out: Doc = {};
    if (keepId && '_id' in doc) out._id = doc._id;
    for (const [path, flag] of entries) {
      if (path === '_id' || flag !== 1) continue;
      const segments = checkPath(path);
      let src: unknown = doc;
      for (const s of segments) src = src && typeof src === 'object' ? (src as Doc)[s] : undefined;
      if (src === undefined) continue;
      let dst = out;
      for (const s of segments.slice(0, -1)) dst = (dst[s] ??= {}) as Doc;
      dst[segments.at(-1)!] = src;
    }
    return out as T;
  }
  const out = structuredClone(doc) as Doc;
  for (const [path, flag] of entries) {
    if (flag !== 0) continue;
    const at = parentOf(out, path, false);
    if (at) delete at.parent[at.key];
  }
  if (!keepId) delete out._id;
  return out as T;
}
