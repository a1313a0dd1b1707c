import { escapeRegExp } from '../store/document-shape.js';
/** URL slugs for posts and terms: lower-case ASCII letters, digits and single hyphens. */

export const SLUG_MAX_LENGTH = 190;

/**
 * The slug of a title or name: accents folded to their base letters ("Café" → "cafe"),
 * every other run of non-alphanumerics becomes one hyphen. Empty when nothing ASCII
 * is left (callers pick a fallback).
 */
export function slugify(text: string, maxLength = SLUG_MAX_LENGTH): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  // Cut at the limit without leaving a trailing hyphen behind.
  return ascii.slice(0, maxLength).replace(/-+$/, '');
}

/** A pattern matching `base` and its numbered variants `base-2`, `base-3`, ... */
export function slugFamilyPattern(base: string): string {
  return `^${escapeRegExp(base)}(-[0-9]+)?$`;
}

/**
 * The store condition on `slug` for `base`'s family: the pattern, within the range of
 * strings that start with `base` and sort before `base.` ('-' sorts just below '.'), so
 * the (post_type, slug) index narrows the lookup to the family instead of the pattern
 * being tried on every post of the type (a 1,000-post import spent 4.7 s on it).
 */
export function slugFamilyCondition(base: string): { $gte: string; $lt: string; $regex: string } {
  return { $gte: base, $lt: `${base}.`, $regex: slugFamilyPattern(base) };
}

/** The first free slug of the family: `base` itself, else `base-2`, `base-3`, ... */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

export { escapeRegExp };
