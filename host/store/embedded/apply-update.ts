import { UnsupportedQueryError, type Update } from '../../../core/store/port.js';
import { checkPath } from './json-path.js';

type Doc = Record<string, unknown>;
type Operator = keyof Update;

/** Applied in this order; MongoDB refuses two operators on one path, so order never changes a result. */
const OPERATORS: readonly Operator[] = ['$set', '$setOnInsert', '$unset', '$inc', '$push', '$pull'];

function isContainer(value: unknown): value is Doc {
  return !!value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

/** Equality for `$pull`: Dates by time, sub-documents and arrays by their JSON (field order counts, as in MongoDB). */
function isEqual(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * Validates an update before any document is read: known operators only, checked paths,
 * `_id` untouched, no two operators on the same or overlapping paths (MongoDB refuses
 * `{$set: {a: 1}, $inc: {'a.b': 1}}` as a conflict).
 */
export function checkUpdate(update: Update): void {
  if (!isContainer(update)) throw new UnsupportedQueryError('An update must be an object of operators');
  const keys = Object.keys(update);
  if (keys.length === 0) throw new UnsupportedQueryError('An update needs at least one operator');
  const seen: string[] = [];
  for (const key of keys) {
    if (!OPERATORS.includes(key as Operator)) throw new UnsupportedQueryError(`Unsupported update operator ${key}`);
    const fields = update[key as Operator];
    if (fields === undefined) continue;
    if (!isContainer(fields)) throw new UnsupportedQueryError(`${key} needs an object of field paths`);
    for (const [path, value] of Object.entries(fields)) {
      if (path === '_id') throw new UnsupportedQueryError("'_id' cannot be updated");
      checkPath(path);
      if (key === '$inc' && typeof value !== 'number') throw new UnsupportedQueryError(`$inc on '${path}' needs a number`);
      if ((key === '$push' || key === '$pull') && isContainer(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
        throw new UnsupportedQueryError(`${key} on '${path}' takes a plain value (modifiers such as $each are not supported)`);
      }
      const clash = seen.find((other) => other === path || other.startsWith(`${path}.`) || path.startsWith(`${other}.`));
      if (clash) throw new UnsupportedQueryError(`Updating '${path}' conflicts with updating '${clash}' in the same update`);
      seen.push(path);
    }
  }
}

/** The object holding the last segment of `path`; sub-documents are created on the way when `create`. */
function parentOf(doc: Doc, path: string, create: boolean): { parent: Doc; key: string } | null {
  const segments = checkPath(path);
  let node = doc;
  for (const segment of segments.slice(0, -1)) {
    let next = node[segment];
    if (next === undefined) {
      if (!create) return null;
      next = {};
      node[segment] = next;
    }
    if (!isContainer(next)) {
      if (!create) return null;
      throw new UnsupportedQueryError(`Cannot update '${path}': '${segment}' is not a sub-document`);
    }
    node = next;
  }
  return { parent: node, key: segments.at(-1)! };
}

function applyOne(doc: Doc, op: Operator, path: string, value: unknown): void {
  if (op === '$unset') {
    const at = parentOf(doc, path, false);
    if (at) delete at.parent[at.key];
    return;
  }
  if (op === '$pull') {
    const at = parentOf(doc, path, false);
    const current = at?.parent[at.key];
    if (current === undefined) return;
    if (!Array.isArray(current)) throw new UnsupportedQueryError(`$pull on '${path}': the field is not an array`);
    at!.parent[at!.key] = current.filter((item) => !isEqual(item, value));
    return;
  }
  const { parent, key } = parentOf(doc, path, true)!;
  const current = parent[key];
  switch (op) {
    case '$set':
    case '$setOnInsert':
      // Not copied: the updated document is only ever encoded (a new tree), never kept.
      parent[key] = value;
      return;
    case '$inc':
      if (current !== undefined && typeof current !== 'number')
        throw new UnsupportedQueryError(`$inc on '${path}': the field is not a number`);
      parent[key] = (current ?? 0) + (value as number);
      return;
    case '$push':
      if (current !== undefined && !Array.isArray(current))
        throw new UnsupportedQueryError(`$push on '${path}': the field is not an array`);
      parent[key] = [...(current ?? []), value];
      return;
  }
}

/**
 * Applies `$set $unset $inc $push $pull` (and `$setOnInsert` when an upsert inserts) to
 * `doc` itself, which the caller owns (just decoded, or seeded from a filter), and answers
 * it. The result shares the update's values, so it must go through `encodeStorable` (which
 * builds a new tree) before anyone keeps it: the collection always does. A copy of the
 * whole document per update (structuredClone) was a tenth of a drained webhook run's CPU.
 * A value of `undefined` is skipped, as the MongoDB adapter's driver does with
 * ignoreUndefined.
 */
export function applyUpdate(doc: Doc, update: Update, inserting: boolean): Doc {
  checkUpdate(update);
  for (const op of OPERATORS) {
    if (op === '$setOnInsert' && !inserting) continue;
    for (const [path, value] of Object.entries(update[op] ?? {})) {
      if (value !== undefined) applyOne(doc, op, path, value);
    }
  }
  return doc;
}
