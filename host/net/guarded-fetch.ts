import type { Dispatcher } from 'undici';

// undici (110 modules) loads on the first outbound fetch, not at start-up.
let undici: Promise<typeof import('undici')> | null = null;
const loadUndici = () => (undici ??= import('undici'));
import {
  FetchLimitError,
  UrlRefusedError,
  type GuardedFetch,
  type GuardedRequestInit,
  type GuardedResponse,
} from '../../core/security/guarded-fetch-types.js';
import type { AddressPolicy } from './address-policy.js';
import { checkedLookup, systemResolver, type Resolver } from './checked-lookup.js';
import { checkUrl } from './url-policy.js';

export interface GuardedFetchOptions extends AddressPolicy {
  /** Whole exchange, redirects and body included. Default 10 s. */
  timeoutMs?: number;
  /** Largest body read; past it the stream is aborted. Default 5 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
  /** Name resolution (tests give a fake; default dns.lookup with all addresses). */
  resolve?: Resolver;
}

const DEFAULTS = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin they were meant for (as browsers do). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Fetch for user-given URLs (feeds, webhooks, images, ...). The scheme, literal IPs and
 * localhost names are checked before connecting; host names are resolved by our own
 * lookup, which refuses if any address is not public and hands the socket exactly the
 * addresses it checked. Redirects are followed here, each hop checked again. One
 * timeout covers the whole exchange, and the body is read as a stream and aborted as
 * soon as it passes `maxBytes`.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const policy: AddressPolicy = { allowPrivate: options.allowPrivate, allowAddress: options.allowAddress };
  const lookup = checkedLookup(policy, options.resolve ?? systemResolver);
  const userAgent = options.userAgent ?? 'Flowhost';

  return async function guardedFetch(input: string, init: GuardedRequestInit = {}): Promise<GuardedResponse> {
    const timeoutMs = init.timeoutMs ?? options.timeoutMs ?? DEFAULTS.timeoutMs;
    const maxBytes = init.maxBytes ?? options.maxBytes ?? DEFAULTS.maxBytes;
    const maxRedirects = init.maxRedirects ?? options.maxRedirects ?? DEFAULTS.maxRedirects;

    let url = checkUrl(input, policy);
    const { Agent, request } = await loadUndici();
    // One agent per call: its connections are only ever made through the checked lookup,
    // and nothing pooled outlives the call.
    const agent = new Agent({ connect: { lookup } });
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);

    try {
      let method = (init.method ?? 'GET').toUpperCase();
      let body = init.body;
      const headers = requestHeaders(init.headers, userAgent);
      for (let redirects = 0; ; redirects++) {
        const response = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          dispatcher: agent,
          signal: controller.signal,
        });
        const location = headerValue(response.headers.location);
        if (REDIRECTS.has(response.statusCode) && location) {
          discard(response.body);
          if (redirects >= maxRedirects) {
            throw new FetchLimitError('too_many_redirects', `Refused to follow more than ${maxRedirects} redirects from ${input}`);
          }
          const next = checkUrl(new URL(location, url).href, policy);
          if (
            (response.statusCode === 303 && method !== 'HEAD') ||
            ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
          ) {
            method = 'GET';
            body = undefined;
            delete headers['content-type'];
            delete headers['content-length'];
          }
          if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
          url = next;
          continue;
        }
        const buffer = await readCapped(response, maxBytes, url);
        return toGuardedResponse(response, url, buffer);
      }
    } catch (error) {
      throw translate(error, { timedOut, timeoutMs, url });
    } finally {
      clearTimeout(timer);
      agent.destroy().catch(() => undefined);
    }
  };
}

function requestHeaders(given: Record<string, string> | undefined, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  for (const [name, value] of Object.entries(given ?? {})) headers[name.toLowerCase()] = String(value);
  return headers;
}

/**
 * Drops a body we will not read. undici reports the destroy as an 'error' event, which
 * would crash the process with no listener attached.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Reads the body chunk by chunk, stopping as soon as it passes the cap. */
async function readCapped(response: Dispatcher.ResponseData, maxBytes: number, url: URL): Promise<Buffer> {
  const tooLarge = () => new FetchLimitError('too_large', `The response from ${url.host} is larger than the limit of ${maxBytes} bytes`);
  const declared = Number(headerValue(response.headers['content-length']));
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard(response.body);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > maxBytes) {
      discard(response.body);
      throw tooLarge();
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

function toGuardedResponse(response: Dispatcher.ResponseData, url: URL, body: Buffer): GuardedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return {
    status: response.statusCode,
    ok: response.statusCode >= 200 && response.statusCode < 300,
    url: url.href,
    headers,
    body,
    text: () => body.toString('utf8'),
    json: <T = unknown>() => JSON.parse(body.toString('utf8')) as T,
  };
}

/** Our own errors pass through; a refusal from the lookup may arrive wrapped by undici. */
function translate(error: unknown, state: { timedOut: boolean; timeoutMs: number; url: URL }): unknown {
  if (error instanceof FetchLimitError) return error;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof UrlRefusedError) return e;
  }
  if (state.timedOut) return new FetchLimitError('timeout', `Fetching ${state.url.host} took longer than ${state.timeoutMs} ms`);
  return error;
}
