// What every answer must look like, whatever was sent: below 500, a JSON object body (HEAD
// has none), errors as { code, message, data: { status } } with data.status equal to the
// HTTP status, successes carrying success: true.
import type { RawResponse } from './raw-request.js';

export interface Verdict {
  problems: string[];
  /** The error code when the body had one, for grouping failures. */
  code?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `pageRoute`: the route renders a page a browser opens (credentials 'page', the OAuth
 * popup): its own answer is HTML with status 200; every error before it is JSON as usual.
 */
export interface RouteShape {
  pageRoute?: boolean;
  /**
   * The route's `schema.responses`: a 2xx declared without `success` (a wp/v2 object or
   * array) is checked as any JSON; one declared as a string with a `contentMediaType` is
   * bytes (a stored file); a 5xx other than 500 it declares (WordPress's 501
   * rest_trash_not_supported) is an answer, not a failure.
   */
  responses?: Readonly<Record<number, unknown>>;
}

export function checkResponse(method: string, res: RawResponse, options: RouteShape = {}): Verdict {
  const problems: string[] = [];
  const declared = options.responses?.[res.status] as { type?: unknown; properties?: Record<string, unknown>; contentMediaType?: unknown } | undefined;
  const declaredServerError = res.status > 500 && declared !== undefined;
  if (res.status >= 500 && !declaredServerError) problems.push(`status ${res.status} (>= 500)`);
  if (res.status < 200) problems.push(`status ${res.status} (< 200)`);
  if (method.toUpperCase() === 'HEAD') return { problems };
  if (options.pageRoute && String(res.headers['content-type'] ?? '').startsWith('text/html')) {
    if (res.status !== 200) problems.push(`page answered ${res.status} (a page route answers 200; errors are JSON)`);
    if (!/^<!doctype html>/i.test(res.text)) problems.push('page body is not an HTML document');
    return { problems };
  }

  const success = res.status >= 200 && res.status < 300;
  if (success && declared && declared.type === 'string' && declared.contentMediaType !== undefined) return { problems };
  const exact = success && declared !== undefined && !(declared.properties && 'success' in declared.properties);
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    problems.push(`body is not JSON (content-type ${String(res.headers['content-type'] ?? 'none')})`);
    return { problems };
  }
  if (exact) return { problems };
  if (!isObject(body)) {
    problems.push('body is not a JSON object');
    return { problems };
  }
  const code = typeof body.code === 'string' ? body.code : undefined;
  if (res.status >= 400) {
    if (typeof body.code !== 'string') problems.push('error body: code is not a string');
    if (typeof body.message !== 'string') problems.push('error body: message is not a string');
    if (!isObject(body.data)) problems.push('error body: data is not an object');
    else if (body.data.status !== res.status) problems.push(`error body: data.status ${JSON.stringify(body.data.status)} is not the HTTP status ${res.status}`);
  } else if (res.status < 300 && body.success !== true) {
    problems.push('success body without success: true');
  }
  return { problems, code };
}
