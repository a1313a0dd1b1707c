/**
 * `Collection.totals` on SQLite: one `SELECT COUNT(*), SUM(...) ... GROUP BY` over the
 * JSON documents, so the store adds up every matching row itself.
 */
import type { TotalsGroup } from '../../../core/store/port.js';
import type { CheckedTotalsSpec } from '../../../core/store/totals-spec.js';
import { filterToSql, type SqlFragment } from './filter-to-sql.js';
import { fieldExpr, typeExpr } from './json-path.js';

export interface TotalsRow {
  kind: string | null;
  k: string | number | null;
  n: number;
  [sum: `s${number}`]: number | null;
}

/**
 * Only numbers are added, as MongoDB's `$sum` does: SQLite's SUM would read the text
 * '12' as 12. The key's JSON type is grouped on too, because json_extract turns `true`
 * into 1; missing and null are one kind, as in MongoDB.
 */
export function totalsSql(
  table: string,
  filter: Parameters<typeof filterToSql>[0],
  spec: CheckedTotalsSpec,
  arrayPaths: ReadonlySet<string>,
): SqlFragment {
  const where = filterToSql(filter, arrayPaths);
  const sums = spec.sum.map((path, i) => `SUM(CASE WHEN ${typeExpr(path)} IN ('integer', 'real') THEN ${fieldExpr(path)} END) AS s${i}`);
  const kind =
    spec.groupBy === undefined
      ? 'NULL'
      : `CASE ${typeExpr(spec.groupBy)} WHEN 'true' THEN 'boolean' WHEN 'false' THEN 'boolean' WHEN 'integer' THEN 'number' WHEN 'real' THEN 'number' WHEN 'text' THEN 'text' ELSE 'null' END`;
  const key = spec.groupBy === undefined ? 'NULL' : fieldExpr(spec.groupBy);
  const group = spec.groupBy === undefined ? '' : ' GROUP BY kind, k';
  // Without GROUP BY, an aggregate SELECT answers one row even when nothing matches.
  const sql = `SELECT ${kind} AS kind, ${spec.groupBy === undefined ? key : `CASE WHEN ${kind} = 'null' THEN NULL ELSE ${key} END`} AS k, COUNT(*) AS n${sums.map((s) => `, ${s}`).join('')} FROM ${table} WHERE ${where.sql}${group}`;
  return { sql, params: where.params };
}

export function totalsFromRows(rows: TotalsRow[], spec: CheckedTotalsSpec): TotalsGroup[] {
  return rows.map((row) => ({
    key: row.kind === 'boolean' ? row.k === 1 : row.kind === 'null' ? null : row.k,
    count: row.n,
    sums: Object.fromEntries(spec.sum.map((path, i) => [path, row[`s${i}`] ?? 0])),
  }));
}
