import type { CompiledRoute } from './http/route-table.js';

/** What the spec's core administration API needs from plugins, and the built-in that gives it. */
interface CoreNeed {
  what: string;
  builtin: string;
  met(build: { routes: readonly CompiledRoute[]; stepTypes: ReadonlySet<string>; intervals: ReadonlySet<string> }, core: string): boolean;
}

const routeServed = (routes: readonly CompiledRoute[], core: string, method: string, path: string) =>
  routes.some((r) => r.method === method && r.namespace === core && r.fullPath.endsWith(`/${core}${path}`));

const CORE_NEEDS: readonly CoreNeed[] = [
  {
    what: 'GET /handlers and GET /providers',
    builtin: 'discovery',
    met: ({ routes }, core) => routeServed(routes, core, 'GET', '/handlers') && routeServed(routes, core, 'GET', '/providers'),
  },
  {
    what: 'the step types fetch, ai, publish and update',
    builtin: 'steps-core',
    met: ({ stepTypes }) => ['fetch', 'ai', 'publish', 'update'].every((t) => stepTypes.has(t)),
  },
  { what: 'the schedule interval manual', builtin: 'intervals-core', met: ({ intervals }) => intervals.has('manual') },
];

/**
 * A build that leaves out what the core API needs stops start-up, saying what is missing
 * and which built-in gives it (docs/plugins.md, "What the core API needs"): without
 * `discovery` the admin client's GET /handlers answered 404, and nothing said why. A
 * plugin's test host, which loads only the plugin under test, passes `coreApi: false`.
 */
export function checkCoreApi(
  build: { routes: readonly CompiledRoute[]; stepTypes: Iterable<string>; intervals: Iterable<string> },
  coreNamespace: string,
): void {
  const have = { routes: build.routes, stepTypes: new Set(build.stepTypes), intervals: new Set(build.intervals) };
  const missing = CORE_NEEDS.filter((need) => !need.met(have, coreNamespace));
  if (!missing.length) return;
  const list = missing.map((m) => `${m.what} (add the built-in '${m.builtin}', or a plugin of yours that contributes them)`).join('; ');
  throw new Error(
    `This build lacks what the core API needs: ${list}. The stock list is defaultPlugins (flowhost/plugins); docs/plugins.md says what each built-in gives. A host for one plugin's tests can pass coreApi: false.`,
  );
}
