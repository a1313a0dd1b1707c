import type { Readable } from 'node:stream';
import type { JsonSchema } from './json-schema.js';
import type { Logger } from './logger.js';
import type { Capability, Principal } from './principal.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a request needs before `handle` runs. Every route must declare one. */
export type Permission =
  /** Anyone, no login (health, webhook triggers, login itself). */
  | 'public'
  /** Any logged-in user. */
  | 'authenticated'
  /** A logged-in user with this capability. */
  | { capability: Capability }
  /** A logged-in user for whom the check answers true (e.g. "admin or the target user"). */
  | {
      check: (request: RouteRequest<Record<string, unknown>, Record<string, unknown>, unknown>) => boolean | Promise<boolean>;
      description: string;
    };

export interface RouteRequest<P = Record<string, unknown>, Q = Record<string, unknown>, B = unknown> {
  /** Path parameters, validated (and coerced) by `schema.params`. */
  readonly params: P;
  /** Declared query parameters, validated and coerced; undeclared ones are dropped. */
  readonly query: Q;
  /** Decoded body (JSON or form), validated by `schema.body`; `{}` when empty. */
  readonly body: B;
  /** The exact bytes received, for signature checks (empty for a `streamBody` route). */
  readonly rawBody: Buffer;
  /**
   * The request body as it arrives, for a route with `streamBody: true` (an upload read
   * with busboy, never buffered whole); null otherwise. The route enforces its own size cap.
   */
  readonly stream: Readable | null;
  readonly user: Principal | null;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly method: HttpMethod;
  /** Path and query as received. */
  readonly url: string;
  /** The client's address: the socket's peer, or what trusted proxies forwarded (FLOWHOST_TRUST_PROXY). */
  readonly ip: string;
  /** 'https' when the client reached us over TLS (directly, or as a trusted proxy says). */
  readonly protocol: 'http' | 'https';
  /** The client's X-Request-Id when it sent a safe one, else a new id; echoed in the answer. */
  readonly requestId: string;
  readonly log: Logger;
}

const ROUTE_REPLY = Symbol.for('flowhost.route-reply');

/** A response with a status or headers other than the default 200. */
export class RouteReply {
  /** Brand: a reply made by another copy of the SDK is still a reply. */
  readonly [ROUTE_REPLY] = true;
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string | string[]> = {},
    /** A page instead of JSON (an OAuth popup's last screen): sent as text/html, as is. */
    readonly html: string | null = null,
    /**
     * 'exact': the body is sent as given, any JSON value (a WordPress list is an array),
     * without the `success: true` the core API adds. 'stream': `stream` is piped as is.
     */
    readonly mode: 'object' | 'exact' | 'stream' = 'object',
    readonly exact: unknown = undefined,
    readonly stream: Readable | null = null,
  ) {}
}

export function isRouteReply(value: unknown): value is RouteReply {
  return !!value && typeof value === 'object' && (value as Record<symbol, unknown>)[ROUTE_REPLY] === true;
}

/**
 * An HTML page (for routes a browser opens itself, e.g. an OAuth popup). Build it with an
 * escaping template: nothing a user sent may reach it unescaped. No other page may frame
 * it (`frame-ancestors 'none'` here, X-Frame-Options: DENY from the host).
 */
export function page(status: number, html: string, headers: Record<string, string | string[]> = {}): RouteReply {
  return new RouteReply(
    status,
    {},
    {
      'Content-Security-Policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      ...headers,
    },
    html,
  );
}

/**
 * Any JSON value exactly as given (an array, an object without `success`): for surfaces
 * that speak another API's shape, such as wp/v2.
 */
export function json(status: number, body: unknown, headers: Record<string, string | string[]> = {}): RouteReply {
  return new RouteReply(status, {}, headers, null, 'exact', body);
}

/** Bytes from a stream (a stored file); set Content-Type (and Content-Length when known). */
export function stream(status: number, body: Readable, headers: Record<string, string | string[]> = {}): RouteReply {
  return new RouteReply(status, {}, headers, null, 'stream', undefined, body);
}

/** Answer with a status (201, 202...) and optional headers such as Set-Cookie. */
export function reply(status: number, body: Record<string, unknown>, headers: Record<string, string | string[]> = {}): RouteReply {
  return new RouteReply(status, body, headers);
}

export type RouteResult = Record<string, unknown> | RouteReply;

export interface RouteSchema {
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /**
   * The body of each answer by status, as sent (including `success`): 200 (or 201...) and
   * every error status the route can give. Published in openapi.json; the test host checks
   * every answer against it, and an object schema without `additionalProperties` is
   * closed there, so a field the schema does not declare fails the test.
   */
  responses?: Readonly<Record<number, JsonSchema>>;
  /**
   * What a `streamBody` route reads with `readUpload`, for openapi.json (nothing validates
   * against it: the stream is read by the route): a multipart/form-data form with the file
   * in `field` and these text `fields`, or the raw body as the file.
   */
  upload?: UploadSchema;
  /**
   * Headers an answer carries, by status, for openapi.json (a generated client reads them
   * typed): WordPress's paging headers on a list, `Location` on a creation.
   */
  responseHeaders?: Readonly<Record<number, Readonly<Record<string, ResponseHeader>>>>;
  /**
   * Request headers the route reads itself (an `Idempotency-Key`), for openapi.json, so a
   * generated client offers them typed. The route checks them: nothing validates against this.
   */
  requestHeaders?: Readonly<Record<string, RequestHeader>>;
}

/** One request header as openapi.json declares it (a header parameter). */
export interface RequestHeader {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

/** One response header as openapi.json declares it. */
export interface ResponseHeader {
  description: string;
  schema: JsonSchema;
}

export interface UploadSchema {
  /** The multipart field holding the file (readUpload's `field`; default 'file'). */
  field?: string;
  /** The form's text fields the route reads next to the file, by name. */
  fields?: Readonly<Record<string, JsonSchema>>;
}

export interface RouteDefinition<P = Record<string, unknown>, Q = Record<string, unknown>, B = unknown> {
  method: HttpMethod;
  /** Relative to the surface's namespace; parameters in braces: `/flows/{flow_id}`. */
  path: string;
  permission: Permission;
  schema?: RouteSchema;
  summary?: string;
  description?: string;
  /**
   * Body size limit in bytes (default: the host's `bodyLimit`); a function decides per
   * request (it sees params and query) — 0 means unlimited. Reading stops at the limit.
   */
  bodyLimit?: number | ((request: RouteRequest<P, Q, B>) => number | Promise<number>);
  /**
   * 'page': a GET a browser navigates to (a popup): the session cookie counts without its
   * nonce header, which a navigation cannot send. Such a route must change nothing on its
   * own (the OAuth callback checks a single-use state bound to the user instead).
   * 'ignored': the request's user credentials (Basic, cookie) are never read, so a public
   * route such as a webhook trigger answers the same whatever a sender's URL carries and a
   * wrong password there counts against no login throttle; `user` is always null.
   * Only with `permission: 'public'`.
   */
  credentials?: 'ignored' | 'page';
  /**
   * true: an anonymous caller's 401 (`rest_not_logged_in`) carries the challenge
   * `WWW-Authenticate: Bearer realm="flowhost", Basic realm="flowhost"`, for clients that
   * learn from it how to authenticate (MCP clients). Off by default: a browser whose
   * script is answered a Basic challenge opens its own login dialog over the page.
   */
  challenge?: boolean;
  /**
   * false: left out of openapi.json. For a route that only refuses its method (GET and
   * DELETE on a stateless MCP endpoint answer 405, as the protocol asks): it is no
   * operation a client calls, and OpenAPI has no way to say "this method is refused".
   */
  openapi?: false;
  /** false: the body is not decoded before `handle` (the route decodes `rawBody` itself, e.g. after checking a signature). */
  decodeBody?: boolean;
  /**
   * true: the body is not read before `handle`; it is `request.stream` (uploads). The
   * permission is checked first, so a stranger's upload is refused before a byte is read.
   */
  streamBody?: boolean;
  /**
   * true: answered before the HTTP framework sets the request up (restify's `first`
   * chain), 20–35 µs less CPU per request as measured on the webhook trigger. Everything
   * else the route declares applies as on any route (permission, schemas, body limit,
   * error bodies, the requestFinished hook). For endpoints machines call at volume.
   */
  fastPath?: boolean;
  handle(request: RouteRequest<P, Q, B>): Promise<RouteResult> | RouteResult;
}

/** A group of routes under one namespace, contributed through the `surfaces` hook. */
export interface SurfaceDefinition {
  /** Unique id, e.g. 'discovery', 'docsync'. */
  id: string;
  /** Namespace under the API prefix, e.g. 'docsync/v1'. Omitted: the core namespace (`automation/v1` by default). */
  namespace?: string;
  /**
   * 'site-root': the routes' paths are used as given, outside the API prefix (an OAuth
   * callback at `/oauth/{slug}/`, a page). Default 'namespace': `{prefix}/{namespace}{path}`.
   */
  mount?: 'namespace' | 'site-root';
  /**
   * 'wordpress': the surface speaks WordPress's REST API, and the host adds what
   * WordPress's REST server adds to every answer: its CORS headers (rest_send_cors_headers
   * and serve_request: the request's Origin echoed with credentials allowed, X-WP-Total,
   * X-WP-TotalPages and Link exposed, OPTIONS preflights answered) and `_fields`
   * filtering of successful JSON answers (rest_filter_response_fields). CORS is safe only
   * where a cookie counts with its nonce alone (every API route) and no route of such a
   * surface hands the nonce out. Default: neither (same-origin clients, answers as sent).
   */
  rest?: 'wordpress';
  /**
   * The routes, or a function giving them. The function is called once, when the host
   * compiles its route table: after every plugin's setup, with the registries resolved.
   * A surface whose routes follow other plugins' contributions uses it (core-content
   * serves one set of wp/v2 routes per registered post type and taxonomy, so a docs or
   * events plugin that registers its post type gets routes without touching the surface).
   * Setup itself cannot read the registries: they are resolved only after every setup.
   */
  routes: RouteDefinition[] | (() => RouteDefinition[]);
}

/** A surface's routes, calling the function form (the host does this once, at boot). */
export function surfaceRoutes(surface: SurfaceDefinition): RouteDefinition[] {
  return typeof surface.routes === 'function' ? surface.routes() : surface.routes;
}
