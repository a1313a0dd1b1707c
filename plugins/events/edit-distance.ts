/**
 * Edit distance for the venue duplicate check. The one installed library (js-levenshtein)
 * is a dependency of a dev tool, not something production can rely on, and plain
 * Levenshtein counts a swapped pair of letters ("Kesselhuas") as two edits; this is the
 * optimal-string-alignment distance: insert, delete, substitute, or swap two neighbours,
 * each one edit. Strings are compared by code point, so an astral character is one edit.
 */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  // Three rows: the one before the previous is needed for the swap.
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[t.length]!;
}
