import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/kernel/logger.js';
import { closeAfterAnswer, dispatch, hasBody, sendJson, type DispatchDeps } from './dispatch.js';
import type { ApiError } from '../../core/errors.js';
import { noRoute } from './error-body.js';
import { answerParserErrors } from './client-error.js';
import type { CompiledRoute } from './route-table.js';
import { type FastMatch, fastLane } from './fast-lane.js';
import { routeHeadAsGet } from './head-as-get.js';
import { answerPreflight } from './wordpress-cors.js';
import { applyConnectionLimits, defaultConnectionLimits, onRefusedConnection } from './connection-limits.js';
import { createRestifyServer, nodeServerOf, validHost, type RestifyHandler, type RestifyServer, type Verb } from './restify-adapter.js';
import { apiError } from '../../core/errors/catalogue.js';
import { setSecurityHeaders } from './security-headers.js';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
/** Methods the router knows; anything else (TRACE, PROPFIND...) is answered before routing. */
const ROUTABLE = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
// No 'head': a HEAD request is routed as GET (head-as-get.ts) before restify's router sees it.
const ALL_METHODS: readonly Verb[] = ['get', 'post', 'put', 'patch', 'del', 'opts'];

/**
 * The restify server: the method-override transport rule, every compiled route through
 * `dispatch`, and `rest_no_route` for everything else.
 */
export function createHttpServer(routes: CompiledRoute[], deps: DispatchDeps): RestifyServer {
  const server = createRestifyServer();

  // First, synchronously, before restify parses anything: requests its router cannot take
  // (an unknown method, a Host it cannot read, a path that does not decode) are answered
  // here, once, in Flowhost's error body; a Host restify cannot parse threw inside its
  // router. Then the method override, and the routes that skip restify's request setup.
  // The fast lane's router is built after the first request rather than at start: registering
  // every route a second time was about 40 ms of a start (docs/performance.md, "Start-up: one
  // bundle"). Until then a fast route goes through restify's chain, to the same `dispatch`.
  let lane: ((req: IncomingMessage) => FastMatch | null) | undefined;
  let building = false;
  const fast = (req: IncomingMessage): FastMatch | null => {
    if (lane) return lane(req);
    if (!building) {
      building = true;
      setImmediate(() => {
        lane = fastLane(routes);
      });
    }
    return null;
  };
  server.first((req, res) => {
    if (onRefusedConnection(req.socket)) return false;
    setSecurityHeaders(req, res, deps);
    const refusal = unroutable(req);
    if (refusal) {
      if (hasBody(req) && !req.complete) closeAfterAnswer(req, res);
      sendJson(res, refusal.status, refusal.toBody());
      return false;
    }
    applyMethodOverride(req);
    routeHeadAsGet(req);
    const match = fast(req);
    if (!match) return true;
    answer(match.route, req, res, match.params, deps, () => undefined);
    return false;
  });

  for (const route of routes) {
    const verb: Verb = route.method === 'DELETE' ? 'del' : (route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch');
    // HEAD wherever GET (uptime checkers use HEAD): routed as GET in the first chain above.
    server[verb](route.routerPath, (req, res, next) => answer(route, req, res, { ...(req.params ?? {}) }, deps, () => next(false)));
  }

  // Preflights of CORS surfaces: one OPTIONS answer per path, naming the path's methods.
  const corsPaths = new Map<string, string[]>();
  for (const route of routes)
    if (route.rest === 'wordpress') corsPaths.set(route.routerPath, [...(corsPaths.get(route.routerPath) ?? []), route.method]);
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
  shapeRestifyErrors(server, deps.log);
  answerParserErrors(nodeServerOf(server));
  applyConnectionLimits(nodeServerOf(server), deps.connections ?? defaultConnectionLimits, deps.trust);
  return server;
}

/**
 * restify's own error answer, for what the guard and the fallbacks above do not foresee
 * (no such request is known): restify answers it once, in Flowhost's error body, through
 * restify's documented way to shape errors (the error's statusCode and toJSON, set in a
 * `restifyError` listener, which restify calls for every error before it answers).
 */
export function shapeRestifyErrors(server: RestifyServer, log: Logger): void {
  server.on('restifyError', (_req: IncomingMessage, res: ServerResponse, err: unknown, cb: () => void) => {
    if (err && typeof err === 'object') {
      const status = (err as { statusCode?: unknown }).statusCode;
      let body: object;
      // Router errors (no route, method or version not allowed) read as no route, as everywhere else.
      if (status === 404 || status === 405 || (err as Error).name === 'InvalidVersionError') body = noRoute().toBody();
      else if (typeof status === 'number' && status >= 400 && status < 500)
        body = apiError('rest_bad_request', { message: (err as Error).message || 'Bad request.', status }).toBody();
      else {
        log.error({ err }, 'restify reported an error outside any route');
        body = { code: 'internal_error', message: 'An unexpected error occurred.', data: { status: 500 } };
      }
      Object.assign(err, { statusCode: (body as { data: { status: number } }).data.status, toJSON: () => body });
    }
    if (!res.headersSent) {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      if (!res.hasHeader('X-Request-Id')) res.setHeader('X-Request-Id', randomUUID());
    }
    cb();
  });
}

/** One request through its route; `dispatch` answers every failure it knows, this the rest. */
function answer(
  route: CompiledRoute,
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string>,
  deps: DispatchDeps,
  done: () => void,
): void {
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

/** Why restify could not route this request, or null: an unknown method, a Host it cannot read, or a path that does not decode. */
function unroutable(req: IncomingMessage): ApiError | null {
  if (!ROUTABLE.has(req.method ?? '')) return noRoute();
  if (!validHost(req.headers.host))
    return apiError('rest_bad_request', {
      message: 'The Host header is not a valid host name and port (for example example.com or 127.0.0.1:8080).',
      status: 400,
    });
  const url = req.url ?? '/';
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  if (!path.startsWith('/')) return noRoute();
  try {
    decodeURIComponent(path);
  } catch {
    return apiError('rest_invalid_url', {
      message: 'The URL path has an invalid percent-escape (each % must start a valid UTF-8 sequence such as %20 or %C3%A9).',
    });
  }
  return null;
}
