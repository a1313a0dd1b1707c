/**
 * The site's hook (issue 54): the site pages (core content) own `siteHome` and alone call
 * it; a plugin answers through `deps: { site: services.siteEvents }`.
 */
import type { AsyncSeriesBailHook } from 'tapable';
import type { ListenOnly } from '../kernel/domain-hooks.js';
import type { Principal } from '../kernel/principal.js';
import { createServiceRef } from '../kernel/service-ref.js';

/** The site's hooks as the site pages hold them (core/content/site-hooks.ts). */
export interface SiteHookSet {
  /**
   * Where the bare site root sends a signed-in user: the first tap that answers a path wins
   * (the console answers `/admin/` for users who may manage the host); no answer shows the
   * site's newest posts, as to everyone else.
   */
  readonly siteHome: AsyncSeriesBailHook<[Principal], string | undefined>;
}

/** What a plugin sees of the site's hooks. */
export type SiteEvents = ListenOnly<SiteHookSet>;

/** `deps: { site: services.siteEvents }`: provided by the core content plugin. */
export const siteEventsService = createServiceRef<SiteEvents, 'root'>({ id: 'siteEvents', scope: 'root' });
