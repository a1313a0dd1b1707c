// What every answer must look like, whatever was sent: below 500, a JSON object body (HEAD
// has none), errors as { code, message, data: { status } } with data.status equal to the
// HTTP status, successes carrying success: true.
//
// With the route that answered (check mode names it in X-Flowhost-Route), also: the body matches the schema the route declares for that
// status (schema.responses, objects closed, as the host's check mode sees it), and a status
// the route does not declare is a failure; a non-JSON answer (the reference page, its
// assets) is one its schema declares with a contentMediaType.
import type { RawResponse } from './raw-request.js';
import type { CompiledRoute } from '../../host/http/route-table.js';
import { mediaTypeOf } from '../../host/http/response-check.js';
import { describeErrors } from '../../core/kernel/validator.js';

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
export function checkResponse(method: string, res: RawResponse, options: { pageRoute?: boolean; route?: CompiledRoute } = {}): Verdict {
  const problems: string[] = [];
  const declared = options.route?.responses[res.status] as { type?: unknown; properties?: Record<string, unknown> } | undefined;
  // A 5xx other than 500 that the route declares (wp/v2's 501 rest_trash_not_supported) is
  // an answer, not a failure; 500 never is.
  if (res.status >= 500 && !(res.status > 500 && declared !== undefined)) problems.push(`status ${res.status} (>= 500)`);
  if (res.status < 200) problems.push(`status ${res.status} (< 200)`);
  if (method.toUpperCase() === 'HEAD') return { problems };
  const media = declared ? mediaTypeOf(declared) : 'application/json';
  if (media !== 'application/json') {
    const type = String(res.headers['content-type'] ?? '');
    if (media !== '*/*' && !type.startsWith(media)) problems.push(`content-type ${type || 'none'}, declared ${media}`);
    if (media === 'text/html' && !/^<!doctype html>/i.test(res.text)) problems.push('page body is not an HTML document');
    return { problems };
  }
  if (options.pageRoute && String(res.headers['content-type'] ?? '').startsWith('text/html')) {
    if (res.status !== 200) problems.push(`page answered ${res.status} (a page route answers 200; errors are JSON)`);
    if (!/^<!doctype html>/i.test(res.text)) problems.push('page body is not an HTML document');
    return { problems };
  }

  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    problems.push(`body is not JSON (content-type ${String(res.headers['content-type'] ?? 'none')})`);
    return { problems };
  }
  const success = res.status >= 200 && res.status < 300;
  // Another API's shape (a wp/v2 list or object): no `success`, maybe not an object.
  const exact = success && declared !== undefined && !(declared.properties && 'success' in declared.properties);
  let code: string | undefined;
  if (!exact) {
    if (!isObject(body)) {
      problems.push('body is not a JSON object');
      return { problems };
    }
    code = typeof body.code === 'string' ? body.code : undefined;
    if (res.status >= 400) {
      if (typeof body.code !== 'string') problems.push('error body: code is not a string');
      if (typeof body.message !== 'string') problems.push('error body: message is not a string');
      if (!isObject(body.data)) problems.push('error body: data is not an object');
      else if (body.data.status !== res.status)
        problems.push(`error body: data.status ${JSON.stringify(body.data.status)} is not the HTTP status ${res.status}`);
    } else if (success && body.success !== true) {
      problems.push('success body without success: true');
    }
  }
  const route = options.route;
  if (route?.validateResponses) {
    const validate = route.validateResponses.get(res.status);
    if (!validate) problems.push(`status ${res.status} is not declared in the route's schema.responses`);
    else if (!validate(body))
      problems.push(
        `body does not match the declared schema for ${res.status}: ${describeErrors(validate.errors)
          .map((i) => i.message)
          .join('; ')}`,
      );
  }
  return { problems, code };
}
