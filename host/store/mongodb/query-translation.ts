import { isPlainObject, isOperatorObject } from '../../../core/store/document-shape.js';
import { BSONRegExp, type Document } from 'mongodb';
import { UnsupportedQueryError, type Filter, type Projection, type SortSpec, type Update } from '../../../core/store/port.js';

/*
 * Validates the port's query subset and turns it into MongoDB syntax. The rules and the
 * messages are the embedded adapter's (host/store/embedded/filter-to-sql.ts,
 * apply-update.ts, json-path.ts), so a query outside the subset fails the same way on
 * both stores instead of working on MongoDB and failing on a laptop.
 */

const PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const COLLECTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const INDEX_NAME = /^[A-Za-z0-9_-]+$/;
const FIELD_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options', '$elemMatch']);
const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$push', '$pull', '$setOnInsert']);

export function checkPath(path: string): string {
  if (typeof path !== 'string' || !PATH.test(path))
    throw new UnsupportedQueryError(`Unsupported field path '${String(path)}' (letters, digits, '_' and dots only)`);
  return path;
}

export function checkCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name)) throw new UnsupportedQueryError(`Invalid collection name '${name}'`);
  return name;
}

interface RegexParts {
  source: string;
  /** Without `g` (meaningless for a match) and `u` (MongoDB patterns are always UTF-8). */
  options: string;
}

function regexParts(path: string, pattern: unknown, options = ''): RegexParts {
  const source = pattern instanceof RegExp ? pattern.source : String(pattern);
  const flags = (pattern instanceof RegExp ? pattern.flags : options).replace(/g/g, '');
  if (/[^imsu]/.test(flags)) throw new UnsupportedQueryError(`Unsupported regex flags '${flags}' (i, m, s, u)`);
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw new UnsupportedQueryError(`Invalid $regex for '${path}': ${(error as Error).message}`);
  }
  return { source, options: [...new Set(flags.replace(/u/g, ''))].sort().join('') };
}

/**
 * A regex as a BSON value. Never a JS RegExp: the driver's serializer writes a RegExp's
 * `g` flag as BSON `s` and drops its `s` flag.
 */
function bsonRegex(path: string, pattern: RegExp): BSONRegExp {
  const { source, options } = regexParts(path, pattern);
  return new BSONRegExp(source, options);
}

function regexOperator(path: string, pattern: unknown, options = ''): Document {
  const parts = regexParts(path, pattern, options);
  return parts.options ? { $regex: parts.source, $options: parts.options } : { $regex: parts.source };
}

/** A value compared for equality (also each element of `$in` / `$nin`). */
function equalityValue(path: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError('Invalid Date cannot be stored');
    return value;
  }
  if (value instanceof RegExp) return bsonRegex(path, value);
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'object':
      return value;
    default:
      throw new UnsupportedQueryError(`Unsupported value of type ${typeof value} for '${path}'`);
  }
}

function listOf(path: string, values: unknown): unknown[] {
  if (!Array.isArray(values)) throw new UnsupportedQueryError(`$in / $nin on '${path}' needs an array`);
  return values.map((v) => equalityValue(path, v));
}

function fieldOperators(path: string, ops: Record<string, unknown>): Document {
  const out: Document = {};
  for (const [op, value] of Object.entries(ops)) {
    if (!FIELD_OPERATORS.has(op)) throw new UnsupportedQueryError(`Unsupported operator ${op} on '${path}'`);
    switch (op) {
      case '$eq':
        // `$eq: /re/` is a regex match on the embedded store; in MongoDB it would compare
        // with a stored regex value. Written as $regex, both stores match.
        if (value instanceof RegExp) Object.assign(out, regexOperator(path, value));
        else out.$eq = equalityValue(path, value);
        break;
      case '$ne':
        // MongoDB refuses a regex under $ne. `$nin: [regex]` is the same test (it also
        // matches a missing field), and unlike `$not` the test server gets it right.
        if (value instanceof RegExp) out.$nin = [...((out.$nin as unknown[] | undefined) ?? []), bsonRegex(path, value)];
        else out.$ne = equalityValue(path, value);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (!(value instanceof Date || typeof value === 'number' || typeof value === 'string')) {
          throw new UnsupportedQueryError(`${op} on '${path}' needs a number, string or Date`);
        }
        out[op] = equalityValue(path, value);
        break;
      case '$in':
        out.$in = listOf(path, value);
        break;
      case '$nin':
        out.$nin = [...((out.$nin as unknown[] | undefined) ?? []), ...listOf(path, value)];
        break;
      case '$exists':
        out.$exists = Boolean(value);
        break;
      case '$regex':
        Object.assign(out, regexOperator(path, value, typeof ops.$options === 'string' ? ops.$options : ''));
        break;
      case '$options':
        if (!('$regex' in ops)) throw new UnsupportedQueryError(`$options on '${path}' needs $regex`);
        break;
      case '$elemMatch':
        if (!isOperatorObject(value)) throw new UnsupportedQueryError(`$elemMatch on '${path}' needs field operators such as {$eq: value}`);
        out.$elemMatch = fieldOperators(path, value);
        break;
    }
  }
  return out;
}

/**
 * One field's condition as filter clauses. A `$regex` gets clauses of its own, with a
 * `$type: 'string'` beside it: MongoDB matches a regex against strings only, but the
 * test server (mongo-java-server) also matches numbers and dates by their text, and
 * ignores any operator written next to `$regex`. Separate clauses mean the same on both.
 */
function fieldClauses(path: string, ops: Record<string, unknown>): Document[] {
  const translated = fieldOperators(path, ops);
  if (!('$regex' in translated)) return [{ [path]: translated }];
  const { $regex, $options, ...others } = translated;
  const clauses: Document[] = [{ [path]: { $type: 'string' } }, { [path]: $options ? { $regex, $options } : { $regex } }];
  if (Object.keys(others).length > 0) clauses.push({ [path]: others });
  return clauses;
}

/** A port filter as a MongoDB filter; throws UnsupportedQueryError outside the subset. */
export function toMongoFilter(filter: Filter | undefined | null): Document {
  if (filter === undefined || filter === null) return {};
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new UnsupportedQueryError('A filter must be an object');
  const out: Document = {};
  const extra: Document[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw new UnsupportedQueryError(`${key} needs a non-empty array of filters`);
      out[key] = value.map((f) => toMongoFilter(f as Filter));
      continue;
    }
    if (key.startsWith('$')) throw new UnsupportedQueryError(`Unsupported top-level operator ${key}`);
    checkPath(key);
    let clauses: Document[];
    if (isOperatorObject(value)) clauses = fieldClauses(key, value);
    else if (value instanceof RegExp) clauses = fieldClauses(key, { $regex: value });
    else if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
      throw new UnsupportedQueryError(`Unsupported mix of operators and fields for '${key}'`);
    } else clauses = [{ [key]: equalityValue(key, value) }];
    if (clauses.length === 1) out[key] = clauses[0]![key];
    else extra.push(...clauses);
  }
  if (extra.length > 0) out.$and = [...((out.$and as Document[] | undefined) ?? []), ...extra];
  return out;
}

/**
 * The `_id` an upsert of this filter takes from it: an equality on `_id` at the top level
 * or inside a top-level `$and` (where MongoDB takes it from); undefined when there is none.
 */
export function idFromFilter(filter: Filter | undefined | null): unknown {
  if (!filter) return undefined;
  const id = filter._id;
  if (id !== undefined && !(id instanceof RegExp)) {
    if (!isOperatorObject(id)) return id;
    if ('$eq' in id) return id.$eq;
  }
  if (!Array.isArray(filter.$and)) return undefined;
  for (const part of filter.$and) {
    const found = idFromFilter(part as Filter);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A port update as a MongoDB update document. */
export function toMongoUpdate(update: Update): Document {
  if (!update || typeof update !== 'object') throw new UnsupportedQueryError('An update must be an object of operators');
  const keys = Object.keys(update);
  if (keys.length === 0) throw new UnsupportedQueryError('An update needs at least one operator');
  for (const key of keys) if (!UPDATE_OPERATORS.has(key)) throw new UnsupportedQueryError(`Unsupported update operator ${key}`);

  const out: Document = {};
  for (const [op, fields] of Object.entries(update) as Array<[string, Record<string, unknown> | undefined]>) {
    if (fields === undefined || fields === null) continue;
    if (typeof fields !== 'object' || Array.isArray(fields)) throw new UnsupportedQueryError(`${op} needs an object of field paths`);
    const translated: Document = {};
    for (const [path, value] of Object.entries(fields)) {
      if (path === '_id') throw new UnsupportedQueryError("'_id' cannot be updated");
      checkPath(path);
      if (op === '$inc' && typeof value !== 'number') throw new UnsupportedQueryError(`$inc on '${path}' needs a number`);
      if ((op === '$push' || op === '$pull') && isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
        throw new UnsupportedQueryError(`${op} on '${path}' takes a plain value (modifiers such as $each are not supported)`);
      }
      // The port's $pull removes elements *equal* to the value; MongoDB's $pull with a
      // document would remove every element that merely contains its fields. $in keeps
      // it to equality.
      translated[path] = op === '$pull' ? { $in: [value] } : value;
    }
    out[op] = translated;
  }
  // An update whose operators were all undefined changes nothing (as on the embedded store).
  if (Object.keys(out).length === 0) out.$set = {};
  return out;
}

export function checkSort(sort: SortSpec | undefined): SortSpec | undefined {
  if (!sort || Object.keys(sort).length === 0) return undefined;
  for (const [path, dir] of Object.entries(sort)) {
    checkPath(path);
    if (dir !== 1 && dir !== -1) throw new UnsupportedQueryError(`Sort direction for '${path}' must be 1 or -1`);
  }
  return sort;
}

export function checkProjection(projection: Projection | undefined): Projection | undefined {
  if (!projection || Object.keys(projection).length === 0) return undefined;
  const entries = Object.entries(projection);
  for (const [path, flag] of entries) {
    checkPath(path);
    if (flag !== 0 && flag !== 1) throw new UnsupportedQueryError(`Projection of '${path}' must be 0 or 1`);
  }
  const inclusive = entries.some(([k, v]) => k !== '_id' && v === 1);
  const exclusive = entries.some(([k, v]) => k !== '_id' && v === 0);
  if (inclusive && exclusive) throw new UnsupportedQueryError('A projection cannot mix inclusion and exclusion');
  return projection;
}

export function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new UnsupportedQueryError(`${name} must be a non-negative integer`);
  return value;
}

/** The index name the embedded store would use, so both stores report the same one. */
export function indexName(fields: Record<string, 1 | -1>, name: string | undefined): string {
  const entries = Object.entries(fields ?? {});
  if (entries.length === 0) throw new UnsupportedQueryError('An index needs at least one field');
  for (const [path, dir] of entries) {
    checkPath(path);
    if (dir !== 1 && dir !== -1) throw new UnsupportedQueryError(`Index direction for '${path}' must be 1 or -1`);
  }
  const chosen = name ?? entries.map(([f, d]) => `${f.replace(/\./g, '_')}_${d}`).join('_');
  if (!INDEX_NAME.test(chosen)) throw new UnsupportedQueryError(`Invalid index name '${chosen}'`);
  return chosen;
}
