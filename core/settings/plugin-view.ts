/**
 * Site settings as a plugin sees them (`services.settings`, plugin-scoped): the settings,
 * and the key of an AI provider only to the plugin that contributes that provider. Before,
 * any plugin could read every provider's key in clear (issue 52).
 */
import type { Registries } from '../kernel/registries.js';
import type { SettingsApi, SiteSettings } from '../../sdk/contract/settings.js';
import type { SettingsService } from './service.js';

export class PluginSettingsView implements SettingsApi {
  constructor(
    private readonly settings: SettingsService,
    private readonly registries: Registries,
    private readonly pluginId: string,
  ) {}

  get(): Promise<SiteSettings> {
    return this.settings.get();
  }

  async providerKey(slug: string): Promise<string | null> {
    // Read at call time (after boot): a plugin's providers are registered during its setup.
    const provider = this.registries.providers().find((p) => p.slug === slug);
    if (!provider || this.registries.ownerOf(provider) !== this.pluginId)
      throw new Error(
        `Plugin '${this.pluginId}' asked for the key of AI provider '${slug}', which it does not contribute: a key is its provider's`,
      );
    return this.settings.providerKey(slug);
  }
}
