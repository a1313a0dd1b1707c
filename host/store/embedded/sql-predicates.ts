import { UnsupportedQueryError } from '../../../core/store/port.js';
import { DATE_PREFIX, DATE_UPPER, checkString, encodeDate, encodeValue } from './document-codec.js';

/** A piece of SQL with its bound parameters, in order of appearance. */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/**
 * Where one value sits: SQL for its value (as json_extract / json_each give it: true and
 * false read as 1 and 0) and for its JSON type name (NULL when missing).
 */
export interface Target {
  value: string;
  type: string;
}

export const TRUE: SqlFragment = { sql: '1', params: [] };
export const FALSE: SqlFragment = { sql: '0', params: [] };

function join(parts: SqlFragment[], word: 'AND' | 'OR'): SqlFragment {
  if (parts.length === 0) return word === 'AND' ? TRUE : FALSE;
  if (parts.length === 1) return parts[0]!;
  return { sql: `(${parts.map((p) => p.sql).join(` ${word} `)})`, params: parts.flatMap((p) => p.params) };
}

export const all = (parts: SqlFragment[]): SqlFragment => join(parts, 'AND');
export const any = (parts: SqlFragment[]): SqlFragment => join(parts, 'OR');

/** Negation that treats SQL's unknown (NULL, e.g. from a missing field) as false first. */
export function not(part: SqlFragment): SqlFragment {
  return { sql: `NOT IFNULL(${part.sql}, 0)`, params: part.params };
}

const NUMBER = `('integer','real')`;
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function checkNumber(value: number, path: string): number {
  if (!Number.isFinite(value)) throw new UnsupportedQueryError(`'${path}' cannot be compared with ${value}`);
  return value;
}

function jsonText(value: unknown): string {
  return JSON.stringify(encodeValue(value));
}

/** A regex as the one parameter of SQL `REGEXP`: `flags/source` (flags never hold a slash). */
export function regexParam(path: string, pattern: unknown, options: unknown = ''): string {
  if (!(pattern instanceof RegExp) && typeof pattern !== 'string')
    throw new UnsupportedQueryError(`$regex on '${path}' needs a RegExp or a string`);
  if (options !== undefined && typeof options !== 'string') throw new UnsupportedQueryError(`$options on '${path}' must be a string`);
  const source = pattern instanceof RegExp ? pattern.source : pattern;
  const flags = (pattern instanceof RegExp ? pattern.flags : (options ?? '')).replace(/g/g, '');
  if (/[^imsu]/.test(flags)) throw new UnsupportedQueryError(`Unsupported regex flags '${flags}' (i, m, s, u)`);
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw new UnsupportedQueryError(`Invalid $regex for '${path}': ${(error as Error).message}`);
  }
  return `${flags}/${source}`;
}

/** Only strings match a regex (dates are stored as strings, so the SQL function skips those). */
export function regexMatch(t: Target, pattern: unknown, options: unknown, path: string): SqlFragment {
  return { sql: `(${t.type} = 'text' AND ${t.value} REGEXP ?)`, params: [regexParam(path, pattern, options)] };
}

/*
 * When equality needs a json_type check. json_extract gives a JSON string as TEXT, an
 * object or array as its JSON TEXT (always starting with '{' or '['), true / false as
 * 1 / 0, and SQLite never converts between TEXT and numbers here (expressions and
 * parameters have no affinity). So only a string starting with '{' or '[', or the numbers
 * 0 and 1, could equal a value of another JSON type. Leaving the check out elsewhere lets
 * SQLite answer from the index alone: count({level: 'error'}) never reads a document.
 */
const mayLookLikeContainer = (value: string) => value.startsWith('{') || value.startsWith('[');
const mayLookLikeBoolean = (value: number) => value === 0 || value === 1;

/**
 * Equality with MongoDB's type brackets: a number never equals a string, booleans are not
 * numbers, null also matches a missing field, a RegExp is a pattern match. Each form
 * starts with a plain `value = ?` so SQLite can use an expression index on the field.
 */
export function equalTo(t: Target, value: unknown, path: string): SqlFragment {
  if (value === null || value === undefined) return { sql: `${t.value} IS NULL`, params: [] };
  if (value instanceof RegExp) return regexMatch(t, value, '', path);
  if (value instanceof Date) return { sql: `${t.value} = ?`, params: [encodeDate(value)] };
  switch (typeof value) {
    case 'string':
      checkString(value);
      return { sql: mayLookLikeContainer(value) ? `(${t.value} = ? AND ${t.type} = 'text')` : `${t.value} = ?`, params: [value] };
    case 'number':
      checkNumber(value, path);
      return { sql: mayLookLikeBoolean(value) ? `(${t.value} = ? AND ${t.type} IN ${NUMBER})` : `${t.value} = ?`, params: [value] };
    case 'boolean':
      return { sql: `(${t.value} = ? AND ${t.type} = '${value ? 'true' : 'false'}')`, params: [value ? 1 : 0] };
    case 'object':
      // Whole sub-document / array equality: field order matters, as in MongoDB. json()
      // renders the parameter exactly as SQLite renders the stored value.
      return { sql: `(${t.type} IN ('object','array') AND ${t.value} = json(?))`, params: [jsonText(value)] };
    default:
      throw new UnsupportedQueryError(`Unsupported value of type ${typeof value} for '${path}'`);
  }
}

/** `$in`: values grouped by type so the common case is one indexable `IN (...)`. */
export function inList(t: Target, values: unknown, path: string): SqlFragment {
  if (!Array.isArray(values)) throw new UnsupportedQueryError(`$in / $nin on '${path}' needs an array`);
  const strings: string[] = [];
  const numbers: number[] = [];
  const dates: string[] = [];
  const others: SqlFragment[] = [];
  let nullToo = false;
  for (const value of values) {
    if (value === null || value === undefined) nullToo = true;
    else if (typeof value === 'string') strings.push(checkString(value));
    else if (typeof value === 'number') numbers.push(checkNumber(value, path));
    else if (value instanceof Date) dates.push(encodeDate(value));
    else others.push(equalTo(t, value, path));
  }
  const parts: SqlFragment[] = [];
  if (strings.length) {
    const sql = `${t.value} IN (${placeholders(strings.length)})`;
    parts.push({ sql: strings.some(mayLookLikeContainer) ? `(${sql} AND ${t.type} = 'text')` : sql, params: strings });
  }
  if (numbers.length) {
    const sql = `${t.value} IN (${placeholders(numbers.length)})`;
    parts.push({ sql: numbers.some(mayLookLikeBoolean) ? `(${sql} AND ${t.type} IN ${NUMBER})` : sql, params: numbers });
  }
  if (dates.length) parts.push({ sql: `${t.value} IN (${placeholders(dates.length)})`, params: dates });
  if (nullToo) parts.push({ sql: `${t.value} IS NULL`, params: [] });
  parts.push(...others);
  return any(parts);
}

const SQL_COMPARISON = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
export type ComparisonOperator = keyof typeof SQL_COMPARISON;

/**
 * `$gt $gte $lt $lte` within one type bracket: numbers with numbers, strings with strings,
 * Dates with Dates. The extra bounds (`< ''` for numbers, `>= ''` for strings, the date
 * marker range for Dates) keep an index range scan inside the bracket; SQLite orders
 * NULL < numbers < text, and every encoded date sorts below ordinary text.
 */
export function compare(t: Target, op: ComparisonOperator, value: unknown, path: string): SqlFragment {
  const sqlOp = SQL_COMPARISON[op];
  if (value instanceof Date) {
    return { sql: `(${t.value} ${sqlOp} ? AND ${t.value} >= ? AND ${t.value} < ?)`, params: [encodeDate(value), DATE_PREFIX, DATE_UPPER] };
  }
  if (typeof value === 'number') {
    const upper = sqlOp.startsWith('>') ? ` AND ${t.value} < ''` : '';
    return { sql: `(${t.value} ${sqlOp} ?${upper} AND ${t.type} IN ${NUMBER})`, params: [checkNumber(value, path)] };
  }
  if (typeof value === 'string') {
    const lower = sqlOp.startsWith('<') ? ` AND ${t.value} >= ''` : '';
    return {
      sql: `(${t.value} ${sqlOp} ?${lower} AND ${t.type} = 'text' AND NOT (${t.value} >= ? AND ${t.value} < ?))`,
      params: [checkString(value), DATE_PREFIX, DATE_UPPER],
    };
  }
  throw new UnsupportedQueryError(`${op} on '${path}' needs a number, string or Date`);
}

export function isComparison(op: string): op is ComparisonOperator {
  return Object.hasOwn(SQL_COMPARISON, op);
}
