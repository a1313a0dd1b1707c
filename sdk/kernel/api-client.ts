/**
 * In-process access to this host's own REST API: a GET through the same route table,
 * permission check, query validation and handler as a request over HTTP, acting as a
 * given user, without a socket. Tools use it to read what the caller could read (the
 * chat's api_query); nothing goes over the network.
 */
import type { ActingUser } from './acting-user.js';
import type { Logger } from './logger.js';

export interface ApiGetOptions {
  /** Who the request acts for; null: an anonymous caller (public routes only). */
  user: ActingUser | null;
  /** Query parameters added to any in the path (`a[]`-style lists as arrays). */
  query?: Readonly<Record<string, string | number | boolean | ReadonlyArray<string | number>>>;
  /** Where the route's own log lines go (default: the host's logger). */
  log?: Logger;
  /** Which client acts, as a change's revision records it (`mcp`, a plugin's own word); default `plugin`. */
  client?: string;
}

/** What `request` sends: `ApiGetOptions` and a JSON body (methods other than GET). */
export interface ApiRequestOptions extends ApiGetOptions {
  /** The decoded JSON body, validated by the route's body schema as a sent one would be; default `{}`. */
  body?: unknown;
}

/** The methods `request` takes (a route's, less HEAD and OPTIONS, which the HTTP server derives). */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The answer exactly as an HTTP client would see it: status, decoded body, headers. */
export interface ApiResponse {
  status: number;
  /** The JSON body (an HTML page as its text; a streamed file as null). */
  body: unknown;
  headers: Record<string, string | string[]>;
}

export interface ApiClient {
  /**
   * GET `path`, relative to the API prefix: `/wp/v2/posts?per_page=5` names the namespace,
   * and a path no route of that shape answers is tried in the core namespace
   * (`/flows` is `{prefix}/automation/v1/flows`). Errors come back as answers (404
   * `rest_no_route`, 401/403, 400 `rest_invalid_param`...), never as throws.
   */
  get(path: string, options: ApiGetOptions): Promise<ApiResponse>;
  /**
   * Any method, as `get` does it: the route's permission, params/query/body validation
   * and handler, acting as `user`, errors answered not thrown. For a tool that stands for
   * a REST route (the MCP server's tools): it then checks exactly the capability the route
   * checks and answers its bodies. Upload routes (`streamBody`) and browser pages are not
   * reachable this way (404 `rest_no_route`).
   */
  request(method: ApiMethod, path: string, options: ApiRequestOptions): Promise<ApiResponse>;
}
