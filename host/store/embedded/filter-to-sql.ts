import { isPlainObject, isOperatorObject } from '../../../core/store/document-shape.js';
import { UnsupportedQueryError, type Filter } from '../../../core/store/port.js';
import { checkPath, jsonPathLiteral } from './json-path.js';
import {
  TRUE,
  all,
  any,
  compare,
  equalTo,
  inList,
  isComparison,
  not,
  regexMatch,
  type SqlFragment,
  type Target,
} from './sql-predicates.js';

export type { SqlFragment } from './sql-predicates.js';

type Leaf = (target: Target) => SqlFragment;

/** One operator's test on a single value, and how it applies to a field. */
interface OperatorTest {
  leaf: Leaf;
  /** `$ne`, `$nin`, `$exists: false`: the negation of the positive test over the whole field. */
  negate: boolean;
  /** Whether elements of an array field are tested one by one (not for `$exists` / `$elemMatch`). */
  elements: boolean;
}

/** Where field paths start: the document itself, or an array element inside a sub-query. */
interface Scope {
  base: string;
  /** The logical path of `base` (for the array-path registry); '' for the document. */
  prefix: string;
}

const ROOT: Scope = { base: 'doc', prefix: '' };

const dotted = (prefix: string, segments: readonly string[]) => (prefix ? `${prefix}.${segments.join('.')}` : segments.join('.'));

/**
 * Translates a port filter into a WHERE clause with bound parameters, with MongoDB's
 * semantics (see core/store/port.ts). `arrayPaths` are the paths of this collection that
 * have held arrays (array-paths.ts): only those get element matching, so every other
 * condition stays a plain comparison on the indexed expression.
 */
export function filterToSql(filter: Filter | undefined | null, arrayPaths: ReadonlySet<string> = new Set()): SqlFragment {
  return new FilterCompiler(arrayPaths).filter(filter, ROOT);
}

class FilterCompiler {
  private aliases = 0;

  constructor(private readonly arrayPaths: ReadonlySet<string>) {}

  filter(filter: unknown, scope: Scope): SqlFragment {
    if (filter === undefined || filter === null) return TRUE;
    if (!isPlainObject(filter)) throw new UnsupportedQueryError('A filter must be an object');
    const parts: SqlFragment[] = [];
    for (const [key, value] of Object.entries(filter)) {
      // Skipped like the MongoDB adapter's driver does with ignoreUndefined.
      if (value === undefined) continue;
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) throw new UnsupportedQueryError(`${key} needs a non-empty array of filters`);
        const subs = value.map((sub) => this.filter(sub, scope));
        parts.push(key === '$and' ? all(subs) : any(subs));
        continue;
      }
      if (key.startsWith('$')) throw new UnsupportedQueryError(`Unsupported top-level operator ${key}`);
      parts.push(this.condition(scope, key, value));
    }
    return all(parts);
  }

  private condition(scope: Scope, path: string, value: unknown): SqlFragment {
    checkPath(path);
    if (isOperatorObject(value)) {
      return all(
        Object.entries(value).flatMap(([op, operand]) => {
          const test = this.operator(op, operand, value, path);
          if (!test) return [];
          const matched = this.field(scope, path, test.leaf, test.elements);
          return [test.negate ? not(matched) : matched];
        }),
      );
    }
    if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
      throw new UnsupportedQueryError(`Unsupported mix of operators and fields for '${path}'`);
    }
    return this.field(scope, path, (t) => equalTo(t, value, path), true);
  }

  /** The test for one field operator; null for `$options` (read together with `$regex`). */
  private operator(op: string, operand: unknown, ops: Record<string, unknown>, path: string): OperatorTest | null {
    const test = (leaf: Leaf, negate = false, elements = true): OperatorTest => ({ leaf, negate, elements });
    if (isComparison(op)) return test((t) => compare(t, op, operand, path));
    switch (op) {
      case '$eq':
        return test((t) => equalTo(t, operand, path));
      case '$ne':
        return test((t) => equalTo(t, operand, path), true);
      case '$in':
        return test((t) => inList(t, operand, path));
      case '$nin':
        return test((t) => inList(t, operand, path), true);
      case '$exists':
        return test((t) => ({ sql: `${t.type} IS NOT NULL`, params: [] }), !operand, false);
      case '$regex':
        return test((t) => regexMatch(t, operand, ops.$options, path));
      case '$options':
        if (!('$regex' in ops)) throw new UnsupportedQueryError(`$options on '${path}' needs $regex`);
        return null;
      case '$elemMatch':
        return test((t) => this.elemMatch(t, operand, path), false, false);
      default:
        throw new UnsupportedQueryError(`Unsupported operator ${op} on '${path}'`);
    }
  }

  /** `$elemMatch` with field operators: one element of an array field passes all of them. */
  private elemMatch(t: Target, condition: unknown, path: string): SqlFragment {
    if (!isOperatorObject(condition)) throw new UnsupportedQueryError(`$elemMatch on '${path}' needs field operators such as {$eq: value}`);
    const e = this.alias();
    const element: Target = { value: `${e}.value`, type: `${e}.type` };
    const inner = all(
      Object.entries(condition).flatMap(([op, operand]) => {
        if (op === '$elemMatch') throw new UnsupportedQueryError(`Nested $elemMatch on '${path}' is not supported`);
        const test = this.operator(op, operand, condition, path);
        if (!test) return [];
        const matched = test.leaf(element);
        return [test.negate ? not(matched) : matched];
      }),
    );
    return {
      sql: `(${t.type} = 'array' AND EXISTS (SELECT 1 FROM json_each(${t.value}) AS ${e} WHERE ${inner.sql}))`,
      params: inner.params,
    };
  }

  /** A test on a field, with MongoDB's array rules for paths that have held arrays. */
  private field(scope: Scope, path: string, leaf: Leaf, elements: boolean): SqlFragment {
    if (path === '_id' && scope.base === 'doc') return leaf({ value: '_id', type: `'text'` });
    return this.walk(scope.base, scope.prefix, checkPath(path), leaf, elements, 1);
  }

  /**
   * `segments` below `base`. When a leading part (checked from `from` on) has held an
   * array, the field matches either through that part as a sub-document, or through any
   * sub-document element of it (`items.name` against `items: [{name}, ...]`). When the
   * field itself has held an array, any element may pass the test too.
   */
  private walk(base: string, prefix: string, segments: readonly string[], leaf: Leaf, elements: boolean, from: number): SqlFragment {
    for (let i = from; i < segments.length; i++) {
      const head = segments.slice(0, i);
      if (!this.arrayPaths.has(dotted(prefix, head))) continue;
      const headPath = jsonPathLiteral(head);
      const asObject = all([
        { sql: `IFNULL(json_type(${base}, ${headPath}), '') <> 'array'`, params: [] },
        this.walk(base, prefix, segments, leaf, elements, i + 1),
      ]);
      const e = this.alias();
      const inner = this.walk(`${e}.value`, dotted(prefix, head), segments.slice(i), leaf, elements, 1);
      const throughElements: SqlFragment = {
        sql: `(json_type(${base}, ${headPath}) = 'array' AND EXISTS (SELECT 1 FROM json_each(${base}, ${headPath}) AS ${e} WHERE ${e}.type = 'object' AND ${inner.sql}))`,
        params: inner.params,
      };
      return any([asObject, throughElements]);
    }
    const full = jsonPathLiteral(segments);
    const direct = leaf({ value: `json_extract(${base}, ${full})`, type: `json_type(${base}, ${full})` });
    if (!elements || !this.arrayPaths.has(dotted(prefix, segments))) return direct;
    const e = this.alias();
    const inner = leaf({ value: `${e}.value`, type: `${e}.type` });
    return any([
      direct,
      {
        sql: `(json_type(${base}, ${full}) = 'array' AND EXISTS (SELECT 1 FROM json_each(${base}, ${full}) AS ${e} WHERE ${inner.sql}))`,
        params: inner.params,
      },
    ]);
  }

  private alias(): string {
    return `e${++this.aliases}`;
  }
}
