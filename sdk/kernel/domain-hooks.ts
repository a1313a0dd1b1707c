/**
 * Hooks owned by the domain that fires them (issue 54). The kernel's catalogue
 * (`services.hooks`) keeps what the host itself fires: its lifecycle and the measurements.
 * An event one domain fires (the engine's step and job events, the log's entries, the
 * webhook trigger's deliveries, the site's home page) is that domain's: it holds the hooks,
 * it alone fires them, and it gives every plugin the same hooks through its service with
 * only their tapping methods (`services.engineEvents.jobFinished.tap(...)`).
 */

/** The methods a tapable hook is listened to with. */
type TapMethod = 'tap' | 'tapAsync' | 'tapPromise';
const TAP_METHODS: readonly TapMethod[] = ['tap', 'tapAsync', 'tapPromise'];

/** A hook as a plugin that does not own it sees it: it may listen, never fire (no `call`, `promise`, `intercept`). */
export type Listen<H> = Pick<H, Extract<keyof H, TapMethod>>;

/** A domain's hooks as its listeners see them. */
export type ListenOnly<Hooks> = { readonly [K in keyof Hooks]: Listen<Hooks[K]> };

/**
 * The listening side of a domain's hooks: an object per hook holding only its tapping
 * methods (bound to the hook), so a listener holds no way to fire it, even past the types.
 */
export function listenOnly<Hooks extends object>(hooks: Hooks): ListenOnly<Hooks> {
  const view: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(hooks)) {
    if (!hook || typeof hook !== 'object' || typeof (hook as { tap?: unknown }).tap !== 'function') continue;
    const methods: Record<string, unknown> = {};
    for (const method of TAP_METHODS) {
      const fn = (hook as Record<string, unknown>)[method];
      if (typeof fn === 'function') methods[method] = fn.bind(hook);
    }
    view[name] = Object.freeze(methods);
  }
  return Object.freeze(view) as ListenOnly<Hooks>;
}
