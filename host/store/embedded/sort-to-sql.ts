import { UnsupportedQueryError, type SortSpec } from '../../../core/store/port.js';
import { fieldExpr } from './json-path.js';

/**
 * ` ORDER BY ...` for a port sort ('' when there is none), over the same expressions as
 * the indexes so SQLite can read an index in order instead of sorting. SQLite's order
 * (NULL, then numbers, then text) gives MongoDB's ascending order for missing / null,
 * numbers and strings; Dates are marker-prefixed strings, so they sort in time order
 * among themselves.
 */
export function sortToSql(sort: SortSpec | undefined): string {
  if (sort === undefined || sort === null) return '';
  if (typeof sort !== 'object' || Array.isArray(sort)) throw new UnsupportedQueryError('A sort must be an object of field paths');
  const keys = Object.entries(sort);
  if (keys.length === 0) return '';
  return ` ORDER BY ${keys
    .map(([path, dir]) => {
      if (dir !== 1 && dir !== -1) throw new UnsupportedQueryError(`Sort direction for '${path}' must be 1 or -1`);
      return `${fieldExpr(path)} ${dir === 1 ? 'ASC' : 'DESC'}`;
    })
    .join(', ')}`;
}
