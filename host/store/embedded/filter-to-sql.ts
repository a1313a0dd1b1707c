import { UnsupportedQueryError, type Filter } from '../../../core/store/port.js';
import { DATE_PREFIX, DATE_UPPER, encodeDate, encodeValue } from './document-codec.js';
import { fieldExpr, jsonPath, typeExpr } from './json-path.js';

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

const FIELD_OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options', '$elemMatch']);

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value) || value instanceof Date || value instanceof RegExp) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/**
 * Equality with MongoDB's type brackets: a number never equals a string, booleans are
 * not numbers, `null` also matches a missing field. The first term is always the plain
 * `expr = ?` so SQLite can use an expression index on the field.
 */
function equals(path: string, value: unknown): SqlFragment {
  const x = fieldExpr(path);
  const t = typeExpr(path);
  if (value === null || value === undefined) return { sql: `${x} IS NULL`, params: [] };
  if (value instanceof Date) return { sql: `${x} = ?`, params: [encodeDate(value)] };
  if (typeof value === 'string') return { sql: `(${x} = ? AND ${t} = 'text')`, params: [value] };
  if (typeof value === 'number') return { sql: `(${x} = ? AND ${t} IN ('integer','real'))`, params: [value] };
  if (typeof value === 'boolean') return { sql: `${t} = '${value ? 'true' : 'false'}'`, params: [] };
  if (value instanceof RegExp) return regex(path, value);
  if (typeof value === 'object') return { sql: `(${t} IN ('object','array') AND ${x} = ?)`, params: [JSON.stringify(encodeValue(value))] };
  throw new UnsupportedQueryError(`Unsupported value of type ${typeof value} for '${path}'`);
}

function compare(path: string, op: string, value: unknown): SqlFragment {
  const sqlOp = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]!;
  const x = fieldExpr(path);
  const t = typeExpr(path);
  if (value instanceof Date) {
    // Only dates compare with dates: bound the range to encoded dates.
    return { sql: `(${x} ${sqlOp} ? AND ${x} >= ? AND ${x} < ?)`, params: [encodeDate(value), DATE_PREFIX, DATE_UPPER] };
  }
  if (typeof value === 'number') return { sql: `(${x} ${sqlOp} ? AND ${t} IN ('integer','real'))`, params: [value] };
  if (typeof value === 'string') return { sql: `(${x} ${sqlOp} ? AND ${t} = 'text' AND NOT (${x} >= ? AND ${x} < ?))`, params: [value, DATE_PREFIX, DATE_UPPER] };
  throw new UnsupportedQueryError(`${op} on '${path}' needs a number, string or Date`);
}

function regex(path: string, pattern: RegExp | string, options = ''): SqlFragment {
  const source = pattern instanceof RegExp ? pattern.source : String(pattern);
  const flags = pattern instanceof RegExp ? pattern.flags : options;
  if (/[^imsu]/.test(flags.replace(/g/g, ''))) throw new UnsupportedQueryError(`Unsupported regex flags '${flags}' (i, m, s, u)`);
  try {
    new RegExp(source, flags.replace(/g/g, ''));
  } catch (error) {
    throw new UnsupportedQueryError(`Invalid $regex for '${path}': ${(error as Error).message}`);
  }
  return { sql: `(${typeExpr(path)} = 'text' AND flowhost_regexp(?, ?, ${fieldExpr(path)}))`, params: [source, flags.replace(/g/g, '')] };
}

function anyOf(path: string, values: unknown): SqlFragment {
  if (!Array.isArray(values)) throw new UnsupportedQueryError(`$in / $nin on '${path}' needs an array`);
  if (values.length === 0) return { sql: '0', params: [] };
  const parts = values.map((v) => equals(path, v));
  return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
}

/** `$elemMatch` with field operators over the elements of an array field. */
function elemMatch(path: string, condition: unknown): SqlFragment {
  if (!isOperatorObject(condition)) throw new UnsupportedQueryError(`$elemMatch on '${path}' needs field operators such as {$eq: value}`);
  const inner = operators('__elem', condition);
  const sql = inner.sql.replaceAll(fieldExpr('__elem'), 'je.value').replaceAll(typeExpr('__elem'), 'je.type');
  return { sql: `(${typeExpr(path)} = 'array' AND EXISTS (SELECT 1 FROM json_each(doc, ${jsonPath(path)}) AS je WHERE ${sql}))`, params: inner.params };
}

function operators(path: string, ops: Record<string, unknown>): SqlFragment {
  const parts: SqlFragment[] = [];
  for (const [op, value] of Object.entries(ops)) {
    if (!FIELD_OPERATORS.has(op)) throw new UnsupportedQueryError(`Unsupported operator ${op} on '${path}'`);
    const x = fieldExpr(path);
    switch (op) {
      case '$eq':
        parts.push(equals(path, value));
        break;
      case '$ne': {
        if (value === null) parts.push({ sql: `${x} IS NOT NULL`, params: [] });
        else {
          const eq = equals(path, value);
          parts.push({ sql: `(${x} IS NULL OR NOT ${eq.sql})`, params: eq.params });
        }
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        parts.push(compare(path, op, value));
        break;
      case '$in':
        parts.push(anyOf(path, value));
        break;
      case '$nin': {
        const inner = anyOf(path, value);
        const hasNull = (value as unknown[]).some((v) => v === null);
        parts.push(hasNull ? { sql: `(${x} IS NOT NULL AND NOT ${inner.sql})`, params: inner.params } : { sql: `(${x} IS NULL OR NOT ${inner.sql})`, params: inner.params });
        break;
      }
      case '$exists':
        parts.push({ sql: `${typeExpr(path)} IS ${value ? 'NOT NULL' : 'NULL'}`, params: [] });
        break;
      case '$regex':
        parts.push(regex(path, value as RegExp | string, typeof ops.$options === 'string' ? ops.$options : ''));
        break;
      case '$options':
        if (!('$regex' in ops)) throw new UnsupportedQueryError(`$options on '${path}' needs $regex`);
        break;
      case '$elemMatch':
        parts.push(elemMatch(path, value));
        break;
    }
  }
  return join(parts, 'AND');
}

function join(parts: SqlFragment[], word: 'AND' | 'OR'): SqlFragment {
  if (parts.length === 0) return { sql: word === 'AND' ? '1' : '0', params: [] };
  if (parts.length === 1) return parts[0]!;
  return { sql: `(${parts.map((p) => p.sql).join(` ${word} `)})`, params: parts.flatMap((p) => p.params) };
}

/** Translates a port filter into a WHERE clause with bound parameters. */
export function filterToSql(filter: Filter | undefined): SqlFragment {
  if (!filter) return { sql: '1', params: [] };
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new UnsupportedQueryError('A filter must be an object');
  const parts: SqlFragment[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) throw new UnsupportedQueryError(`${key} needs a non-empty array of filters`);
      parts.push(join(value.map((f) => filterToSql(f as Filter)), key === '$and' ? 'AND' : 'OR'));
      continue;
    }
    if (key.startsWith('$')) throw new UnsupportedQueryError(`Unsupported top-level operator ${key}`);
    parts.push(isOperatorObject(value) ? operators(key, value) : equals(key, value));
  }
  return join(parts, 'AND');
}
