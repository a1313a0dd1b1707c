/**
 * The paths the `webhook` handler reads a payload by: dotted names with array indexes
 * (`data.items`, `commits[0].author.name`, `commits.0.id`). Parsed here by hand, never as
 * a pattern or code: a path only ever names where to look.
 */

/** One step of a path: a property name (a digit string also indexes an array) or an index. */
export type PathStep = { key: string } | { index: number };

/** Settings schemas refuse a malformed path when it is saved (the same grammar as parsePath). */
export const PATH_PATTERN = '^([^.\\[\\]]+(\\[[0-9]+\\])*(\\.[^.\\[\\]]+(\\[[0-9]+\\])*)*)?$';

export const PATH_MAX_LENGTH = 200;

/** Why a path cannot be read (its syntax) or does not lead anywhere (the payload). */
export class ItemPathError extends Error {}

/** `data.items[0].tags` as steps; '' is the root. Throws ItemPathError naming the path. */
export function parsePath(setting: string, path: string): PathStep[] {
  const steps: PathStep[] = [];
  if (path === '') return steps;
  const bad = (why: string) => new ItemPathError(`${setting} '${path}' is not a path: ${why}`);
  if (path.length > PATH_MAX_LENGTH) throw bad(`longer than ${PATH_MAX_LENGTH} characters`);
  for (const segment of path.split('.')) {
    const open = segment.indexOf('[');
    const name = open < 0 ? segment : segment.slice(0, open);
    if (!name) throw bad('every part needs a name (write data.items, data.items[0])');
    if (name.includes(']')) throw bad(`']' without '[' in '${segment}'`);
    steps.push({ key: name });
    let rest = open < 0 ? '' : segment.slice(open);
    while (rest) {
      const close = rest.indexOf(']');
      const digits = rest.slice(1, close);
      if (!rest.startsWith('[') || close < 0 || !/^[0-9]{1,9}$/.test(digits)) throw bad(`'${segment}' has an index that is not [number]`);
      steps.push({ index: Number(digits) });
      rest = rest.slice(close + 1);
    }
  }
  return steps;
}

/** The path of the first `count` steps, as a message names where reading stopped. */
export function pathText(steps: PathStep[], count = steps.length): string {
  let text = '';
  for (const step of steps.slice(0, count)) text += 'index' in step ? `[${step.index}]` : text ? `.${step.key}` : step.key;
  return text || 'the payload';
}

/**
 * A form field that holds JSON (GitHub's form content type sends `payload=<json>`) is read
 * through: a path may go on into it. Anything else is left as it is.
 */
function throughJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trimStart();
  if (!text.startsWith('{') && !text.startsWith('[')) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * What `steps` lead to in `root`. `{ found: false, at, why }` when they do not: `at` is how
 * many steps were read, `why` says what was there instead. `intoJson`: a JSON text found at
 * the end is read too (the items; a field's text stays text).
 */
export function readPath(
  root: unknown,
  steps: PathStep[],
  intoJson = false,
): { found: true; value: unknown } | { found: false; at: number; why: string } {
  let value = root;
  for (const [at, step] of steps.entries()) {
    value = throughJson(value);
    if ('index' in step || (Array.isArray(value) && /^[0-9]+$/.test(step.key))) {
      const index = 'index' in step ? step.index : Number(step.key);
      if (!Array.isArray(value)) return { found: false, at, why: `${kindOf(value)}, not an array` };
      if (index >= value.length) return { found: false, at, why: `an array of ${value.length}` };
      value = value[index];
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { found: false, at, why: `${kindOf(value)}, not an object` };
    if (!Object.hasOwn(value, step.key)) return { found: false, at, why: `an object without '${step.key}'` };
    value = (value as Record<string, unknown>)[step.key];
  }
  return { found: true, value: intoJson ? throughJson(value) : value };
}
