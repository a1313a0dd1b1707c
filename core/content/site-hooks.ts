import { AsyncSeriesBailHook } from 'tapable';
import type { Principal } from '../kernel/principal.js';
import type { SiteHookSet } from '../../sdk/contract/site-events.js';

/** The site pages' own hook: they alone call it; plugins answer through `services.siteEvents`. */
export class SiteHooks implements SiteHookSet {
  readonly siteHome = new AsyncSeriesBailHook<[Principal], string | undefined>(['user']);
}
