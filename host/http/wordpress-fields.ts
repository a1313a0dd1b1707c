/**
 * `_fields`, as WordPress's REST server applies it to every successful answer
 * (rest_filter_response_fields): `_fields=id,title.rendered` or `_fields[]=id` keeps only
 * the named fields of the object, or of each item of a list; a dot path keeps part of a
 * nested object, and naming a parent keeps it whole. Errors are answered whole.
 */
type Keep = { [key: string]: true | Keep };

/** The fields asked for, or null when the request names none. */
export function requestedFields(url: string): Keep | null {
  const at = url.indexOf('?');
  if (at < 0) return null;
  const query = new URLSearchParams(url.slice(at + 1));
  const names = [...query.getAll('_fields'), ...query.getAll('_fields[]')]
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return null;
  const keep: Keep = {};
  for (const name of names) {
    const parts = name.split('.');
    let level: Keep = keep;
    let covered = false;
    for (const part of parts.slice(0, -1)) {
      const next = level[part];
      // A parent already kept whole keeps its children too.
      if (next === true) {
        covered = true;
        break;
      }
      level = level[part] = next ?? {};
    }
    if (!covered) level[parts[parts.length - 1]!] = true;
  }
  return keep;
}

function intersect(value: unknown, keep: Keep): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(keep)) {
    if (!Object.hasOwn(value, key)) continue;
    const field = (value as Record<string, unknown>)[key];
    out[key] = rule === true ? field : intersect(field, rule);
  }
  return out;
}

/** The answer's body with only the requested fields (a list: of each item). */
export function filterFields(body: unknown, keep: Keep): unknown {
  return Array.isArray(body) ? body.map((item) => intersect(item, keep)) : intersect(body, keep);
}
