import type { DocumentStore } from '../store/port.js';
import type { Vault } from '../security/vault.js';
import { maskSecret } from '../security/mask.js';
import { settingsDefaults, type SiteSettings } from './schemas.js';
import type { SettingsApi } from '../../sdk/contract/settings.js';

const SETTINGS_ID = 'site';
/** AI provider keys live in their own document, sealed, so no settings read can leak them. */
const PROVIDER_KEYS_ID = 'provider_keys';
/** What a client that read the masked keys sends back for a key it did not change. */
const MASK_PREFIX = '••••••••';
const keyContext = (slug: string) => `provider-key:${slug}`;

interface SettingsDoc extends Record<string, unknown> {
  values?: Partial<SiteSettings>;
  keys?: Record<string, string>;
}

/** One settings document; a missing key reads as its default. */
export class SettingsService implements SettingsApi {
  constructor(
    private readonly store: DocumentStore,
    private readonly vault: Vault,
  ) {}

  private get collection() {
    return this.store.collection<SettingsDoc>('settings');
  }

  async get(): Promise<SiteSettings> {
    const doc = await this.collection.findOne({ _id: SETTINGS_ID });
    return { ...settingsDefaults, ...(doc?.values ?? {}) };
  }

  /** Merges the given keys (already validated by the route schema). */
  async update(patch: Partial<SiteSettings>): Promise<SiteSettings> {
    const $set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) $set[`values.${key}`] = value;
    if (Object.keys($set).length) await this.collection.updateOne({ _id: SETTINGS_ID }, { $set }, { upsert: true });
    return this.get();
  }

  /** An AI provider's API key as saved with PUT /settings (opened), or null. */
  async providerKey(slug: string): Promise<string | null> {
    const sealed = (await this.collection.findOne({ _id: PROVIDER_KEYS_ID }))?.keys?.[slug];
    return typeof sealed === 'string' && sealed ? this.vault.decrypt(sealed, keyContext(slug)) : null;
  }

  /**
   * Saves AI provider keys, sealed: '' removes a key, a masked value (what GET answered)
   * keeps the stored one. Slugs are checked by the caller.
   */
  async setProviderKeys(keys: Readonly<Record<string, string>>): Promise<void> {
    const $set: Record<string, string> = {};
    const $unset: Record<string, ''> = {};
    for (const [slug, key] of Object.entries(keys)) {
      if (key.startsWith(MASK_PREFIX)) continue;
      if (key.trim() === '') $unset[`keys.${slug}`] = '';
      else $set[`keys.${slug}`] = this.vault.encrypt(key.trim(), keyContext(slug));
    }
    if (Object.keys($set).length) await this.collection.updateOne({ _id: PROVIDER_KEYS_ID }, { $set }, { upsert: true });
    if (Object.keys($unset).length) await this.collection.updateOne({ _id: PROVIDER_KEYS_ID }, { $unset });
  }

  /** Each given provider's key masked (`••••••••` + last 4 for long keys), '' when unset. */
  async maskedProviderKeys(slugs: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const slug of slugs) out[slug] = maskSecret(await this.providerKey(slug).catch(() => '••••••••'));
    return out;
  }
}
