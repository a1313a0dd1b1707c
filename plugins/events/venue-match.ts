/**
 * Duplicate venues: names and addresses compared after normalization, so "The Blue Note,
 * 131 W 3rd St" and "Blue Note, 131 West 3rd Street" are the same place. Normalizing:
 * compatibility forms and accents split off and dropped (NFKD), Unicode case folding
 * (ß and ẞ become ss, so "Weiße" is "WEISSE"), punctuation out, a leading "the" dropped,
 * ordinals reduced to their number (3rd → 3) and the usual street abbreviations spelled
 * out. Letters of every script are kept.
 *
 * Names match when they are the same after that, or share most of their words (60 %). In
 * the same city (both cities given and equal after normalization) two looser rules apply,
 * since a city narrows the candidates enough to afford them:
 * - one name's words are all in the other ("Lido" and "Lido Berlin", "Das Lido");
 * - a small typo: an edit distance (insert, delete, replace or swap two neighbouring
 *   letters) of at most 1 for names of 5 to 10 letters and 2 from 11 letters on; names
 *   under 5 letters must match exactly ("Lido" is not "Lidl").
 */
import { editDistance } from './edit-distance.js';
import type { VenueRow } from './model.js';

const WORDS: Record<string, string> = {
  st: 'street',
  str: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  blvd: 'boulevard',
  dr: 'drive',
  ln: 'lane',
  ct: 'court',
  pl: 'place',
  sq: 'square',
  hwy: 'highway',
  pkwy: 'parkway',
  ter: 'terrace',
  cres: 'crescent',
  n: 'north',
  s: 'south',
  e: 'east',
  w: 'west',
  ne: 'northeast',
  nw: 'northwest',
  se: 'southeast',
  sw: 'southwest',
  ste: 'suite',
  fl: 'floor',
  apt: 'apartment',
  mt: 'mount',
  ft: 'fort',
  '&': 'and',
};

/**
 * JavaScript has no full case folding; upper- then lower-casing gives it for the letters
 * that differ (ß → SS → ss, final sigma), and the explicit ß covers ẞ, whose lower case is ß.
 */
const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .toLowerCase()
    .replace(/ß/g, 'ss');

export function normalizeWords(text: string): string[] {
  const words = fold(text)
    .replace(/&/g, ' & ')
    .replace(/[^\p{L}\p{N}& ]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.replace(/^(\d+)(st|nd|rd|th)$/, '$1'))
    .map((word) => WORDS[word] ?? word);
  return words[0] === 'the' ? words.slice(1) : words;
}

export const normalize = (text: string) => normalizeWords(text).join(' ');

function overlap(a: string[], b: string[]): number {
  if (!a.length || !b.length) return 0;
  const setB = new Set(b);
  const shared = new Set(a.filter((w) => setB.has(w))).size;
  return shared / new Set([...a, ...b]).size;
}

/** One name's words all among the other's: "Lido" in "Lido Berlin". */
function wordSubset(a: string[], b: string[]): boolean {
  if (!a.length || !b.length) return false;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const words = new Set(longer);
  return shorter.every((word) => words.has(word));
}

/** The edits a name of this many letters may differ by and still be a typo of the other. */
const typoAllowance = (letters: number) => (letters < 5 ? 0 : letters <= 10 ? 1 : 2);

/** 0..1 when the names are within the typo allowance of each other, else 0. */
function typoScore(a: string[], b: string[]): number {
  const x = a.join(' ');
  const y = b.join(' ');
  const letters = Math.max(Array.from(x).length, Array.from(y).length);
  const allowed = typoAllowance(letters);
  if (!allowed || Math.abs(Array.from(x).length - Array.from(y).length) > allowed) return 0;
  const distance = editDistance(x, y);
  return distance <= allowed ? 1 - distance / letters : 0;
}

export interface DuplicateMatch {
  venue: VenueRow;
  reasons: Array<'same_name' | 'similar_name' | 'same_address' | 'similar_address'>;
  score: number;
}

/**
 * Venues that look like the one described. A name alone matches on name; with an
 * address, either the same address, or a same/similar name in the same city when a city
 * is given. Best matches first.
 */
export function findDuplicates(venues: Iterable<VenueRow>, input: { name: string; address: string; city: string }): DuplicateMatch[] {
  const name = normalizeWords(input.name);
  const address = normalizeWords(input.address);
  const city = normalize(input.city);
  const out: DuplicateMatch[] = [];
  for (const venue of venues) {
    const reasons: DuplicateMatch['reasons'] = [];
    let score = 0;
    const sameCity = city !== '' && venue.city !== '' && normalize(venue.city) === city;
    if (name.length) {
      const other = normalizeWords(venue.name);
      let nameScore = overlap(name, other);
      if (name.join(' ') === other.join(' ')) reasons.push('same_name');
      else if (nameScore >= 0.6) reasons.push('similar_name');
      else if (sameCity && (wordSubset(name, other) || typoScore(name, other) > 0)) {
        reasons.push('similar_name');
        nameScore = Math.max(nameScore, typoScore(name, other));
      }
      score += nameScore;
    }
    if (address.length) {
      const other = normalizeWords(venue.address);
      const addressScore = overlap(address, other);
      if (address.join(' ') === other.join(' ')) reasons.push('same_address');
      else if (addressScore >= 0.75) reasons.push('similar_address');
      score += addressScore;
    }
    if (!reasons.length) continue;
    // A shared name in another city is a different place.
    if (city && venue.city && !sameCity && !reasons.some((r) => r.endsWith('address'))) continue;
    out.push({ venue, reasons, score: Math.round((score / ((name.length ? 1 : 0) + (address.length ? 1 : 0))) * 100) / 100 });
  }
  return out.sort((a, b) => b.score - a.score || a.venue.id - b.venue.id);
}
