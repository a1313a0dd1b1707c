const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Characters as a user sees them (graphemes): an emoji with its modifiers is one. */
export const graphemes = (text: string) => [...segmenter.segment(text)].length;

/**
 * `body` then `link` within `limit` graphemes: cut at a word boundary (between graphemes
 * when one word is too long) with an ellipsis; the link is never cut.
 */
export function fitGraphemes(body: string, link: string | null, limit: number): { text: string; shortened: boolean } {
  const tail = link ? ` ${link}` : '';
  const whole = `${body.trim()}${tail}`;
  if (graphemes(whole) <= limit) return { text: whole, shortened: false };
  const budget = limit - graphemes(tail) - 1;
  let out = '';
  for (const word of body.trim().split(/(\s+)/)) {
    if (graphemes(out + word) > budget) {
      if (out.trim() === '') for (const { segment } of segmenter.segment(word)) {
        if (graphemes(out + segment) > budget) break;
        out += segment;
      }
      break;
    }
    out += word;
  }
  return { text: `${out.trimEnd()}…${tail}`, shortened: true };
}
