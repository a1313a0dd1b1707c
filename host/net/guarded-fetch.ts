import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { FetchLimitError, UrlRefusedError, type GuardedFetch, type GuardedRequestInit, type GuardedResponse } from '../../core/security/guarded-fetch-types.js';
import { isAllowedAddress, type AddressPolicy } from './address-policy.js';

export interface GuardedFetchOptions extends AddressPolicy {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Fetch for user-given URLs. Names are resolved here and every resolved address is
 * checked at connect time (so a DNS answer cannot be swapped between check and use),
 * literal IPs before connecting, each redirect hop again; the whole exchange has a
 * timeout and the body is read as a stream and dropped past `maxBytes`.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const defaults = { timeoutMs: options.timeoutMs ?? 10_000, maxBytes: options.maxBytes ?? 5 * 1024 * 1024, maxRedirects: options.maxRedirects ?? 5 };

  return async function guardedFetch(input: string, init: GuardedRequestInit = {}): Promise<GuardedResponse> {
    const timeoutMs = init.timeoutMs ?? defaults.timeoutMs;
    const maxBytes = init.maxBytes ?? defaults.maxBytes;
    const maxRedirects = init.maxRedirects ?? defaults.maxRedirects;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let refusal: UrlRefusedError | null = null;
    const agent = new Agent({
      connect: {
        lookup: ((hostname: string, lookupOptions: { family?: number; all?: boolean }, callback: LookupCallback) => {
          dnsLookup(hostname, { all: true, family: lookupOptions.family ?? 0 }, (error, addresses) => {
            if (error) return callback(error, '');
            const bad = addresses.find((a) => !isAllowedAddress(a.address, options));
            if (bad) {
              refusal = new UrlRefusedError(`Refused to fetch ${hostname}: it resolves to a non-public address (${bad.address})`);
              return callback(refusal as unknown as NodeJS.ErrnoException, '');
            }
            if (lookupOptions.all) callback(null, addresses);
            else callback(null, addresses[0]!.address, addresses[0]!.family);
          });
        }) as never,
      },
    });
    try {
      let url = checkUrl(input, options);
      let method = (init.method ?? 'GET').toUpperCase();
      let body = init.body;
      for (let hop = 0; ; hop++) {
        let response;
        try {
          response = await request(url, {
            method: method as never,
            headers: { 'user-agent': options.userAgent ?? 'Flowhost', ...(init.headers ?? {}) },
            body,
            dispatcher: agent,
            signal: controller.signal,
          });
        } catch (error) {
          if (refusal) throw refusal;
          if (controller.signal.aborted) throw new FetchLimitError('timeout', `Fetching ${url.host} took longer than ${timeoutMs} ms`);
          throw error;
        }
        const location = response.headers.location;
        if (response.statusCode >= 300 && response.statusCode < 400 && location) {
          response.body.resume();
          if (hop >= maxRedirects) throw new FetchLimitError('too_many_redirects', `More than ${maxRedirects} redirects from ${input}`);
          url = checkUrl(new URL(String(location), url).href, options);
          if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
          }
          continue;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          for await (const chunk of response.body) {
            size += (chunk as Buffer).length;
            if (size > maxBytes) {
              response.body.destroy();
              throw new FetchLimitError('too_large', `The response from ${url.host} is larger than ${maxBytes} bytes`);
            }
            chunks.push(chunk as Buffer);
          }
        } catch (error) {
          if (error instanceof FetchLimitError) throw error;
          if (controller.signal.aborted) throw new FetchLimitError('timeout', `Fetching ${url.host} took longer than ${timeoutMs} ms`);
          throw error;
        }
        const buffer = Buffer.concat(chunks, size);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
        return {
          status: response.statusCode,
          ok: response.statusCode >= 200 && response.statusCode < 300,
          url: url.href,
          headers,
          body: buffer,
          text: () => buffer.toString('utf8'),
          json: <T>() => JSON.parse(buffer.toString('utf8')) as T,
        };
      }
    } finally {
      clearTimeout(timer);
      void agent.close().catch(() => undefined);
    }
  };
}

/** Scheme and literal-address checks, before any connection is made. */
function checkUrl(input: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UrlRefusedError(`Not a valid URL: ${input.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlRefusedError(`Only http and https URLs can be fetched (got ${url.protocol})`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isAllowedAddress(host, policy)) {
    throw new UrlRefusedError(`Refused to fetch ${url.host}: it is a non-public address`);
  }
  return url;
}
