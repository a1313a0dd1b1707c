/**
 * docs/api.md's error tables, written from the catalogues: the host's own errors, the core
 * domains' codes and the built-in plugins' codes. scripts/error-table.mjs writes them between
 * markers; test/docs/error-table.test.ts fails when the page and the catalogues disagree.
 */
import { coreErrorAreas } from './catalogue.js';
import { statusesOf, type ErrorEntries, type ErrorEntry } from './define-errors.js';

export interface CatalogueLike {
  readonly owner: string;
  readonly entries: ErrorEntries;
}

/** The status column: `404`, `400, 404`, `401, 403` (anonymous, signed in), `4xx`. */
export function statusText(entry: ErrorEntry): string {
  const statuses = statusesOf(entry);
  return statuses === '4xx' ? '4xx' : statuses.join(', ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rows(entries: ErrorEntries, owner?: string): string[] {
  return Object.entries(entries).map(([code, entry]) => {
    const cells = [statusText(entry), `\`${code}\``, ...(owner ? [owner] : []), cell(entry.when ?? entry.message)];
    return `| ${cells.join(' | ')} |`;
  });
}

/** The host's own errors: what any route can answer. */
export function hostErrorTable(): string {
  return ['| status | code | when |', '|---|---|---|', ...rows(coreErrorAreas.host)].join('\n');
}

/** Every other core code, by area. */
export function coreErrorTable(): string {
  const areas = Object.entries(coreErrorAreas).filter(([area]) => area !== 'host');
  return ['| status | code | area | when |', '|---|---|---|---|', ...areas.flatMap(([area, entries]) => rows(entries, area))].join('\n');
}

/** The built-in plugins' own codes, by plugin. */
export function pluginErrorTable(catalogues: ReadonlyArray<CatalogueLike>): string {
  return ['| status | code | plugin | when |', '|---|---|---|---|', ...catalogues.flatMap((c) => rows(c.entries, c.owner))].join('\n');
}

export const TABLE_MARKERS = ['host', 'core', 'plugins'] as const;
export type TableName = (typeof TABLE_MARKERS)[number];

export function errorTables(catalogues: ReadonlyArray<CatalogueLike>): Record<TableName, string> {
  return { host: hostErrorTable(), core: coreErrorTable(), plugins: pluginErrorTable(catalogues) };
}

const begin = (name: TableName) =>
  `<!-- error-table:${name} (generated from the error catalogues by scripts/error-table.mjs; do not edit) -->`;
const end = (name: TableName) => `<!-- /error-table:${name} -->`;

/** The page with each table between its markers replaced; a page missing a marker is refused. */
export function withErrorTables(page: string, tables: Record<TableName, string>): string {
  let out = page;
  for (const name of TABLE_MARKERS) {
    const from = out.indexOf(begin(name));
    const to = out.indexOf(end(name));
    if (from < 0 || to < from) throw new Error(`docs/api.md has no ${begin(name)} … ${end(name)} markers`);
    out = `${out.slice(0, from + begin(name).length)}\n${tables[name]}\n${out.slice(to)}`;
  }
  return out;
}

/**
 * Codes declared twice: in two catalogues or two core areas. A code has one status and one
 * meaning; the second declaration would be a second answer to "what does this code mean".
 */
export function duplicateCodes(catalogues: ReadonlyArray<CatalogueLike>): string[] {
  const seen = new Map<string, string>();
  const dupes: string[] = [];
  const all = [...Object.entries(coreErrorAreas).map(([area, entries]) => ({ owner: `core/${area}`, entries })), ...catalogues];
  for (const { owner, entries } of all) {
    for (const code of Object.keys(entries)) {
      const first = seen.get(code);
      if (first) dupes.push(`${code} (${first} and ${owner})`);
      else seen.set(code, owner);
    }
  }
  return dupes;
}
