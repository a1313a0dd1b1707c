import { escapeRegExp as escapeRegex } from '../../core/store/document-shape.js';
// Agenda's database-agnostic query options (RemoveJobsOptions, JobsQueryOptions) turned
// into port filters and sorts. Same meaning as Agenda's MongoDB backend; ids are the
// port's string ids, so there is no "invalid ObjectId" case, only "no such id".
import type { JobsQueryOptions, JobsSort, RemoveJobsOptions } from 'agenda';
import type { Filter, SortSpec } from '../../core/store/port.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `{a: 1, b: {c: 2}}` → `{'data.a': 1, 'data.b.c': 2}`: a partial match on `data`. */
function flattenData(data: Record<string, unknown>, prefix = 'data'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const path = `${prefix}.${key}`;
    if (isPlainObject(value)) Object.assign(out, flattenData(value, path));
    else out[path] = value;
  }
  return out;
}

function dataFilter(data: unknown): Filter {
  if (data === undefined) return {};
  return isPlainObject(data) ? flattenData(data) : { data };
}

const strings = (values: unknown): string[] => (Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : []);

/** The filter for cancel / disable / enable; null when the options select nothing (never "all"). */
export function filterFromRemoveOptions(options: RemoveJobsOptions): Filter | null {
  const filter: Filter = {};
  if (options.id !== undefined && options.id !== null && options.id !== '') filter._id = String(options.id);
  else if (Array.isArray(options.ids) && options.ids.length > 0) filter._id = { $in: options.ids.map(String) };
  const names = strings(options.names);
  const notNames = strings(options.notNames);
  if (typeof options.name === 'string' && options.name) filter.name = options.name;
  else if (names.length > 0) filter.name = { $in: names };
  else if (notNames.length > 0) filter.name = { $nin: notNames };
  Object.assign(filter, dataFilter(options.data));
  return Object.keys(filter).length > 0 ? filter : null;
}

/** The filter for queryJobs (state is computed afterwards, in code). */
export function filterFromQueryOptions(options: JobsQueryOptions): Filter {
  const filter: Filter = {};
  const names = strings(options.names);
  if (typeof options.name === 'string' && options.name) filter.name = options.name;
  else if (names.length > 0) filter.name = { $in: names };
  const ids = strings(options.ids);
  if (typeof options.id === 'string' && options.id) filter._id = options.id;
  else if (ids.length > 0) filter._id = { $in: ids };
  if (typeof options.search === 'string' && options.search) filter.name = { $regex: escapeRegex(options.search), $options: 'i' };
  Object.assign(filter, dataFilter(options.data));
  if (options.includeDisabled === false) filter.disabled = { $ne: true };
  return filter;
}

/**
 * Agenda's sort keys as a port sort. `data` is dropped: sorting by a whole subdocument has
 * no order the port promises (it only orders missing/null, numbers and strings).
 */
export function sortFromQueryOptions(sort: JobsSort | undefined): SortSpec {
  const out: SortSpec = {};
  for (const key of ['nextRunAt', 'lastRunAt', 'lastFinishedAt', 'priority', 'name'] as const) {
    const direction = sort?.[key];
    if (direction !== undefined) out[key] = direction === 'asc' ? 1 : -1;
  }
  return Object.keys(out).length > 0 ? out : { nextRunAt: -1, lastRunAt: -1 };
}
