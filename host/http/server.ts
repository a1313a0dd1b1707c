import type { IncomingMessage, ServerResponse } from 'node:http';
import restify from 'restify';
import { pino } from 'pino';
import { dispatch, sendJson, type DispatchDeps } from './dispatch.js';
import { noRoute } from './error-body.js';
import type { CompiledRoute } from './route-table.js';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
const ALL_METHODS = ['get', 'post', 'put', 'patch', 'del', 'head', 'opts'] as const;

type RestifyHandler = (req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse, next: (err?: unknown) => void) => void;
type RestifyServer = restify.Server & Record<(typeof ALL_METHODS)[number], (path: string, handler: RestifyHandler) => void>;

/**
 * The restify server: the method-override transport rule, every compiled route through
 * `dispatch`, and `rest_no_route` for everything else.
 */
export function createHttpServer(routes: CompiledRoute[], deps: DispatchDeps): RestifyServer {
  const server = restify.createServer({
    name: 'flowhost',
    ignoreTrailingSlash: true,
    handleUncaughtExceptions: false,
    // restify's own logger stays quiet; Flowhost logs every request itself.
    log: pino({ level: 'silent' }),
  } as unknown as restify.ServerOptions) as RestifyServer;

  // The original admin client sends PUT/PATCH/DELETE as POST + X-HTTP-Method-Override
  // (WordPress also honours `_method` in the query).
  server.pre(((req, _res, next) => {
    if (req.method === 'POST') {
      const header = req.headers['x-http-method-override'];
      const fromQuery = /[?&]_method=([A-Za-z]+)/.exec(req.url ?? '')?.[1];
      const wanted = String(Array.isArray(header) ? header[0] : (header ?? fromQuery ?? '')).toUpperCase();
      if (OVERRIDABLE.has(wanted)) req.method = wanted;
    }
    next();
  }) as RestifyHandler as never);

  for (const route of routes) {
    const verb = route.method === 'DELETE' ? 'del' : (route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch');
    server[verb](route.routerPath, (req, res, next) => {
      dispatch(route, req, res, { ...(req.params ?? {}) }, deps).then(
        () => next(false),
        (error: unknown) => {
          deps.log.error({ err: error }, 'dispatch failed');
          if (!res.headersSent) sendJson(res, 500, { code: 'internal_error', message: 'An unexpected error occurred.', data: { status: 500 } });
          next(false);
        },
      );
    });
  }

  const fallback: RestifyHandler = (_req, res, next) => {
    sendJson(res, 404, noRoute().toBody());
    next(false);
  };
  for (const verb of ALL_METHODS) server[verb]('/*', fallback);
  for (const event of ['NotFound', 'MethodNotAllowed', 'VersionNotAllowed']) {
    server.on(event, (_req: IncomingMessage, res: ServerResponse, _err: unknown, cb: () => void) => {
      sendJson(res, 404, noRoute().toBody());
      cb();
    });
  }
  // Node closes idle keep-alive sockets after 5 s; a client reusing one at that moment
  // gets a reset ("fetch failed"). Keep idle sockets longer than clients and load
  // balancers do (they close first), and headersTimeout above it as Node requires.
  server.server.keepAliveTimeout = 65_000;
  server.server.headersTimeout = 66_000;
  return server;
}
