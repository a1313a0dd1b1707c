import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type ProxyAddr from 'proxy-addr';
import type ParseForwarded from 'forwarded-parse';

// Required on first use, not at import: the config check imports this module, so every CLI
// command (`--help` included) loaded proxy-addr and ipaddr.js for a setting most never use.
const require = createRequire(import.meta.url);
let proxyAddrModule: typeof ProxyAddr | undefined;
let parseForwardedModule: typeof ParseForwarded | undefined;
const proxyAddr = () => (proxyAddrModule ??= require('proxy-addr') as typeof ProxyAddr);
const parseForwarded = (header: string) => (parseForwardedModule ??= require('forwarded-parse') as typeof ParseForwarded)(header);

/**
 * Which header the trusted proxies write the client into: nginx's `$proxy_add_x_forwarded_for`
 * (the default), or RFC 7239 `Forwarded`. Only that one is read. A proxy passes on
 * whatever else the client sent, and nginx's documented config sets X-Forwarded-For but
 * leaves a client's own `Forwarded` untouched: reading both (Forwarded first, as before)
 * let any client name its own address and lock a user out of theirs.
 */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded';

/** Whether the hop `index` away from this host (0 = the socket's peer) at `address` is a proxy we trust. */
export type TrustFunction = ((address: string, index: number) => boolean) & { readonly header?: ProxyHeader };

/** What the request says about its client once trusted hops are read. */
export interface ClientView {
  /** The client's address: the first untrusted hop read from the right, or the socket peer. */
  ip: string;
  /** 'https' when a trusted proxy says the client used TLS. */
  protocol: 'http' | 'https';
  /** The Host the client asked for (a trusted proxy's X-Forwarded-Host, else Host). */
  host: string | undefined;
  /** Whether a trusted proxy stood between: its protocol and host claims were read. */
  forwarded: boolean;
}

const trustNobody: TrustFunction = () => false;

/**
 * FLOWHOST_TRUST_PROXY: unset or empty trusts nobody (forwarded headers are ignored, the
 * socket's peer is the client); a number trusts that many hops; otherwise a comma-separated
 * list of addresses, CIDR ranges and proxy-addr's names (`loopback`, `linklocal`,
 * `uniquelocal`). An entry that is none of these stops start-up (see `checkTrustProxy`).
 */
export function compileTrust(setting: string | undefined, header: ProxyHeader = 'x-forwarded-for'): TrustFunction {
  const value = (setting ?? '').trim();
  if (trustsNobody(value)) return trustNobody;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return Object.assign((_address: string, index: number) => index < hops, { header });
  }
  const compiled = proxyAddr().compile(
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );
  return Object.assign((address: string, index: number) => compiled(address, index), { header });
}

/** Whether the setting trusts no peer (forwarded headers are then ignored). */
export function trustsNobody(setting: string | undefined): boolean {
  const value = (setting ?? '').trim();
  return value === '' || value === 'false' || value === 'none' || value === '0';
}

/**
 * With a trusted proxy, where links get their host: FLOWHOST_PUBLIC_URL, or a host of
 * FLOWHOST_ALLOWED_HOSTS. With neither, links followed any Host a client sent through the
 * proxy (OAuth redirect URLs, post links, the discovery Link): start-up stops instead.
 */
export function checkLinkHosts(trustProxy: string, publicUrl: string | undefined, allowedHosts: readonly string[]): string | null {
  if (trustsNobody(trustProxy) || publicUrl || allowedHosts.length > 0) return null;
  return 'FLOWHOST_TRUST_PROXY is set, so set FLOWHOST_PUBLIC_URL (the address clients use, e.g. https://flows.example.org) or FLOWHOST_ALLOWED_HOSTS (the host names a proxy may forward): links must not take whatever Host a client sends';
}

/** The setting's problem in one sentence, or null: for config validation before start-up. */
export function checkTrustProxy(setting: string): string | null {
  try {
    compileTrust(setting);
    return null;
  } catch (error) {
    return `trustProxy (FLOWHOST_TRUST_PROXY) '${setting}' is not a hop count, an address, a CIDR range or one of loopback, linklocal, uniquelocal: ${(error as Error).message}`;
  }
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(',') : value);

/** A `for=` node of RFC 7239 without its port or brackets; null for `unknown` and obfuscated ids. */
function forwardedNode(node: string | undefined): string | null {
  if (!node) return null;
  let value = node.trim();
  if (value.startsWith('[')) value = value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  return isIP(value) ? value : null;
}

/** The hops from the right, from the one header the proxies write (X-Forwarded-* or RFC 7239 `Forwarded`). */
function forwardedHops(
  req: IncomingMessage,
  header: ProxyHeader,
): {
  addresses: Array<string | null>;
  protos: Array<string | undefined>;
  hosts: Array<string | undefined>;
} {
  if (header === 'forwarded') {
    const text = first(req.headers.forwarded);
    if (!text) return { addresses: [], protos: [], hosts: [] };
    try {
      const entries = parseForwarded(text);
      return {
        addresses: entries.map((e) => forwardedNode(e.for)),
        protos: entries.map((e) => e.proto),
        hosts: entries.map((e) => e.host),
      };
    } catch {
      // A malformed Forwarded header gives no hops: the proxy itself is the client.
      return { addresses: [], protos: [], hosts: [] };
    }
  }
  const list = (first(req.headers['x-forwarded-for']) ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const protos = (first(req.headers['x-forwarded-proto']) ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const hosts = (first(req.headers['x-forwarded-host']) ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    addresses: list.map((entry) => (isIP(entry) ? entry : forwardedNode(entry))),
    protos,
    hosts,
  };
}

/** IPv4 seen through an IPv6 socket (`::ffff:10.0.0.1`) reads as IPv4, so one client has one key. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * Whether the client used TLS: to this host's own socket, or, as the nearest trusted
 * proxy says (its last X-Forwarded-Proto, or `proto=` of RFC 7239), to that proxy. Read on
 * every answer for Strict-Transport-Security, so it reads only the nearest hop's claim.
 */
export function cameOverHttps(req: IncomingMessage, trust: TrustFunction | undefined): boolean {
  if ('encrypted' in (req.socket ?? {})) return true;
  if (!trust || trust === trustNobody || !trust(plain(req.socket?.remoteAddress ?? 'unknown'), 0)) return false;
  if ((trust.header ?? 'x-forwarded-for') === 'forwarded') return forwardedHops(req, 'forwarded').protos.at(-1) === 'https';
  const protos = first(req.headers['x-forwarded-proto']);
  if (!protos) return false;
  return protos.slice(protos.lastIndexOf(',') + 1).trim() === 'https';
}

/**
 * Reads the client from the right: the socket's peer first; while the hop just read is
 * trusted, the next address to its left is the client as that proxy saw it. A client can
 * put anything it likes at the left of the list, so only trusted hops are believed.
 */
export function readClient(req: IncomingMessage, trust: TrustFunction): ClientView {
  const peer = plain(req.socket?.remoteAddress ?? 'unknown');
  const view: ClientView = {
    ip: peer,
    protocol: 'encrypted' in (req.socket ?? {}) ? 'https' : 'http',
    host: first(req.headers.host),
    forwarded: false,
  };
  if (trust === trustNobody || !trust(peer, 0)) return view;
  const hops = forwardedHops(req, trust.header ?? 'x-forwarded-for');
  view.forwarded = true;
  let index = hops.addresses.length - 1;
  let hop = 1;
  // The nearest proxy's own claims about the scheme and host it was asked for: the last value.
  const proto = hops.protos[hops.protos.length - 1];
  const host = hops.hosts[hops.hosts.length - 1];
  if (proto === 'https' || proto === 'http') view.protocol = proto;
  if (host) view.host = host;
  while (index >= 0) {
    const address = hops.addresses[index];
    if (address === null || address === undefined) break;
    view.ip = plain(address);
    if (!trust(view.ip, hop)) break;
    index -= 1;
    hop += 1;
  }
  return view;
}
