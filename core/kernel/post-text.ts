import type { DataPacket } from './contributions.js';

/**
 * The text a publish handler posts, and how it is made to fit a service's limit. One
 * place for every handler: they differ only in how their service counts (graphemes, or a
 * weighted count such as the microblog's).
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Characters as a user sees them: an emoji with its modifiers is one. */
export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}

const stripHtml = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();

/** A packet's text (its content as plain text, else its title) and its link, if any. */
export function packetText(packet: DataPacket): { body: string; link: string | null } {
  const data = packet.data as Record<string, unknown>;
  const link = typeof data.link === 'string' ? data.link : typeof packet.metadata.source_url === 'string' ? packet.metadata.source_url : null;
  return { body: stripHtml(String(data.content ?? data.title ?? '')), link };
}

/**
 * `body` followed by `link`, within `limit` as `measure` counts it (graphemes by default).
 * When too long, the body is cut at a word boundary (between graphemes when one word is
 * longer than the room left) and ends with `…`; a URL is never cut. `shortened` says
 * whether it was.
 */
export function fitText(body: string, link: string | null, limit: number, measure: (text: string) => number = graphemeCount): { text: string; shortened: boolean } {
  const tail = link ? ` ${link}` : '';
  const whole = `${body.trim()}${tail}`;
  if (measure(whole) <= limit) return { text: whole, shortened: false };
  const ellipsis = '…';
  const budget = limit - measure(tail) - measure(ellipsis);
  let out = '';
  for (const word of body.trim().split(/(\s+)/)) {
    if (measure(out + word) > budget) {
      if (out.trim() === '' && !/^https?:\/\//.test(word)) {
        for (const { segment } of segmenter.segment(word)) {
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
