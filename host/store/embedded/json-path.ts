import { UnsupportedQueryError } from '../../../core/store/port.js';

const PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

/** Checks a field path; only safe paths ever reach SQL text (values are always bound). */
export function checkPath(path: string): string[] {
  if (typeof path !== 'string' || !PATH.test(path)) throw new UnsupportedQueryError(`Unsupported field path '${String(path)}' (letters, digits, '_' and dots only)`);
  return path.split('.');
}

/** SQLite JSON path literal, e.g. `'$."context"."flow_id"'`; identical text for queries and indexes. */
export function jsonPath(path: string): string {
  return `'$.${checkPath(path).map((s) => `"${s}"`).join('.')}'`;
}

/** The SQL expression of a field; `_id` is the primary-key column. */
export function fieldExpr(path: string): string {
  if (path === '_id') return '_id';
  return `json_extract(doc, ${jsonPath(path)})`;
}

export function typeExpr(path: string): string {
  if (path === '_id') return `'text'`;
  return `json_type(doc, ${jsonPath(path)})`;
}
