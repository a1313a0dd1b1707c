import { createToken } from './tokens.js';
import type { DocumentStore } from '../store/port.js';
import type { Vault } from '../security/vault.js';
import type { GuardedFetch } from '../security/guarded-fetch-types.js';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { HookCatalogue } from './hooks.js';
import type { Registries } from './registries.js';

/**
 * Typed tokens of the services every plugin container can resolve, e.g.
 * `host.container.resolve(Tokens.store)`. A plugin's own settings are under `pluginSettings`.
 */
export const Tokens = {
  store: createToken<DocumentStore>('store'),
  vault: createToken<Vault>('vault'),
  fetch: createToken<GuardedFetch>('fetch'),
  clock: createToken<Clock>('clock'),
  logger: createToken<Logger>('logger'),
  hooks: createToken<HookCatalogue>('hooks'),
  registries: createToken<Registries>('registries'),
  pluginSettings: createToken<Record<string, unknown>>('plugin-settings'),
} as const;
