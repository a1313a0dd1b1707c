/**
 * The difference between two revisions' snapshots, by jsondiffpatch (never hand-written):
 * RFC 6902 operations (its jsonpatch formatter) for clients that apply or inspect them,
 * and each changed path with its value before and after, for a person reading it (the
 * console lists those). Arrays of steps are matched by their ids, so a reordered or
 * inserted step reads as a move or an add, not as every later step changed.
 */
import { create } from 'jsondiffpatch';
import { format } from 'jsondiffpatch/formatters/jsonpatch';

// Without a text-diff library strings are compared whole: a prompt's change is its old and
// new text, not a character patch (which the jsonpatch formatter could not express anyway).
const differ = create({
  objectHash: (item: object, index?: number) => {
    const record = item as Record<string, unknown>;
    const id = record.pipeline_step_id ?? record.flow_step_id;
    return typeof id === 'string' ? id : `$$index:${index ?? 0}`;
  },
});

export interface RevisionChange {
  /** JSON pointer of what changed (RFC 6901). */
  path: string;
  op: 'add' | 'remove' | 'replace' | 'move';
  /** The value at `path` in the older revision; absent when it was added. */
  before?: unknown;
  /** The value at `path` in the newer one; absent when it was removed. */
  after?: unknown;
  /** A secret changed where both revisions show the same mask: no values, only the path. */
  secret?: true;
  /** The step a `/steps/{key}/…` path is in, as a person knows it (see StepName). */
  step?: StepName;
}

/** A step as the user knows it: its position (1-based), its type, its ids. */
export interface StepName {
  pipeline_step_id: string;
  /** A flow's step: the id the flows routes take (`{pipeline_step_id}_{flow_id}`). */
  flow_step_id?: string;
  position: number;
  step_type: string;
}

/** Each change under `/steps/{key}` with its step named (`names`: by the snapshot's step key). */
export function namedSteps(changes: readonly RevisionChange[], names: ReadonlyMap<string, StepName>): RevisionChange[] {
  return changes.map((change) => {
    const [, top, key] = change.path.split('/');
    const name = top === 'steps' && key !== undefined ? names.get(key.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
    return name ? { ...change, step: name } : change;
  });
}

/** The value at a JSON pointer, or undefined. */
function at(document: unknown, pointer: string): unknown {
  let value = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function revisionDiff(
  from: Record<string, unknown>,
  to: Record<string, unknown>,
): { patch: ReturnType<typeof format>; changes: RevisionChange[] } {
  const delta = differ.diff(from, to);
  const patch = delta ? format(delta) : [];
  const changes = patch.map((op): RevisionChange => {
    if (op.op === 'move') return { op: 'move', path: op.path, before: at(from, op.from), after: at(to, op.path) };
    const before = op.op === 'add' ? undefined : at(from, op.path);
    const after = op.op === 'remove' ? undefined : at(to, op.path);
    return {
      op: op.op,
      path: op.path,
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    };
  });
  return { patch, changes };
}

/**
 * The secrets that changed while their masks stayed the same (an application password
 * set anew): each a `replace` with `secret: true` and no values, from the revisions' keyed
 * fingerprints. A secret that appears or goes is in `changes` already (its mask does).
 */
export function secretChanges(
  from: Record<string, string> | undefined,
  to: Record<string, string> | undefined,
  changes: readonly RevisionChange[],
): RevisionChange[] {
  if (!from || !to) return [];
  const covered = (path: string) => changes.some((c) => c.path === path || path.startsWith(`${c.path}/`));
  return Object.keys(to)
    .filter((path) => path in from && from[path] !== to[path] && !covered(path))
    .sort()
    .map((path) => ({ op: 'replace', path, secret: true }));
}
