/**
 * One JSON call to a reporting API, its failures mapped to clear messages: quota, permission,
 * not found, other. The remote's own explanation is kept (it says which property or quota)
 * but every credential the call carried is cut out of it first, as are URLs (which may
 * hold `key=` or `apikey=`).
 */
import { FetchLimitError, UrlRefusedError, type GuardedFetch, type GuardedRequestInit } from '../index.js';
import type { ToolCatalogueEntry } from './catalogue.js';
import { remoteFailure } from './errors.js';

export interface RemoteCall {
  entry: ToolCatalogueEntry;
  /** The service's name for messages, e.g. 'The Search Console API'. */
  service: string;
  fetch: GuardedFetch;
  url: string;
  init: GuardedRequestInit;
  /** Values that must never appear in a message (API keys, tokens). */
  secrets: string[];
}

export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out
    .replace(/https?:\/\/[^\s"']+/g, '[url]')
    .replace(/\b(api_?key|key|access_token|token)=[^\s&"')]+/gi, '$1=[redacted]')
    .slice(0, 300);
}

/** The remote's explanation: Google's `error.message`/`error.status`, Bing's `Message`/`ErrorCode`. */
function remoteReason(body: unknown): { message: string; status: string } {
  if (!body || typeof body !== 'object') return { message: '', status: '' };
  const b = body as Record<string, unknown>;
  const error = b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>) : null;
  if (error)
    return {
      message: typeof error.message === 'string' ? error.message : '',
      status: typeof error.status === 'string' ? error.status : '',
    };
  if (typeof b.Message === 'string') return { message: b.Message, status: b.ErrorCode !== undefined ? String(b.ErrorCode) : '' };
  if (typeof b.error_description === 'string') return { message: b.error_description, status: typeof b.error === 'string' ? b.error : '' };
  return { message: typeof b.message === 'string' ? b.message : '', status: '' };
}

function kindOf(httpStatus: number, status: string, message: string): string {
  const text = `${status} ${message}`.toLowerCase();
  if (httpStatus === 429 || /resource_exhausted|quota|rate ?limit|throttl/.test(text)) return 'quota exceeded; try again later';
  if (
    httpStatus === 401 ||
    httpStatus === 403 ||
    /permission|unauthori[sz]ed|notauthorized|invalidapikey|api key not valid|forbidden/.test(text)
  )
    return 'permission denied; check the credentials and that they have access to this site or property';
  if (httpStatus === 404 || /not_found|not found/.test(text)) return 'not found';
  if (httpStatus >= 500) return 'the service failed';
  return 'request refused';
}

export async function callJson<T = unknown>(call: RemoteCall): Promise<T> {
  let res;
  try {
    res = await call.fetch(call.url, { timeoutMs: 30_000, maxBytes: 10 * 1024 * 1024, ...call.init });
  } catch (error) {
    if (error instanceof UrlRefusedError)
      throw remoteFailure(call.entry, `${call.service} address is refused: ${scrub(error.message, call.secrets)}`, null);
    if (error instanceof FetchLimitError)
      throw remoteFailure(call.entry, `${call.service} did not answer in time or answered too much (${error.code})`, null);
    throw remoteFailure(
      call.entry,
      `${call.service} could not be reached: ${scrub((error as Error).message ?? String(error), call.secrets)}`,
      null,
    );
  }
  let body: unknown = null;
  const text = res.text();
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      if (res.ok) throw remoteFailure(call.entry, `${call.service} answered with something other than JSON`, res.status);
    }
  }
  if (!res.ok) {
    const reason = remoteReason(body);
    const detail = reason.message ? `: ${scrub(reason.message, call.secrets)}` : '';
    throw remoteFailure(
      call.entry,
      `${call.service}: ${kindOf(res.status, reason.status, reason.message)} (HTTP ${res.status})${detail}`,
      res.status,
    );
  }
  return body as T;
}
