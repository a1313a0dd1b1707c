/**
 * The adapter-independent half of `Collection.totals`: the spec's shape is checked the
 * same way on both stores, and "no groupBy" always answers exactly one group, even when
 * nothing matches (SQL answers one row there, MongoDB's `$group` none).
 */
import { UnsupportedQueryError, type TotalsGroup, type TotalsSpec } from './port.js';

export interface CheckedTotalsSpec {
  sum: string[];
  groupBy: string | undefined;
}

export function checkTotalsSpec(spec: TotalsSpec, checkPath: (path: string) => unknown): CheckedTotalsSpec {
  if (!spec || typeof spec !== 'object') throw new UnsupportedQueryError('totals needs a spec object');
  const sum = spec.sum ?? [];
  if (!Array.isArray(sum)) throw new UnsupportedQueryError('totals: sum must be an array of field paths');
  if (new Set(sum).size !== sum.length) throw new UnsupportedQueryError('totals: a field is summed twice');
  for (const path of sum) checkPath(path);
  if (spec.groupBy !== undefined) checkPath(spec.groupBy);
  return { sum, groupBy: spec.groupBy };
}

/** Without groupBy: the one group over everything, zeros when nothing matched. */
export function completeTotals(groups: TotalsGroup[], spec: CheckedTotalsSpec): TotalsGroup[] {
  if (spec.groupBy !== undefined) return groups;
  return [groups[0] ?? { key: null, count: 0, sums: Object.fromEntries(spec.sum.map((path) => [path, 0])) }];
}
