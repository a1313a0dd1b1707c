import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The public origin (`https://example.org`) a request reached us at, as trusted proxies
 * told it (X-Forwarded-Proto/-Host or Forwarded proto=/host=). While a route runs, the
 * host's `publicUrl()` answers it when FLOWHOST_PUBLIC_URL is not set, so links, OAuth
 * redirect URLs and `{url}` in webhook signatures are the ones the client used.
 */
const origins = new AsyncLocalStorage<string>();

/** A host name (and port) a proxy may forward: letters, digits, dots and dashes, or a bracketed IPv6 address. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export function originOf(protocol: 'http' | 'https', host: string | undefined): string | null {
  return host && HOST.test(host) ? `${protocol}://${host.toLowerCase()}` : null;
}

export function withOrigin<T>(origin: string | null, run: () => T): T {
  return origin ? origins.run(origin, run) : run();
}

export function currentOrigin(): string | undefined {
  return origins.getStore();
}
