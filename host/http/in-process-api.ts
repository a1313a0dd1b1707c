/**
 * `services.api`: a request to this host's own REST API without a socket. The route is found
 * in the same compiled table the HTTP server serves, and the request goes through the
 * same `runRoute` (permission, query validation, handler) and the same error mapping as
 * over HTTP, so a tool acting for a user can read exactly what that user could read with
 * their own credentials, and gets the same 400/403/404 bodies.
 */
import { randomUUID } from 'node:crypto';
import type { ApiClient, ApiMethod, ApiRequestOptions, ApiResponse } from '../../core/kernel/api-client.js';
import type { ActingUser } from '../../core/kernel/acting-user.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { Principal } from '../../core/kernel/principal.js';
import type { ApiError } from '../../core/errors.js';
import { isRouteReply, RouteReply } from '../../core/kernel/routes.js';
import { parseQueryInput } from '../../core/kernel/request-input.js';
import { checked, runRoute } from './dispatch.js';
import { noRoute, toErrorResponse } from './error-body.js';
import type { CompiledRoute } from './route-table.js';
import { apiError } from '../../core/errors/catalogue.js';

export interface InProcessApi extends ApiClient {
  /** The route table, once compiled (after every plugin's setup). */
  attach(routes: readonly CompiledRoute[]): void;
}

/** The acting user as the principal a route sees (capabilities as they were snapshotted). */
function principalOf(user: ActingUser, client: string): Principal {
  const capabilities = new Set(user.capabilities);
  return { userId: user.userId, login: user.login, role: 'acting', capabilities, via: 'local', client, can: (c) => capabilities.has(c) };
}

/** Path parameters when `fullPath` matches, with a score preferring static segments (as the router does). */
function match(route: CompiledRoute, segments: string[]): { params: Record<string, string>; score: string } | null {
  const pattern = route.fullPath.split('/');
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = Object.create(null);
  let score = '';
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    // Segments are decoded one by one: an escaped '/' stays inside its parameter.
    const given = decodeURIComponent(segments[i]!);
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name) {
      if (!given) return null;
      params[name] = given;
      score += '0';
    } else if (part === given) score += '1';
    else return null;
  }
  return { params, score };
}

export function createInProcessApi(options: { apiPrefix: string; coreNamespace: string; log: Logger }): InProcessApi {
  let table: readonly CompiledRoute[] | null = null;

  const find = (method: ApiMethod, path: string): { route: CompiledRoute; params: Record<string, string> } | null => {
    const segments = path.replace(/\/+$/, '').split('/');
    let best: { route: CompiledRoute; params: Record<string, string>; score: string } | null = null;
    for (const route of table ?? []) {
      // Browser navigations (credentials 'page': OAuth popups) are for a person, not a tool.
      // Uploads read the socket themselves: there is none here.
      if (
        route.method !== method ||
        route.definition.credentials === 'page' ||
        route.definition.streamBody ||
        !route.fullPath.startsWith(`${options.apiPrefix}/`)
      )
        continue;
      const found = match(route, segments);
      if (found && (!best || found.score > best.score)) best = { route, ...found };
    }
    return best;
  };

  const request = async (
    method: ApiMethod,
    target: string,
    { user, query: extra, log: given, body, client = 'plugin' }: ApiRequestOptions,
  ): Promise<ApiResponse> => {
    if (!table)
      throw new Error('services.api is ready once every plugin has been set up (call it from a route, a tool or a job, not from setup)');
    const requestId = randomUUID();
    const log = (given ?? options.log).child({ req_id: requestId, in_process: true });
    const cut = target.search(/[?#]/);
    const rawPath = cut < 0 ? target : target.slice(0, cut);
    const search = cut < 0 || target[cut] === '#' ? '' : target.slice(cut).replace(/#.*$/, '');
    const fail = (error: ApiError): ApiResponse => ({ status: error.status, body: error.toBody(), headers: {} });
    if (!rawPath.startsWith('/')) return fail(noRoute());
    const path = rawPath;
    try {
      decodeURIComponent(rawPath);
    } catch {
      return fail(
        apiError('rest_invalid_url', {
          message: 'The URL path has an invalid percent-escape (each % must start a valid UTF-8 sequence such as %20 or %C3%A9).',
        }),
      );
    }
    // As given under the prefix (`/wp/v2/posts`), else in the core namespace (`/flows`).
    const candidates = [`${options.apiPrefix}${path}`, `${options.apiPrefix}/${options.coreNamespace}${path}`];
    const fullPath = candidates.find((c) => find(method, c));
    const found = fullPath ? find(method, fullPath) : null;
    if (!fullPath || !found) return fail(noRoute());
    const { route, params } = found;
    const query: Record<string, unknown> = parseQueryInput(search);
    for (const [name, value] of Object.entries(extra ?? {})) query[name] = Array.isArray(value) ? value.map(String) : String(value);
    // Through JSON, as a sent body would be decoded (a route that decodes rawBody itself reads the same).
    const sent = method === 'GET' || body === undefined ? {} : (JSON.parse(JSON.stringify(body)) as unknown);
    const rawBody = method === 'GET' ? Buffer.alloc(0) : Buffer.from(JSON.stringify(sent));
    const request = {
      params: Object.assign(Object.create(null) as Record<string, unknown>, params),
      query,
      body: sent,
      rawBody,
      stream: null,
      user: user ? principalOf(user, client) : null,
      headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
      method,
      url: `${fullPath}${search}`,
      ip: 'in-process',
      protocol: 'http' as const,
      requestId,
      log,
    };
    try {
      const result = await runRoute(route, request, async () => undefined);
      const reply = isRouteReply(result) ? result : new RouteReply(200, result);
      if (reply.html !== null) return { status: reply.status, body: reply.html, headers: reply.headers };
      if (reply.mode === 'stream') {
        reply.stream?.destroy();
        return { status: reply.status, body: null, headers: reply.headers };
      }
      const body = reply.mode === 'exact' ? reply.exact : 'success' in reply.body ? reply.body : { success: true, ...reply.body };
      const answer = checked(route, reply.status, body, () => log);
      // Through JSON, as a client would decode it (Dates as strings, no undefined).
      return {
        status: answer.status,
        body: JSON.parse(JSON.stringify(answer.body ?? null)) as unknown,
        headers: answer.replaced ? {} : reply.headers,
      };
    } catch (error) {
      const answer = toErrorResponse(error, requestId);
      if (answer.unexpected)
        log.error(
          { err: error, route: `${method} ${route.fullPath}`, plugin: route.owner },
          'Unexpected error in route handler (in-process request)',
        );
      const check = checked(route, answer.status, answer.body, () => log);
      return { status: check.status, body: check.body, headers: answer.headers };
    }
  };

  return {
    attach(routes) {
      table = routes;
    },
    get: (target, options) => request('GET', target, options),
    request,
  };
}
