import { fitText, graphemes } from '../../sdk/index.js';

/**
 * Text length as the microblog service weighs it (its open text-counting rules, v3): a
 * URL counts 23 whatever its length; an emoji 2; other characters 1 in the ranges most
 * Latin, Greek, Cyrillic, Hebrew, Arabic and punctuation live in, 2 everywhere else
 * (CJK, for one). Text is counted after NFC normalisation, as the service does.
 */
export const URL_WEIGHT = 23;
const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0, 4351],
  [8192, 8205],
  [8208, 8223],
  [8242, 8247],
];
const URL = /https?:\/\/[^\s]+/g;

function codePointWeight(code: number): number {
  return LIGHT_RANGES.some(([from, to]) => code >= from && code <= to) ? 1 : 2;
}

/** The weight of text with no URL in it, grapheme by grapheme. */
export function plainWeight(text: string): number {
  let weight = 0;
  for (const segment of graphemes(text.normalize('NFC'))) {
    if (/\p{Extended_Pictographic}/u.test(segment)) weight += 2;
    else for (const char of segment) weight += codePointWeight(char.codePointAt(0)!);
  }
  return weight;
}

export function weightedLength(text: string): number {
  const normal = text.normalize('NFC');
  const urls = normal.match(URL) ?? [];
  return plainWeight(normal.replace(URL, '')) + urls.length * URL_WEIGHT;
}

/** `body` then `link` within `limit` as the service weighs text (see `fitText` of the SDK). */
export function fitWeighted(body: string, link: string | null, limit: number): { text: string; shortened: boolean } {
  return fitText(body, link, limit, weightedLength);
}
