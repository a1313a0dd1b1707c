import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentStore } from '../../core/store/port.js';
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

/**
 * On MongoDB the store is shared by hosts and commands whose data directories differ (other
 * machines): the record is kept in the store as well, one document.
 */
export const BUILD_RECORD_COLLECTION = 'host_build';
const RECORD_ID = 'last';

/**
 * Records what a started host runs: the build's plugins only, since `core` (the core
 * plugins) run in every host whatever its build. In the data directory, and on MongoDB in
 * the store too.
 */
export async function recordBuild(
  where: { dataDir: string | null; store: DocumentStore },
  plugins: ReadonlyArray<{ id: string; version: string }>,
  core: ReadonlyArray<{ id: string }>,
): Promise<void> {
  const skip = new Set(core.map((p) => p.id));
  const own = plugins.filter((p) => !skip.has(p.id)).map(({ id, version }) => ({ id, version }));
  const record: BuildRecord = { plugins: own, recorded_at: new Date().toISOString() };
  if (where.dataDir) writePrivateFile(join(where.dataDir, BUILD_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
  if (where.store.kind !== 'mongodb') return;
  const write = () =>
    where.store.collection(BUILD_RECORD_COLLECTION).updateOne({ _id: RECORD_ID }, { $set: { ...record } }, { upsert: true });
  // Workers of one cluster start together: two upserts of the one document may race, and the
  // loser's duplicate-key error only means the document now exists, so the retry updates it.
  await write().catch(write);
}

/** The store's record (MongoDB), or null. */
export async function readStoredBuildRecord(store: DocumentStore): Promise<BuildRecord | null> {
  const found = await store.collection(BUILD_RECORD_COLLECTION).findOne({ _id: RECORD_ID });
  return found && Array.isArray(found.plugins) ? (found as unknown as BuildRecord) : null;
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
