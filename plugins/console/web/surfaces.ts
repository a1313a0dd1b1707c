import { useEffect, useState } from 'preact/hooks';
import { API_PREFIX, NAMESPACE } from './api.js';

/**
 * Which routes the host serves, read once per page load from the API index at `{prefix}/`
 * (the WordPress discovery document: every route under the prefix). An optional plugin's
 * part of the console (the alerts plugin's settings) is drawn only when the plugin's
 * routes are there, so a host without it shows no controls that would answer 404.
 */
let routes: Promise<Set<string>> | null = null;

function loadRoutes(): Promise<Set<string>> {
  routes ??= fetch(`${API_PREFIX}/`, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then((res) => (res.ok ? (res.json() as Promise<{ routes?: Record<string, unknown> }>) : { routes: {} }))
    .then((index) => new Set(Object.keys(index.routes ?? {})))
    .catch(() => {
      // Not known now: asked again next time rather than hiding the part for good.
      routes = null;
      return new Set<string>();
    });
  return routes;
}

/**
 * Whether the core namespace has a route, by its WordPress pattern relative to the
 * namespace ('/alerts'); undefined while the index loads.
 */
export function useHasRoute(route: string): boolean | undefined {
  const [has, setHas] = useState<boolean>();
  useEffect(() => {
    let live = true;
    void loadRoutes().then((known) => {
      if (live) setHas(known.has(`/${NAMESPACE}${route}`));
    });
    return () => {
      live = false;
    };
  }, [route]);
  return has;
}
