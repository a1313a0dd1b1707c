import type { IncomingMessage } from 'node:http';

// HEAD is answered by the GET route: the request is routed as GET, and Node sends no body
// for it, since it decided that from the method when it made the response, before any
// handler ran. Registering every GET route a second time for HEAD was 102 of the 366
// routes restify's router built at each start, about 12 ms of it (find-my-way compiles a
// matcher for each node of each method's tree; 3 December, docs/performance.md).
const heads = new WeakSet<IncomingMessage>();

/** Routes a HEAD request as GET (restify's first chain, before routing). */
export function routeHeadAsGet(req: IncomingMessage): void {
  if (req.method !== 'HEAD') return;
  heads.add(req);
  req.method = 'GET';
}

/** The method the client sent, for the request log. */
export function sentMethod(req: IncomingMessage): string | undefined {
  return heads.has(req) ? 'HEAD' : req.method;
}
