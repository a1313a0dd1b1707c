/** What a plugin may read of the site settings, and an AI provider's key (the AI plugins). */
import { createServiceRef } from '../../core/kernel/service-ref.js';
import type { SiteSettings } from '../../core/settings/schemas.js';

export type { SiteSettings } from '../../core/settings/schemas.js';

export interface SettingsApi {
  get(): Promise<SiteSettings>;
  /** The stored key of a provider, or null when none is set. */
  providerKey(slug: string): Promise<string | null>;
}

/** `deps: { settings: services.settings }`: provided by the core domain plugin. */
export const settingsService = createServiceRef<SettingsApi, 'root'>({ id: 'settings', scope: 'root' });
