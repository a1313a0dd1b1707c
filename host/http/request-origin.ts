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

/** `name:port` split; `[v6]:port` keeps its brackets in the name. */
function splitHost(host: string): { name: string; port: string | null } {
  const colon = host.lastIndexOf(':');
  if (colon < 0 || host.endsWith(']')) return { name: host, port: null };
  return { name: host.slice(0, colon), port: host.slice(colon + 1) };
}

/**
 * FLOWHOST_ALLOWED_HOSTS compiled: the origin links use for a request a trusted proxy
 * forwarded. The client's host when it is listed (an entry without a port lists the name
 * on every port, so `flows.example.org` also takes `flows.example.org:8443`), otherwise the
 * first entry: a client's `Host: evil.example` never becomes a link, an OAuth redirect URL
 * or the `{url}` a webhook signature covers. Without entries, null: FLOWHOST_PUBLIC_URL is
 * then set (load-config.ts refuses a trusted proxy with neither) and it is what links use.
 */
export function allowedOrigins(entries: readonly string[]): (protocol: 'http' | 'https', host: string | undefined) => string | null {
  if (entries.length === 0) return () => null;
  const names = new Set<string>();
  const exact = new Set<string>();
  for (const entry of entries.map((e) => e.toLowerCase())) (splitHost(entry).port === null ? names : exact).add(entry);
  const fallback = entries[0]!.toLowerCase();
  return (protocol, host) => {
    const given = host?.toLowerCase();
    const listed = given !== undefined && HOST.test(given) && (exact.has(given) || names.has(splitHost(given).name));
    return `${protocol}://${listed ? given : fallback}`;
  };
}

export function withOrigin<T>(origin: string | null, run: () => T): T {
  return origin ? origins.run(origin, run) : run();
}

export function currentOrigin(): string | undefined {
  return origins.getStore();
}
