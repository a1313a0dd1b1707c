import type { DocumentStore } from '../../core/store/port.js';
import { ConfigError } from '../config/load-config.js';
import { type InstalledPlugin, readInstalled } from './plugins-folder.js';

/**
 * On MongoDB every host runs the same installed plugins: the set is kept in the store, one
 * document per plugin (so two hosts changing different plugins never overwrite each other),
 * and a host whose plugins folder differs refuses to start, naming the plugin and the command
 * that fixes it. The embedded store has one host per data directory: its folder is the truth.
 */
export const INSTALLED_COLLECTION = 'host_installed_plugins';

type StoredPlugin = Omit<InstalledPlugin, 'installed_at'> & { _id: string; installed_at: string };

/** Writes one plugin's entry (installed, updated, switched), or removes it. */
export async function recordInStore(store: DocumentStore, plugin: InstalledPlugin, removed = false): Promise<void> {
  if (store.kind !== 'mongodb') return;
  const collection = store.collection<StoredPlugin>(INSTALLED_COLLECTION);
  if (removed) {
    await collection.deleteOne({ _id: plugin.id });
    return;
  }
  const write = () => collection.updateOne({ _id: plugin.id }, { $set: { ...plugin } }, { upsert: true });
  await write().catch(write);
}

export async function readStoredInstalled(store: DocumentStore): Promise<InstalledPlugin[]> {
  const docs = await store.collection<StoredPlugin>(INSTALLED_COLLECTION).find({});
  return docs.map(({ _id, ...plugin }) => plugin as InstalledPlugin);
}

/** Each difference between the store's set and this host's folder, with the command that fixes it here. */
export function installedDifferences(stored: readonly InstalledPlugin[], local: readonly InstalledPlugin[]): string[] {
  const here = new Map(local.map((p) => [p.id, p]));
  const there = new Map(stored.map((p) => [p.id, p]));
  const out: string[] = [];
  for (const p of stored) {
    const mine = here.get(p.id);
    if (!mine)
      out.push(`plugin '${p.id}' ${p.version} is installed for this database but not on this host: run flowhost plugins install ${p.spec}`);
    else if (mine.version !== p.version)
      out.push(
        `plugin '${p.id}' is ${p.version} for this database but ${mine.version} on this host: run flowhost plugins update ${p.id} ${p.version}`,
      );
    else if (mine.enabled !== p.enabled)
      out.push(
        `plugin '${p.id}' is ${p.enabled ? 'enabled' : 'disabled'} for this database but not on this host: run flowhost plugins ${p.enabled ? 'enable' : 'disable'} ${p.id}`,
      );
  }
  for (const p of local)
    if (!there.has(p.id))
      out.push(
        `plugin '${p.id}' is installed on this host but not for this database: run flowhost plugins remove ${p.id} here, or install it again to record it`,
      );
  return out;
}

/**
 * At start, on MongoDB: the store's installed set against this host's folder. A database
 * with no record yet takes this host's set (the first host, or plugins installed before
 * the move to MongoDB).
 */
export async function checkInstalledAgainstStore(store: DocumentStore, dataDir: string | null): Promise<void> {
  if (store.kind !== 'mongodb') return;
  const local = dataDir ? readInstalled(dataDir).plugins : [];
  const stored = await readStoredInstalled(store);
  if (stored.length === 0) {
    for (const plugin of local) await recordInStore(store, plugin);
    return;
  }
  const differences = installedDifferences(stored, local);
  if (differences.length)
    throw new ConfigError(
      `This host's installed plugins differ from the ones every host of this database runs (the store's record): ${differences.join('; ')}. Nothing was started.`,
    );
}
