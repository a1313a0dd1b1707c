import type { IncomingMessage } from 'node:http';
import FindMyWay from 'find-my-way';
import type { CompiledRoute } from './route-table.js';
import { ROUTER_OPTIONS, restifyPathname } from './restify-adapter.js';

/** A request the fast lane takes: its route and the path parameters the router decoded. */
export interface FastMatch {
  route: CompiledRoute;
  params: Record<string, string>;
}

/**
 * Routes declared `fastPath` are answered from restify's `first` chain, which restify
 * documents as the way around its own per-request work: no Request/Response decoration,
 * no pre/use chains. On `POST /trigger` that work cost 20–35 µs of the 180–210 µs of CPU a
 * request took (measured under 100 connections), about what the HMAC check and the job's
 * store write cost together. Everything the route declares still applies, because the request
 * goes through the same `dispatch` as any other.
 *
 * Matching is restify's own: the same router library (find-my-way, which restify documents
 * as its path syntax) with the same option, over every route, and the path as restify
 * reads it (`restifyPathname`), so a request goes to exactly the route restify would have
 * picked; only when that route is a fast one does this lane answer, and restify handles
 * the rest. test/host/http/restify-adapter.test.ts compares both choices over odd paths.
 */
export function fastLane(routes: readonly CompiledRoute[]): (req: IncomingMessage) => FastMatch | null {
  if (!routes.some((route) => route.definition.fastPath)) return () => null;
  const router = FindMyWay({ ...ROUTER_OPTIONS });
  const noop = () => undefined;
  for (const route of routes) {
    const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
    for (const method of methods) router.on(method as FindMyWay.HTTPMethod, route.routerPath, noop, { route });
  }
  return (req) => {
    const pathname = restifyPathname(req.url ?? '/');
    const found = router.find(req.method as FindMyWay.HTTPMethod, pathname);
    const route = (found?.store as { route: CompiledRoute } | undefined)?.route;
    if (!found || !route?.definition.fastPath) return null;
    return { route, params: { ...(found.params as Record<string, string>) } };
  };
}
