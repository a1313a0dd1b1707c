/**
 * A markdown file's front matter: a `---` line first, the block up to the next `---` (or
 * `...`) line, read by the `yaml` library so folded and literal scalars (`title: >`),
 * quoting and lists mean what YAML says.
 */
import { createRequire } from 'node:module';
import type { parse as parseFn } from 'yaml';

// yaml loads with the first file synced, not with the host (CommonJS, required synchronously).
const require = createRequire(import.meta.url);
let parseYaml: typeof parseFn | undefined;

export interface FrontMatter {
  /** Top-level keys, lower-cased; empty when there is no block or it is not a YAML mapping. */
  meta: Record<string, unknown>;
  /** The text after the block (all of it when there is none). */
  body: string;
}

const isFence = (line: string | undefined, closing: boolean) =>
  line !== undefined && (line.trimEnd() === '---' || (closing && line.trimEnd() === '...'));

/** `text` with line ends already normalised to `\n`. */
export function splitFrontMatter(text: string): FrontMatter {
  const lines = text.split('\n');
  if (!isFence(lines[0], false)) return { meta: {}, body: text };
  const end = lines.findIndex((line, i) => i > 0 && isFence(line, true));
  if (end < 0) return { meta: {}, body: text };
  const body = lines.slice(end + 1).join('\n');
  parseYaml ??= (require('yaml') as { parse: typeof parseFn }).parse;
  let value: unknown;
  try {
    value = parseYaml(lines.slice(1, end).join('\n'));
  } catch {
    // Front matter that is not YAML still is not the document: it is dropped, its fields unused.
    return { meta: {}, body };
  }
  const meta: Record<string, unknown> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) meta[key.toLowerCase()] = field;
  }
  return { meta, body };
}

/** A scalar field as one line of text ('' when absent, a list or a mapping). */
export function textField(meta: Record<string, unknown>, key: string): string {
  const value = meta[key];
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean).join(' ');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
