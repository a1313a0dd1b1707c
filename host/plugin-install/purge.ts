import type { DocumentStore } from '../../core/store/port.js';
import { MIGRATIONS_COLLECTION } from '../migrations/migration-record.js';
import { PLUGIN_SETTINGS_COLLECTION } from '../plugin-settings/stored-settings.js';
import { namespaceOf } from '../services/plugin-scoped-services.js';

/** Agenda's collection (host/scheduler/create-scheduler.ts): a plugin's jobs are named `<id>:<name>`. */
const JOBS_COLLECTION = 'agenda_jobs';

/** What a purge of a plugin removes from the store, shown before it does. */
export interface PurgePlan {
  plugin: string;
  /** Its collections (`<id>__<name>`, as services.store names them) and their documents. */
  collections: Array<{ name: string; documents: number }>;
  /** Its Agenda jobs by name, with how many documents each has (repeating and queued runs). */
  jobs: Array<{ name: string; count: number }>;
  /** Whether settings saved at run time (plugin_settings) exist for it. */
  settings: boolean;
  /** Whether the store records its migrations (plugin_migrations): purged, a reinstall runs them again. */
  migrations: boolean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What `--purge` would remove for plugin `id`; nothing is changed. */
export async function purgePlan(store: DocumentStore, id: string): Promise<PurgePlan> {
  const prefix = `${namespaceOf(id)}__`;
  const names = (await store.collectionNames?.()) ?? [];
  const collections = [];
  for (const name of names.filter((n) => n.startsWith(prefix)).sort())
    collections.push({ name, documents: await store.collection(name).count() });
  const jobs = new Map<string, number>();
  if (names.includes(JOBS_COLLECTION))
    for (const job of await store.collection(JOBS_COLLECTION).find({ name: { $regex: `^${escapeRegExp(id)}:` } }))
      jobs.set(String(job.name), (jobs.get(String(job.name)) ?? 0) + 1);
  return {
    plugin: id,
    collections,
    jobs: [...jobs].map(([name, count]) => ({ name, count })),
    settings: (await store.collection(PLUGIN_SETTINGS_COLLECTION).count({ _id: id })) > 0,
    migrations: (await store.collection(MIGRATIONS_COLLECTION).count({ _id: id })) > 0,
  };
}

/** Removes what the plan lists: its collections dropped, its jobs, saved settings and migration record deleted. */
export async function purgePlugin(store: DocumentStore, plan: PurgePlan): Promise<void> {
  for (const { name } of plan.collections) {
    if (store.dropCollection) await store.dropCollection(name);
    else await store.collection(name).deleteMany({});
  }
  if (plan.jobs.length) await store.collection(JOBS_COLLECTION).deleteMany({ name: { $in: plan.jobs.map((j) => j.name) } });
  await store.collection(PLUGIN_SETTINGS_COLLECTION).deleteOne({ _id: plan.plugin });
  await store.collection(MIGRATIONS_COLLECTION).deleteOne({ _id: plan.plugin });
}

/** The plan as lines for a person deciding (the CLI's question). */
export function describePlan(plan: PurgePlan): string {
  const lines = [
    ...plan.collections.map((c) => `  collection ${c.name} (${c.documents} document${c.documents === 1 ? '' : 's'})`),
    ...plan.jobs.map((j) => `  job ${j.name} (${j.count})`),
    ...(plan.settings ? [`  its saved settings (${PLUGIN_SETTINGS_COLLECTION})`] : []),
    ...(plan.migrations ? [`  its migration record (${MIGRATIONS_COLLECTION}): a reinstall runs its migrations again`] : []),
  ];
  return lines.length ? lines.join('\n') : '  nothing: it left no data in the store';
}
