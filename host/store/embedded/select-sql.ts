import { UnsupportedQueryError, type Filter, type SortSpec } from '../../../core/store/port.js';
import { filterToSql, type SqlFragment } from './filter-to-sql.js';
import { sortToSql } from './sort-to-sql.js';

export interface SelectOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new UnsupportedQueryError(`${name} must be a non-negative integer`);
  return value;
}

/** The SELECT behind find / findOne / the read half of every update. `limit: 0` means none, as in MongoDB. */
export function selectSql(table: string, filter: Filter | undefined, options: SelectOptions, arrayPaths: ReadonlySet<string>): SqlFragment {
  const where = filterToSql(filter, arrayPaths);
  const limit = checkCount('limit', options.limit);
  const skip = checkCount('skip', options.skip);
  let sql = `SELECT _id, doc FROM ${table} WHERE ${where.sql}${sortToSql(options.sort)}`;
  const params = [...where.params];
  if (limit) {
    sql += ' LIMIT ?';
    params.push(limit);
  } else if (skip) sql += ' LIMIT -1';
  if (skip) {
    sql += ' OFFSET ?';
    params.push(skip);
  }
  return { sql, params };
}
