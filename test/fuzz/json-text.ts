// JSON text with pieces JSON.stringify cannot produce: number literals such as 1e999 or
// 9007199254740993 kept verbatim, nesting thousands of levels deep (built as a string, so
// neither the generator nor the serializer recurses that deep), and own `__proto__` keys.

/** A piece of JSON text inserted as is. */
export class RawJson {
  constructor(readonly text: string) {}
}

export const raw = (text: string): RawJson => new RawJson(text);

/** `depth` levels of arrays or objects around `inner`, e.g. [[[1]]] or {"a":{"a":1}}. */
export function deepJson(depth: number, shape: 'array' | 'object' = 'array', inner = '1'): RawJson {
  const open = shape === 'array' ? '[' : '{"a":';
  const close = shape === 'array' ? ']' : '}';
  return raw(open.repeat(depth) + inner + close.repeat(depth));
}

/** An object whose keys are all own data properties, `__proto__` included. */
export function bareObject(entries: Iterable<[string, unknown]> = []): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of entries) out[key] = value;
  return out;
}

/** Serializes generated values (shallow: the generators never nest deeper than a few levels). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .map((key) => `${JSON.stringify(key)}:${toJsonText((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value); // NaN / Infinity: invalid JSON on purpose
  return JSON.stringify(value);
}

/** A short, printable account of a value for failure reports. */
export function preview(text: string | Buffer, max = 300): string {
  const s = typeof text === 'string' ? text : `<${text.length} bytes> ${text.toString('latin1')}`;
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} chars)`;
}
