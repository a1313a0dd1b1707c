/** What a plugin may read of the site settings, and an AI provider's key (the AI plugins). */
import { createServiceRef } from '../kernel/service-ref.js';
import type { SiteSettings } from '../settings/schemas.js';

export type { SiteSettings } from '../settings/schemas.js';

export interface SettingsApi {
  get(): Promise<SiteSettings>;
  /**
   * The stored key of a provider this plugin contributes, or null when none is set. Another
   * plugin's provider's key is refused (an Error naming both): a key is its provider's.
   */
  providerKey(slug: string): Promise<string | null>;
}

/** `deps: { settings: services.settings }`: plugin-scoped, so a provider's key reaches its own plugin only. */
export const settingsService = createServiceRef<SettingsApi, 'plugin'>({ id: 'settings', scope: 'plugin' });
