import { UnsupportedQueryError } from '../../../core/store/port.js';

/** Field paths that may reach SQL text: letters, digits and `_`, joined by dots. */
const PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

/**
 * Paths already checked, with their segments (frozen: every caller shares them). Every
 * filter, update and projection checks its paths on every call, and the same few dozen
 * paths come back all the time: the regular expression and the split were about 30 µs of
 * a drained webhook run. Bounded, since a path may come from a client's query.
 */
const checked = new Map<string, readonly string[]>();
const CHECKED_MAX = 4096;

/**
 * Checks a field path and splits it. Only paths that pass ever reach SQL text (as a JSON
 * path literal); every value is a bound parameter.
 */
export function checkPath(path: string): readonly string[] {
  const known = checked.get(path);
  if (known) return known;
  if (typeof path !== 'string' || !PATH.test(path)) {
    throw new UnsupportedQueryError(`Unsupported field path '${String(path)}' (letters, digits, '_' and dots only)`);
  }
  const segments = Object.freeze(path.split('.'));
  if (checked.size >= CHECKED_MAX) checked.clear();
  checked.set(path, segments);
  return segments;
}

/** SQLite JSON path literal for checked segments, e.g. `'$."context"."flow_id"'`. */
export function jsonPathLiteral(segments: readonly string[]): string {
  return `'$.${segments.map((s) => `"${s}"`).join('.')}'`;
}

/**
 * The SQL expression of a document field. Queries, sorts and `createIndex` all use this
 * exact text: SQLite only uses an expression index when the expression is identical.
 * `_id` is the primary-key column.
 */
export function fieldExpr(path: string): string {
  if (path === '_id') return '_id';
  return `json_extract(doc, ${jsonPathLiteral(checkPath(path))})`;
}

/** JSON type of a document field (`NULL` when missing, `'null'` when null). */
export function typeExpr(path: string): string {
  if (path === '_id') return `'text'`;
  return `json_type(doc, ${jsonPathLiteral(checkPath(path))})`;
}
