/**
 * markdown-it's reading of a markdown file, with where each link destination sits in the
 * source. markdown-it's tokens say what is a link (never text inside a code span, a fenced
 * or indented code block, or raw HTML) but not where its destination was written, and the
 * post keeps the markdown as written; so its own `link`, `image` and `reference` rules are
 * wrapped to note, after they accept one, the destination's offsets (found with markdown-it's
 * own destination parser). Only those spans are ever rewritten.
 */
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type { StateBlock, StateInline, Token } from 'markdown-it';

const require = createRequire(import.meta.url);

/** A link destination as written: `[start, end)` in the normalised source, and its target. */
export interface LinkSpan {
  start: number;
  end: number;
  /** The destination with escapes resolved and `<…>` removed. */
  target: string;
  image: boolean;
}

interface Recorded {
  /** Inline links: offsets in the inline token's content, keyed by its children array. */
  inline: Map<Token[], Array<{ start: number; end: number; target: string; image: boolean }>>;
  /** Reference definitions: offsets in the whole source. */
  references: LinkSpan[];
}

type InlineRule = (state: StateInline, silent: boolean) => boolean;
type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a;
const recordedOf = (env: unknown): Recorded => (env as { docsyncLinks: Recorded }).docsyncLinks;

let instance: InstanceType<typeof MarkdownIt> | undefined;

function ruleNamed<T extends { name: string }>(rules: T[], name: string): T {
  const rule = rules.find((fn) => fn.name === name);
  if (!rule) throw new Error(`markdown-it has no '${name}' rule to wrap`);
  return rule;
}

function markdown(): InstanceType<typeof MarkdownIt> {
  if (instance) return instance;
  // html: raw HTML blocks are recognised as such, so nothing inside them is taken for a link.
  const md = new (require('markdown-it') as typeof MarkdownIt)({ html: true, linkify: false });
  const { parseLinkLabel, parseLinkDestination } = md.helpers;

  const inlineRules = md.inline.ruler.getRules('') as InlineRule[];
  for (const [name, image] of [
    ['link', false],
    ['image', true],
  ] as const) {
    const original = ruleNamed(inlineRules, name);
    md.inline.ruler.at(name, (state, silent) => {
      const start = state.pos;
      if (!original(state, silent)) return false;
      if (silent) return true;
      // The rule accepted `[label](destination …)` or a reference form; only the first has a
      // destination here (a reference's is in its definition, recorded by the block rule).
      const labelEnd = parseLinkLabel(state, start + (image ? 1 : 0), true);
      let pos = labelEnd + 1;
      if (labelEnd < 0 || state.src.charCodeAt(pos) !== 0x28 /* ( */) return true;
      pos++;
      while (pos < state.posMax && isSpace(state.src.charCodeAt(pos))) pos++;
      const dest = parseLinkDestination(state.src, pos, state.posMax);
      if (dest.ok && dest.pos > pos) {
        const list = recordedOf(state.env).inline.get(state.tokens) ?? [];
        list.push({ start: pos, end: dest.pos, target: dest.str, image });
        recordedOf(state.env).inline.set(state.tokens, list);
      }
      return true;
    });
  }

  const reference = ruleNamed(md.block.ruler.getRules('') as BlockRule[], 'reference');
  md.block.ruler.at('reference', (state, startLine, endLine, silent) => {
    if (!reference(state, startLine, endLine, silent)) return false;
    if (silent) return true;
    // `[label]: destination "title"`: the destination follows the first unescaped `]:`.
    const base = state.bMarks[startLine]! + state.tShift[startLine]!;
    const text = state.src.slice(base, state.eMarks[state.line - 1]);
    let pos = 1;
    while (pos < text.length && text[pos] !== ']') pos += text[pos] === '\\' ? 2 : 1;
    if (text[pos + 1] !== ':') return true;
    pos += 2;
    while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
    const dest = parseLinkDestination(text, pos, text.length);
    if (dest.ok && dest.pos > pos)
      recordedOf(state.env).references.push({ start: base + pos, end: base + dest.pos, target: dest.str, image: false });
    return true;
  });
  return (instance = md);
}

/** Line ends as markdown-it reads them (`\r\n` and `\r` as `\n`, NUL as U+FFFD), so offsets agree. */
export const normaliseSource = (text: string): string => text.replaceAll('\r\n', '\n').replaceAll('\r', '\n').replaceAll('\0', '\uFFFD');

/**
 * Where the text of an inline token starts on each of its source lines (-1: not found).
 * `cursors`: per line, where the previous token on it ended (table cells share a row).
 */
function lineStarts(token: Token, firstLine: number, lines: string[], offsets: number[], cursors: Map<number, number>): number[] {
  const contentLines = token.content.split('\n');
  return contentLines.map((part, i) => {
    const line = lines[firstLine + i];
    if (line === undefined) return -1;
    // A paragraph's lines end where the source lines end (its last is trimmed); a heading
    // drops its closing #s and a table cell sits mid-line: then the next occurrence.
    const full = i < contentLines.length - 1 ? line : line.trimEnd();
    const column =
      full.endsWith(part) && contentLines.length > 1 ? full.length - part.length : line.indexOf(part, cursors.get(firstLine + i) ?? 0);
    if (column < 0) return -1;
    cursors.set(firstLine + i, column + part.length);
    return offsets[firstLine + i]! + column;
  });
}

/** The tokens of `source` (normalised) and every link destination in it, in source order. */
export function parseWithLinks(source: string): { tokens: Token[]; links: LinkSpan[] } {
  const recorded: Recorded = { inline: new Map(), references: [] };
  const tokens = markdown().parse(source, { docsyncLinks: recorded });
  const lines = source.split('\n');
  const offsets: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) offsets.push(at);
  const links: LinkSpan[] = [...recorded.references];
  const cursors = new Map<number, number>();
  // Table cells have no line map of their own: their row's is used.
  let enclosing: [number, number] | null = null;
  for (const token of tokens) {
    if (token.map) enclosing = token.map;
    if (token.type !== 'inline' || !token.children) continue;
    const spans = recorded.inline.get(token.children);
    const firstLine = (token.map ?? enclosing)?.[0];
    if (!spans || firstLine === undefined) continue;
    const starts = lineStarts(token, firstLine, lines, offsets, cursors);
    for (const span of spans) {
      const before = token.content.slice(0, span.start);
      const line = before.split('\n').length - 1;
      const lineStart = starts[line];
      if (lineStart === undefined || lineStart < 0) continue;
      const start = lineStart + span.start - (before.lastIndexOf('\n') + 1);
      const end = start + (span.end - span.start);
      // Written differently from what markdown-it read (a tab expanded, say): left as written.
      if (source.slice(start, end) !== token.content.slice(span.start, span.end)) continue;
      links.push({ start, end, target: span.target, image: span.image });
    }
  }
  const seen = new Set<number>();
  return { tokens, links: links.sort((a, b) => a.start - b.start).filter((l) => !seen.has(l.start) && seen.add(l.start)) };
}

/** What a reader sees of an inline token's children: text, code spans and image descriptions. */
export function inlineText(children: Token[] | null): string {
  const parts: string[] = [];
  const walk = (children: Token[] | null) => {
    for (const child of children ?? []) {
      if (child.type === 'text' || child.type === 'code_inline') parts.push(child.content);
      else if (child.type === 'softbreak' || child.type === 'hardbreak') parts.push(' ');
      else if (child.type === 'image') walk(child.children);
    }
  };
  walk(children);
  return parts.join('').split(/\s+/).filter(Boolean).join(' ');
}
