/**
 * The console's one way to the API: the cookie session plus its nonce (the same rules as
 * any same-origin client). A stale nonce is refetched and the call retried once, as the
 * original admin client does. A session that ended (401: idle, expired, ended elsewhere)
 * asks the person to sign in again over the page (onSessionLost) and then retries the call,
 * so nothing typed on the page is lost.
 */
const app = document.getElementById('app') as HTMLElement;
export const API_PREFIX = app.dataset.api ?? '/api';
export const NAMESPACE = app.dataset.namespace ?? 'automation/v1';
export const VERSION = app.dataset.version ?? '';

/** An error the API answered (or the network failed with), in the words the API used. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
  /** The body parameter the API named as wrong, when it named one (rest_invalid_param). */
  get param(): string | undefined {
    const params = this.data.params as Record<string, string> | undefined;
    return params ? Object.keys(params)[0] : undefined;
  }
}

let nonce = '';
/** Asks the person to sign in again; true once they have (the new nonce set), false if they gave up. */
type SignInAgain = () => Promise<boolean>;
let signInAgain: SignInAgain | null = null;
/** The one question in flight: every call refused meanwhile waits for the same answer. */
let asking: Promise<boolean> | null = null;
export function onSessionLost(handler: SignInAgain): () => void {
  signInAgain = handler;
  return () => {
    if (signInAgain === handler) signInAgain = null;
  };
}
export function setNonce(value: string): void {
  nonce = value;
}

/**
 * Calls started (synchronously) inside `load` are a page's own timed refresh, not a
 * person's action: they say so (X-Flowhost-Background), and the host does not count them
 * as use, so a console left open still reaches its idle timeout.
 */
let background = 0;
export function inBackground<T>(load: () => Promise<T>): Promise<T> {
  background++;
  try {
    return load();
  } finally {
    background--;
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

function url(path: string, query?: Query): string {
  const base = path.startsWith('/wp/') ? `${API_PREFIX}${path}` : `${API_PREFIX}/${NAMESPACE}${path}`;
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== null && value !== '') q.set(key, String(value));
  const text = q.toString();
  return text ? `${base}?${text}` : base;
}

async function send(
  method: string,
  path: string,
  body: unknown,
  query: Query | undefined,
  extra: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...extra, Accept: 'application/json' };
  if (nonce) headers['X-WP-Nonce'] = nonce;
  if (background > 0) headers['X-Flowhost-Background'] = '1';
  // A Blob (an uploaded file) goes as it is, typed by its own Content-Type (given in `extra`).
  const raw = body instanceof Blob;
  if (body !== undefined && !raw) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(url(path, query), {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure('The server did not answer. Is Flowhost still running?', 'network_error', 0);
  }
}

async function parse<T>(res: Response): Promise<T> {
  // (A wp/v2 list is a JSON array: it has no `success`, and a 2xx is its success.)
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    throw new ApiFailure(`The server answered ${res.status} without a JSON body.`, 'invalid_response', res.status);
  }
  const record = (body ?? {}) as Record<string, unknown>;
  if (!res.ok || record.success === false) {
    throw new ApiFailure(
      String(record.message ?? `The server answered ${res.status}.`),
      String(record.code ?? 'error'),
      res.status,
      (record.data as Record<string, unknown>) ?? {},
    );
  }
  return body as T;
}

type CallOptions = { body?: unknown; query?: Query; headers?: Record<string, string> };

/** `headers`: a route's own request headers (chat's X-Request-ID); the session's are added here. */
export async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  return (await callWithHeaders<T>(method, path, options)).body;
}

/** As call(), with the answer's headers (wp/v2 pages by X-WP-Total / X-WP-TotalPages). */
export async function callWithHeaders<T>(method: string, path: string, options: CallOptions = {}): Promise<{ body: T; headers: Headers }> {
  let res = await send(method, path, options.body, options.query, options.headers);
  if (res.status === 403) {
    const peek = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { code?: string };
    if (peek.code === 'rest_cookie_invalid_nonce') {
      const fresh = await fetch(url('/session'), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      if (fresh.ok) {
        nonce = ((await fresh.json()) as { data: { nonce: string } }).data.nonce;
        res = await send(method, path, options.body, options.query, options.headers);
      }
    }
  }
  if (res.status === 401 && path !== '/session' && signInAgain) {
    asking ??= signInAgain().finally(() => {
      asking = null;
    });
    // Refused with 401, the call did nothing: sent again it does what the person asked.
    if (await asking) res = await send(method, path, options.body, options.query, options.headers);
  }
  return { body: await parse<T>(res), headers: res.headers };
}

export interface Session {
  user_id: number;
  login: string;
  role: string;
  has_password: boolean;
  nonce: string;
}
