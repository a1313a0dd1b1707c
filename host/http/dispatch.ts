import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ValidateFunction } from 'ajv';
import { ApiError } from '../../core/errors.js';
import { apiError } from '../../core/errors/catalogue.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { RequestTiming } from '../../core/kernel/hooks.js';
import type { Principal } from '../../core/kernel/principal.js';
import { RouteReply, isRouteReply, type HttpMethod, type RouteRequest, type RouteResult } from '../../core/kernel/routes.js';
import { describeErrors } from '../../core/kernel/validator.js';
import type { Authenticator } from '../auth/authenticator.js';
import { ANONYMOUS_CHALLENGE } from '../auth/challenges.js';
import { BodyAbortedError, BodyTimeoutError, BodyTooLargeError, decodeBody, readBody, watchUpload, type BodyTiming } from './read-body.js';
import type { ConnectionLimits } from './connection-limits.js';
import { withOrigin } from './request-origin.js';
import { readClient, type ClientView, type TrustFunction } from './client-address.js';
import { mediaType, parseQueryInput } from '../../core/kernel/request-input.js';
import { toErrorResponse, validationError } from './error-body.js';
import type { CompiledRoute } from './route-table.js';
import { setWordPressCors } from './wordpress-cors.js';
import { filterFields, requestedFields } from './wordpress-fields.js';
import { sentMethod } from './head-as-get.js';
import { loggableUrl } from '../logging/request-url.js';
import { denyFraming } from './security-headers.js';

export interface DispatchDeps {
  authenticator: Authenticator;
  bodyLimit: number;
  log: Logger;
  /** Told of every answered request (the `requestFinished` hook's call). */
  onFinished?: (timing: RequestTiming) => void;
  /** Which peers may say who the client is (FLOWHOST_TRUST_PROXY); none when absent. */
  trust?: TrustFunction;
  /** How slowly a body may arrive; unbounded when absent (in-process tests). */
  bodyTiming?: BodyTiming;
  /** Header, keep-alive and request timeouts and connection caps for the HTTP server. */
  connections?: ConnectionLimits;
  /**
   * The origin links use for a request a trusted proxy forwarded (FLOWHOST_ALLOWED_HOSTS,
   * `allowedOrigins`); null, or absent, leaves FLOWHOST_PUBLIC_URL or the listening URL.
   */
  linkOrigin?: (protocol: 'http' | 'https', host: string | undefined) => string | null;
  /** The Strict-Transport-Security value for answers to requests that came over https; none when absent. */
  hsts?: string;
}

type Headers = Record<string, string | undefined>;

function flatHeaders(req: IncomingMessage): Headers {
  const out: Headers = {};
  for (const [key, value] of Object.entries(req.headers)) out[key] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Whether a body follows the headers (a length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Who the client is: the socket's peer, or through trusted proxies the address they
 * forwarded. `dispatch` reads it once per request and hands it on in `RouteRequest.ip` and
 * `.protocol`, so every per-client mechanism uses this one view.
 */
export function clientOf(req: IncomingMessage, trust: TrustFunction | undefined): ClientView {
  return readClient(req, trust ?? (() => false));
}

/** A request id a client may choose (kept and echoed): short, printable, no spaces or quotes. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@+/=-]{1,128}$/;

/** The client's X-Request-Id when it is safe to log and echo, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Writes a JSON answer; the core API's bodies are objects (an `exact` reply may be any JSON). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  if (res.headersSent) return;
  const payload = JSON.stringify(body);
  res.statusCode = status;
  // Every answer carries one, also those given before any route (unknown method, bad URL).
  if (!res.hasHeader('X-Request-Id')) res.setHeader('X-Request-Id', randomUUID());
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

function sendPage(res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]>): void {
  if (res.headersSent) return;
  res.statusCode = status;
  denyFraming(res);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}

/** Pipes a stored file; a read failure after the headers went out ends the connection. */
async function sendStream(res: ServerResponse, status: number, body: Readable, headers: Record<string, string | string[]>): Promise<void> {
  if (res.headersSent) return void body.destroy();
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // A page a route streams (a plugin's rendered template, a stored file) is a page too.
  if (!res.hasHeader('X-Frame-Options') && mediaType(String(res.getHeader('Content-Type') ?? '')) === 'text/html') denyFraming(res);
  try {
    await pipeline(body, res);
  } catch (error) {
    if (!res.headersSent) throw error;
    res.destroy();
  }
}

/** After an answer that left a body unread: how much more is read and dropped before the connection is cut. */
const LINGER_MS = 10_000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * The answer goes out before the body was read to its end (too large, refused, no route).
 * The rest of the body is then read and dropped, up to LINGER_BYTES or LINGER_MS (as
 * nginx's and Apache's lingering close do), and the connection is cut only past that
 * budget. Cutting it at once makes the kernel reset a socket with unread bytes, and a
 * reverse proxy still sending the body (nginx with proxy_request_buffering off) then
 * reports 502 instead of our answer. A body that ends within the budget leaves the
 * connection as keep-alive left it. A body that was too slow is not waited for
 * (`linger: false`): the socket is closed right after the answer.
 *
 * The socket is taken now: by the time 'finish' fires Node may have detached it from the
 * request (`req.socket` is then null, and reading it crashed the process).
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse, linger = true): void {
  if (res.headersSent) return;
  const socket = req.socket ?? res.socket;
  if (!linger) {
    res.setHeader('Connection', 'close');
    res.once('finish', () => socket?.destroy());
    return;
  }
  res.once('finish', () => {
    if (!socket || socket.destroyed || req.readableEnded) return;
    const start = socket.bytesRead;
    const settle = () => {
      clearTimeout(timer);
      clearInterval(meter);
    };
    const cut = () => {
      settle();
      socket.destroy();
    };
    // Unref'd: draining a refused body is no reason to keep a stopping process alive.
    const timer = setTimeout(cut, LINGER_MS).unref();
    const meter = setInterval(() => socket.bytesRead - start > LINGER_BYTES && cut(), 100).unref();
    req.once('end', settle);
    req.once('close', settle);
    // The request may have closed before the answer finished; the socket's close ends it too.
    socket.once('close', settle);
    req.once('error', () => undefined);
    req.resume();
  });
}

/**
 * Check mode (the route has response validators): a JSON answer whose status the route
 * does not declare, or whose body its schema refuses, is replaced by a 500
 * `rest_response_invalid` naming the route, status and error, and logged — a test that
 * asserts the status then fails.
 */
export function checked(
  route: CompiledRoute,
  status: number,
  body: unknown,
  log: () => Logger,
): { status: number; body: unknown; replaced: boolean } {
  const validators = route.validateResponses;
  if (!validators) return { status, body, replaced: false };
  const validate = validators.get(status);
  const label = `${route.method} ${route.fullPath}`;
  let problem: string | null = null;
  if (!validate) problem = `the route declares no response schema for status ${status}`;
  else if (!validate(body)) {
    problem =
      describeErrors(validate.errors)
        .map((i) => i.message)
        .join('; ') || 'the body does not match';
  }
  if (problem === null) return { status, body, replaced: false };
  const answeredCode =
    body && typeof body === 'object' && typeof (body as Record<string, unknown>).code === 'string'
      ? ` (it answered code '${String((body as Record<string, unknown>).code)}')`
      : '';
  const message = `Response check: ${label} answered ${status}, which its schema refuses: ${problem}${answeredCode}`;
  log().error({ route: label, plugin: route.owner, status, body }, message);
  return {
    status: 500,
    body: { code: 'rest_response_invalid', message, data: { status: 500, route: label, answered: status } },
    replaced: true,
  };
}

function validate(fn: ValidateFunction | undefined, value: unknown, where: 'params' | 'query' | 'body'): void {
  if (!fn) return;
  if (!fn(value)) throw validationError(where, describeErrors(fn.errors));
}

async function checkPermission(route: CompiledRoute, request: RouteRequest, user: Principal | null): Promise<void> {
  const permission = route.definition.permission;
  if (permission === 'public') return;
  if (!user)
    throw apiError('rest_not_logged_in', route.definition.challenge ? { headers: { 'WWW-Authenticate': ANONYMOUS_CHALLENGE } } : {});
  if (permission === 'authenticated') return;
  if ('capability' in permission) {
    if (!user.can(permission.capability)) throw apiError('rest_forbidden', { user });
    return;
  }
  if (!(await permission.check(request))) throw apiError('rest_forbidden', { user });
}

type MutableRequest = { -readonly [K in keyof RouteRequest]: RouteRequest[K] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** WordPress clients send 1/0 (and yes/no, on/off) for booleans: read those words as booleans. */
function booleanWords(values: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names) {
    const value = values[name];
    if (typeof value === 'string' && /^(1|0|yes|no|on|off)$/i.test(value)) values[name] = /^(1|yes|on)$/i.test(value);
  }
}

/**
 * What every request to a route goes through once it is matched and its caller known,
 * over HTTP or in process (`in-process-api.ts`): the permission, then the body
 * (`readBody`, HTTP only), boolean query values, params/query/body validation, the handler.
 */
export async function runRoute(route: CompiledRoute, request: MutableRequest, readBody: () => Promise<void>): Promise<RouteResult> {
  // Permission before the body is read: a stranger cannot make us buffer an upload.
  // (Permission checks therefore see params and query, never the body.)
  await checkPermission(route, request, request.user);
  await readBody();
  const query = request.query as Record<string, unknown>;
  booleanWords(query, route.booleanQuery);
  // WordPress routes match only ids their pattern takes (`/posts/abc` and `/posts/-1` are
  // no route there): a path parameter that fails its schema is 404 rest_no_route, not 400.
  if (route.rest !== 'wordpress') validate(route.validateParams, request.params, 'params');
  else if (route.validateParams && !route.validateParams(request.params)) throw apiError('rest_no_route');
  validate(route.validateQuery, query, 'query');
  if (!route.validateQuery) for (const key of Object.keys(query)) delete query[key]; // undeclared: ignored
  // A form body's values are all strings, as a query's are: read them the same way.
  const form = mediaType(request.headers['content-type']) === 'application/x-www-form-urlencoded';
  if (form && isRecord(request.body)) booleanWords(request.body, route.booleanBody);
  validate(form ? route.validateFormBody : route.validateBody, request.body, 'body');
  return route.definition.handle(request);
}

/**
 * One request through one route: authenticate, check permission, read and validate,
 * handle, answer. Every failure ends as the spec's error body; unexpected ones are
 * logged with the request id and answered 500 without details.
 */
export async function dispatch(
  route: CompiledRoute,
  req: IncomingMessage,
  res: ServerResponse,
  routerParams: Record<string, string>,
  deps: DispatchDeps,
): Promise<void> {
  const requestId = requestIdOf(req);
  const started = process.hrtime.bigint();
  // The request's own logger only when something logs through it: a child logger per
  // request was measurable on the webhook path, where handlers log nothing.
  let child: Logger | undefined;
  const log = (): Logger => (child ??= deps.log.child({ req_id: requestId }));
  res.setHeader('X-Request-Id', requestId);
  // Before anything can fail: a cross-origin client must be able to read errors too.
  if (route.rest === 'wordpress') setWordPressCors(req, res);
  // Check mode (tests): which route answered, so a test or the fuzzer can check the answer against it.
  if (route.validateResponses) res.setHeader('X-Flowhost-Route', `${route.method} ${route.fullPath}`);
  const headers = flatHeaders(req);
  const method = route.method;
  const client = clientOf(req, deps.trust);
  let stopWatch: () => void = () => undefined;
  try {
    const credentials = route.definition.credentials;
    const user =
      credentials === 'ignored'
        ? null
        : await deps.authenticator.authenticate({ headers, ip: client.ip, navigation: credentials === 'page' });
    const query: Record<string, unknown> = parseQueryInput(req.url ?? '');
    const params: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, routerParams);
    const request: MutableRequest = {
      params,
      query,
      body: {},
      rawBody: Buffer.alloc(0),
      stream: null,
      user,
      headers,
      method: method as HttpMethod,
      url: req.url ?? '/',
      ip: client.ip,
      protocol: client.protocol,
      requestId,
      get log() {
        return log();
      },
    };
    // Behind a trusted proxy, the host's public URL is the allowed host this client used (unless configured).
    const origin = client.forwarded && deps.linkOrigin ? deps.linkOrigin(client.protocol, client.host) : null;
    const result = await withOrigin(origin, () =>
      runRoute(route, request, async () => {
        if (method === 'GET') {
          // A GET's body means nothing here, but it is read (and dropped, within the body
          // limit) before the answer: answering first and then closing a `Connection:
          // close` socket with the rest of the body unread makes the kernel send a reset,
          // and the client loses the answer it was sent (the fuzz saw this on large answers).
          if (hasBody(req)) await readBody(req, deps.bodyLimit > 0 ? deps.bodyLimit : Number.POSITIVE_INFINITY, deps.bodyTiming);
        } else if (route.definition.streamBody) {
          // The route reads the upload itself; a body that stalls or drags is failed under it
          // (its reader sees the error, the answer is 408 and the connection closes).
          if (deps.bodyTiming && hasBody(req)) stopWatch = watchUpload(req, deps.bodyTiming, route.definition.bodyLimit);
          request.stream = req;
        } else {
          const limit = route.definition.bodyLimit;
          const bytes = typeof limit === 'function' ? await limit(request) : (limit ?? deps.bodyLimit);
          request.rawBody = await readBody(req, bytes > 0 ? bytes : Number.POSITIVE_INFINITY, deps.bodyTiming);
          if (route.definition.decodeBody !== false) request.body = decodeBody(request.rawBody, headers['content-type']);
        }
      }),
    );
    const reply = isRouteReply(result) ? result : new RouteReply(200, result);
    if (route.definition.streamBody && !req.complete) closeAfterAnswer(req, res);
    if (reply.html !== null) sendPage(res, reply.status, reply.html, reply.headers);
    else if (reply.mode === 'stream' && reply.stream) await sendStream(res, reply.status, reply.stream, reply.headers);
    else {
      const body = reply.mode === 'exact' ? reply.exact : 'success' in reply.body ? reply.body : { success: true, ...reply.body };
      const answer = checked(route, reply.status, body, log);
      // `_fields` after the check: the route's answer is what its schema describes; the
      // selection is WordPress's server's, on successful answers only.
      const fields = route.rest === 'wordpress' && answer.status < 300 ? requestedFields(req.url ?? '') : null;
      sendJson(res, answer.status, fields ? filterFields(answer.body, fields) : answer.body, answer.replaced ? {} : reply.headers);
    }
  } catch (error) {
    if (error instanceof BodyAbortedError) {
      // Nobody to answer (or Node's parser answered the broken framing itself): a client
      // error in the request line, not a server error.
      log().info({ route: `${route.method} ${route.fullPath}`, reason: error.cause.message }, 'The client left before its body arrived');
      res.statusCode = 400;
      if (!res.headersSent) res.destroy();
      return;
    }
    const answer = toErrorResponse(error, requestId);
    if (answer.unexpected)
      log().error({ err: error, route: `${route.method} ${route.fullPath}`, plugin: route.owner }, 'Unexpected error in route handler');
    const headersOut: Record<string, string> = { ...answer.headers };
    // Stop the upload (too large, or refused part-way by a streaming route): answer, then
    // close the connection instead of reading the rest.
    if (error instanceof BodyTimeoutError) closeAfterAnswer(req, res, false);
    else if (error instanceof BodyTooLargeError || (route.definition.streamBody && !req.complete)) closeAfterAnswer(req, res);
    const check = checked(route, answer.status, answer.body, log);
    sendJson(res, check.status, check.body, headersOut);
  } finally {
    stopWatch();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    deps.log.info(
      {
        req_id: requestId,
        method: sentMethod(req),
        url: loggableUrl(req.url),
        ip: client.ip,
        route: route.fullPath,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      },
      'request',
    );
    if (deps.onFinished) {
      try {
        deps.onFinished({ method, route: route.fullPath, owner: route.owner, status: res.statusCode, durationMs: ms });
      } catch (error) {
        log().warn({ err: error }, 'A requestFinished tap failed');
      }
    }
  }
}

export { ApiError };
