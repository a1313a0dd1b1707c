import type { DocumentStore } from '../store/port.js';
import { settingsDefaults, type SiteSettings } from './schemas.js';

const SETTINGS_ID = 'site';

/** One settings document; a missing key reads as its default. */
export class SettingsService {
  constructor(private readonly store: DocumentStore) {}

  private get collection() {
    return this.store.collection<{ values: Partial<SiteSettings> }>('settings');
  }

  async get(): Promise<SiteSettings> {
    const doc = await this.collection.findOne({ _id: SETTINGS_ID });
    return { ...settingsDefaults, ...(doc?.values ?? {}) };
  }

  /** Merges the given keys (already validated by the route schema). */
  async update(patch: Partial<SiteSettings>): Promise<SiteSettings> {
    const $set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) $set[`values.${key}`] = value;
    await this.collection.updateOne({ _id: SETTINGS_ID }, { $set }, { upsert: true });
    return this.get();
  }
}
