import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../runtime/data-dir-files.js';

/**
 * build.json in the data directory: the plugins (id, version) the last host started on it
 * ran. It stays after the host stops, so a CLI command that must start a host itself can
 * tell that its own build is another one before it loads a plugin the store never had.
 */
export const BUILD_RECORD_FILE = 'build.json';

export interface BuildRecord {
  plugins: Array<{ id: string; version: string }>;
  recorded_at: string;
}

/** The build's plugins only: `core` (the core plugins) run in every host, whatever its build. */
export function recordBuild(
  dataDir: string,
  plugins: ReadonlyArray<{ id: string; version: string }>,
  core: ReadonlyArray<{ id: string }>,
): void {
  const skip = new Set(core.map((p) => p.id));
  const own = plugins.filter((p) => !skip.has(p.id)).map(({ id, version }) => ({ id, version }));
  const record: BuildRecord = { plugins: own, recorded_at: new Date().toISOString() };
  writePrivateFile(join(dataDir, BUILD_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
}

/** The record, or null when no host recorded one (a data directory older than the record). */
export function readBuildRecord(dataDir: string): BuildRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, BUILD_RECORD_FILE), 'utf8')) as BuildRecord;
    return Array.isArray(parsed.plugins) ? parsed : null;
  } catch {
    return null;
  }
}

/** What a build would load that the recorded one did not, and what it lacks of it. */
export function buildDifference(recorded: BuildRecord, ids: readonly string[]): { extra: string[]; missing: string[] } {
  const had = new Set(recorded.plugins.map((p) => p.id));
  const wants = new Set(ids);
  return { extra: ids.filter((id) => !had.has(id)), missing: [...had].filter((id) => !wants.has(id)) };
}
