/**
 * Duplicate venues: names and addresses compared after normalization, so "The Blue Note,
 * 131 W 3rd St" and "Blue Note, 131 West 3rd Street" are the same place. Normalizing:
 * lower case, accents and punctuation out, a leading "the" dropped, ordinals reduced to
 * their number (3rd → 3) and the usual street abbreviations spelled out.
 */
import type { VenueRow } from './model.js';

const WORDS: Record<string, string> = {
  st: 'street', str: 'street', rd: 'road', ave: 'avenue', av: 'avenue', blvd: 'boulevard', dr: 'drive', ln: 'lane', ct: 'court',
  pl: 'place', sq: 'square', hwy: 'highway', pkwy: 'parkway', ter: 'terrace', cres: 'crescent',
  n: 'north', s: 'south', e: 'east', w: 'west', ne: 'northeast', nw: 'northwest', se: 'southeast', sw: 'southwest',
  ste: 'suite', fl: 'floor', apt: 'apartment', mt: 'mount', ft: 'fort',
  '&': 'and',
};

export function normalizeWords(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' & ')
    .replace(/[^a-z0-9& ]+/g, ' ')
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
    if (name.length) {
      const other = normalizeWords(venue.name);
      const nameScore = overlap(name, other);
      if (name.join(' ') === other.join(' ')) reasons.push('same_name');
      else if (nameScore >= 0.6) reasons.push('similar_name');
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
    if (city && venue.city && normalize(venue.city) !== city && !reasons.some((r) => r.endsWith('address'))) continue;
    out.push({ venue, reasons, score: Math.round((score / ((name.length ? 1 : 0) + (address.length ? 1 : 0))) * 100) / 100 });
  }
  return out.sort((a, b) => b.score - a.score || a.venue.id - b.venue.id);
}
