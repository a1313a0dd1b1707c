import { createRequire } from 'node:module';
import type { compile as compileFn, convert as convertFn, HtmlToTextOptions } from 'html-to-text';
import type { DataPacket } from './contributions.js';

/**
 * The text a publish handler posts, and how it is made to fit a service's limit. One
 * place for every handler: they differ only in how their service counts (graphemes, or a
 * weighted count such as the microblog's).
 */

// Made on first use: the first Intl.Segmenter of a process loads ICU's break data, about
// 15 ms of every start, though most hosts never count a post's characters.
let graphemeSegmenter: Intl.Segmenter | undefined;
const segmenter = (): Intl.Segmenter => (graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

/** The characters of `text` as a user sees them (an emoji with its modifiers is one), in order. */
export function* graphemes(text: string): Generator<string, void, undefined> {
  for (const { segment } of segmenter().segment(text)) yield segment;
}

/** Characters as a user sees them: an emoji with its modifiers is one. */
export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of segmenter().segment(text)) count++;
  return count;
}

// html-to-text (with its HTML parser and entity tables) loads on the first post a handler
// makes, not with the host. It is CommonJS, so `require` loads it inside a synchronous function.
const require = createRequire(import.meta.url);
let convert: typeof convertFn | undefined;

const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));
const POST_TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    // A link reads "its text (its address)"; a bare address once, an in-page anchor as its text.
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, linkBrackets: ['(', ')'] } },
    { selector: 'ul', options: { itemPrefix: '• ' } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ...headings,
  ],
};

/**
 * HTML (or text with HTML entities) as the plain text a person would read: entities
 * decoded, paragraphs and list items on their own lines, links with their address. The
 * service counts what it shows, so limits are measured on this, never on the markup.
 */
export function htmlToPostText(html: string): string {
  convert ??= (require('html-to-text') as { convert: typeof convertFn }).convert;
  // Lines trimmed (ordered lists pad their numbers) and at most one blank line between blocks.
  const lines = convert(html, POST_TEXT_OPTIONS)
    .split('\n')
    .map((line) => line.trim());
  return lines
    .filter((line, i) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
}

// For a title, a search index or a short excerpt: the words in reading order. A link is its
// text (no address), images, rules and list bullets add nothing, and headings keep their case.
const LINE_TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'hr', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'ul', options: { itemPrefix: ' ' } },
    // Cells one after another: laid out as columns, long cells wrap and their words interleave.
    ...['table', 'tr', 'th', 'td', 'caption'].map((selector) => ({ selector, format: 'block' })),
    ...headings,
  ],
};
// Compiled once: `convert` builds its selector tree on every call, some 25 times the cost of
// turning a short fragment into text, and the events index converts every event it holds.
let lineText: ((html: string) => string) | undefined;

/**
 * HTML (or text with HTML entities) as one line of plain text: entities decoded, script and
 * style content dropped, every run of whitespace (line breaks between blocks too) one space.
 * Plain text, never HTML: escape it wherever it goes into markup.
 */
export function htmlToPlainText(html: string): string {
  // Text with neither a tag nor an entity is already plain: every run's item titles pass
  // through here, and most are plain words (the parser is most of a trivial run's CPU).
  if (!html.includes('<') && !html.includes('&')) return html.replace(/\s+/g, ' ').trim();
  lineText ??= (require('html-to-text') as { compile: typeof compileFn }).compile(LINE_TEXT_OPTIONS);
  return lineText(html).replace(/\s+/g, ' ').trim();
}

/** A packet's text (its content as plain text, else its title) and its link, if any. */
export function packetText(packet: DataPacket): { body: string; link: string | null } {
  const data = packet.data as Record<string, unknown>;
  const link =
    typeof data.link === 'string' ? data.link : typeof packet.metadata.source_url === 'string' ? packet.metadata.source_url : null;
  return { body: htmlToPostText(String(data.content ?? data.title ?? '')), link };
}

/**
 * `body` followed by `link`, within `limit` as `measure` counts it (graphemes by default).
 * When too long, the body is cut at a word boundary (between graphemes when one word is
 * longer than the room left) and ends with `…`; a URL is never cut. `shortened` says
 * whether it was.
 */
export function fitText(
  body: string,
  link: string | null,
  limit: number,
  measure: (text: string) => number = graphemeCount,
): { text: string; shortened: boolean } {
  const tail = link ? ` ${link}` : '';
  const whole = `${body.trim()}${tail}`;
  if (measure(whole) <= limit) return { text: whole, shortened: false };
  const ellipsis = '…';
  const budget = limit - measure(tail) - measure(ellipsis);
  let out = '';
  for (const word of body.trim().split(/(\s+)/)) {
    if (measure(out + word) > budget) {
      if (out.trim() === '' && !/^https?:\/\//.test(word)) {
        for (const { segment } of segmenter().segment(word)) {
          if (measure(out + segment) > budget) break;
          out += segment;
        }
      }
      break;
    }
    out += word;
  }
  return { text: `${out.trimEnd()}${ellipsis}${tail}`, shortened: true };
}
