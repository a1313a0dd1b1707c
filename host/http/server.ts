import { ServerResponse as NodeServerResponse, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type restify from 'restify';

// restify's index loads every bundled plugin (body parsers, HTTP signatures with sshpk,
// the CSV formatter...): 340 modules, about 10 MB of an idle host. Flowhost uses none of
// them, only the server and its router, so it takes those two files. What the index's
// createServer adds for these options is the router, built here the same way.
const require = createRequire(import.meta.url);
const Server = require('restify/lib/server') as new (options: Record<string, unknown>) => restify.Server;
const Router = require('restify/lib/router') as new (options: Record<string, unknown>) => unknown;

// Loading restify replaces http.ServerResponse.prototype.writeHead, process-wide, with a
// wrapper that returns undefined instead of the response (`res.writeHead(200).end()` then
// throws in any other server of the process, e.g. a plugin test's fake API). Flowhost
// never uses what the wrapper adds (a 'header' event for restify's fullResponse plugin),
// so Node's own method is put back.
{
  const proto = NodeServerResponse.prototype as unknown as { writeHead: unknown; _writeHead?: unknown };
  if (typeof proto._writeHead === 'function') proto.writeHead = proto._writeHead;
}
import { pino } from 'pino';
import { closeAfterAnswer, dispatch, hasBody, sendJson, type DispatchDeps } from './dispatch.js';
import { ApiError } from '../../core/errors.js';
import { noRoute } from './error-body.js';
import { answerParserErrors } from './client-error.js';
import type { CompiledRoute } from './route-table.js';
import { fastLane } from './fast-lane.js';
import { answerPreflight } from './wordpress-cors.js';
import { applyConnectionLimits, defaultConnectionLimits, onRefusedConnection } from './connection-limits.js';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
/** Methods the router knows; anything else (TRACE, PROPFIND...) is answered before routing. */
const ROUTABLE = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALL_METHODS = ['get', 'post', 'put', 'patch', 'del', 'head', 'opts'] as const;

type RestifyHandler = (req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse, next: (err?: unknown) => void) => void;
type Verb = (typeof ALL_METHODS)[number];
/** restify 12's `first` chain: synchronous handlers that return false when they have answered. */
type FirstHandler = (req: IncomingMessage, res: ServerResponse) => boolean;
type RestifyServer = restify.Server & Record<Verb, (path: string, handler: RestifyHandler) => void> & { first(handler: FirstHandler): void };

/**
 * The restify server: the method-override transport rule, every compiled route through
 * `dispatch`, and `rest_no_route` for everything else.
 */
export function createHttpServer(routes: CompiledRoute[], deps: DispatchDeps): RestifyServer {
  const options = {
    name: 'flowhost',
    ignoreTrailingSlash: true,
    handleUncaughtExceptions: false,
    // restify's own logger stays quiet; Flowhost logs every request itself.
    log: pino({ level: 'silent' }),
  };
  const server = new Server({ ...options, router: new Router(options) }) as RestifyServer;

  // First, synchronously, before restify parses anything: requests its router cannot take
  // are answered here, once. Left to restify they reach its NotFound path, which answers
  // and then tries to answer again (ERR_HTTP_HEADERS_SENT, thrown outside any handler).
  // Then the method override, and the routes that skip restify's request setup.
  const fast = fastLane(routes);
  server.first((req, res) => {
    if (onRefusedConnection(req.socket)) return false;
    const refusal = unroutable(req);
    if (refusal) {
      if (hasBody(req) && !req.complete) closeAfterAnswer(req, res);
      sendJson(res, refusal.status, refusal.toBody());
      return false;
    }
    applyMethodOverride(req);
    const match = fast(req);
    if (!match) return true;
    answer(match.route, req, res, match.params, deps, () => undefined);
    return false;
  });

  for (const route of routes) {
    const verb = route.method === 'DELETE' ? 'del' : (route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch');
    // HEAD wherever GET: the same dispatch (uptime checkers use HEAD); Node sends no body.
    const verbs: Verb[] = verb === 'get' ? ['get', 'head'] : [verb];
    for (const registerOn of verbs) server[registerOn](route.routerPath, (req, res, next) => answer(route, req, res, { ...(req.params ?? {}) }, deps, () => next(false)));
  }

  // Preflights of CORS surfaces: one OPTIONS answer per path, naming the path's methods.
  const corsPaths = new Map<string, string[]>();
  for (const route of routes) if (route.rest === 'wordpress') corsPaths.set(route.routerPath, [...(corsPaths.get(route.routerPath) ?? []), route.method]);
  for (const [path, methods] of corsPaths) {
    server.opts(path, (req, res, next) => {
      answerPreflight(req, res, methods);
      next(false);
    });
  }

  const fallback: RestifyHandler = (req, res, next) => {
    // A body sent to no route is not read: close after the answer instead of draining it.
    if (hasBody(req) && !req.complete) closeAfterAnswer(req, res);
    sendJson(res, 404, noRoute().toBody());
    next(false);
  };
  for (const verb of ALL_METHODS) server[verb]('/*', fallback);
  // Backstop for anything the guard above did not foresee: answer once, and make restify's
  // own answer that follows these events a no-op instead of a second, crashing one.
  for (const event of ['NotFound', 'MethodNotAllowed', 'VersionNotAllowed', 'restifyError']) {
    server.on(event, (_req: IncomingMessage, res: ServerResponse & { send?: unknown }, err: unknown, cb: () => void) => {
      if (event === 'restifyError' && !res.headersSent) {
        const status = (err as { statusCode?: unknown })?.statusCode;
        if (typeof status === 'number' && status >= 400 && status < 500 && status !== 404) {
          sendJson(res, status, new ApiError('rest_bad_request', (err as Error).message || 'Bad request.', status).toBody());
        } else if (typeof status !== 'number' || status >= 500) {
          deps.log.error({ err }, 'restify reported an error outside any route');
          sendJson(res, 500, { code: 'internal_error', message: 'An unexpected error occurred.', data: { status: 500 } });
        }
      }
      sendJson(res, 404, noRoute().toBody());
      res.send = () => res;
      cb();
    });
  }
  answerParserErrors(server.server);
  applyConnectionLimits(server.server, deps.connections ?? defaultConnectionLimits, deps.trust);
  return server;
}

/** One request through its route; `dispatch` answers every failure it knows, this the rest. */
function answer(route: CompiledRoute, req: IncomingMessage, res: ServerResponse, params: Record<string, string>, deps: DispatchDeps, done: () => void): void {
  dispatch(route, req, res, params, deps).then(done, (error: unknown) => {
    deps.log.error({ err: error }, 'dispatch failed');
    if (!res.headersSent) sendJson(res, 500, { code: 'internal_error', message: 'An unexpected error occurred.', data: { status: 500 } });
    done();
  });
}

/**
 * The original admin client sends PUT/PATCH/DELETE as POST + X-HTTP-Method-Override
 * (WordPress also honours `_method` in the query); any other method named stays POST.
 */
function applyMethodOverride(req: IncomingMessage): void {
  if (req.method !== 'POST') return;
  const header = req.headers['x-http-method-override'];
  const fromQuery = /[?&]_method=([A-Za-z]+)/.exec(req.url ?? '')?.[1];
  const wanted = String(Array.isArray(header) ? header[0] : (header ?? fromQuery ?? '')).toUpperCase();
  if (OVERRIDABLE.has(wanted)) req.method = wanted;
}

/** Why restify could not route this request, or null: an unknown method or a path that does not decode. */
function unroutable(req: IncomingMessage): ApiError | null {
  if (!ROUTABLE.has(req.method ?? '')) return noRoute();
  const url = req.url ?? '/';
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  if (!path.startsWith('/')) return noRoute();
  try {
    decodeURIComponent(path);
  } catch {
    return new ApiError('rest_invalid_url', 'The URL path has an invalid percent-escape (each % must start a valid UTF-8 sequence such as %20 or %C3%A9).', 400);
  }
  return null;
}
