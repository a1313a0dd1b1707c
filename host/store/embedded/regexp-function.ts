import type { Database } from 'better-sqlite3';
import { DATE_PREFIX } from './document-codec.js';

const CACHE_LIMIT = 500;

/**
 * Registers `regexp(pattern, value)`, which SQLite calls for `value REGEXP pattern`.
 * The pattern parameter is `flags/source` (sql-predicates.ts builds and validates it);
 * compiled patterns are cached because one query evaluates the same pattern per row.
 * Only strings match, and dates (stored as marked strings) never do, as in MongoDB.
 */
export function registerRegexp(db: Database): void {
  const cache = new Map<string, RegExp>();
  db.function('regexp', { deterministic: true }, (pattern: unknown, value: unknown) => {
    if (typeof value !== 'string' || typeof pattern !== 'string' || value.startsWith(DATE_PREFIX)) return 0;
    let re = cache.get(pattern);
    if (!re) {
      const slash = pattern.indexOf('/');
      re = new RegExp(pattern.slice(slash + 1), pattern.slice(0, slash));
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(pattern, re);
    }
    return re.test(value) ? 1 : 0;
  });
}
