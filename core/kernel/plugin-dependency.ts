/**
 * A `dependsOn` entry: a plugin id, optionally with a semver range after an '@' that is not
 * the scope's ('other', 'other@^1.2', '@acme/billing@>=2'). Alone, so the install checks
 * read it without loading the loader (and its validator).
 */
export function parseDependency(entry: string): { id: string; range: string | null } {
  const at = entry.indexOf('@', 1);
  return at === -1 ? { id: entry, range: null } : { id: entry.slice(0, at), range: entry.slice(at + 1) };
}
