import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { defaultConfig, type HostConfig } from '../config/schema.js';
import type { TrustFunction } from './client-address.js';
import { setConnectionsCheckingInterval } from './restify-adapter.js';

/** What a client may hold open, and for how long, before a route ever sees a request. */
export interface ConnectionLimits {
  /** Time to send the complete request line and headers (Slowloris). */
  headersTimeoutMs: number;
  /** Hard ceiling on receiving one whole request, body included. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections at once; past it new ones are answered 503 and closed. */
  maxConnections: number;
  /** Open connections per peer address (trusted proxies exempt: they carry many clients). */
  maxConnectionsPerAddress: number;
}

/** The limits a host's config sets (FLOWHOST_HEADERS_TIMEOUT_MS, FLOWHOST_MAX_CONNECTIONS...): the same names. */
export function connectionLimitsOf(config: Pick<HostConfig, keyof ConnectionLimits>): ConnectionLimits {
  return {
    headersTimeoutMs: config.headersTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    maxConnections: config.maxConnections,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
  };
}

/**
 * For a server built without limits: the config's defaults, read from `defaultConfig` so
 * they are declared in one place (host/config/schema.ts) and a changed default applies here too.
 */
export const defaultConnectionLimits: ConnectionLimits = connectionLimitsOf(defaultConfig);

const REFUSED = Symbol('flowhost.refused-connection');

/** Whether this request came on a connection refused for its caps (it gets no other answer). */
export function onRefusedConnection(socket: Socket | null | undefined): boolean {
  return !!socket && (socket as Socket & { [REFUSED]?: boolean })[REFUSED] === true;
}

function refuse(socket: Socket, why: string): void {
  (socket as Socket & { [REFUSED]?: boolean })[REFUSED] = true;
  const body = JSON.stringify({ code: 'rest_too_many_connections', message: why, data: { status: 503 } });
  socket.write(
    `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 5\r\nX-Content-Type-Options: nosniff\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  // A peer that never reads must not hold the socket open while the answer waits.
  socket.setTimeout(5_000, () => socket.destroy());
}

/**
 * Node's own timers for the request line and headers and for a whole request (checked
 * every second instead of Node's 30 s, so a header timeout means what it says), and the
 * connection caps, counted per peer address as sockets open and close.
 */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits, trust: TrustFunction | undefined): void {
  // Node requires headersTimeout <= requestTimeout; keep-alive idleness is its own timer.
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  setConnectionsCheckingInterval(server, Math.min(1_000, server.headersTimeout));
  const open = new Map<string, number>();
  let total = 0;
  // Before Node's own listener: a refused socket is marked before any request on it is parsed.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (total >= limits.maxConnections)
      return refuse(socket, `The server has ${limits.maxConnections} connections open; try again shortly.`);
    const mine = open.get(address) ?? 0;
    if (mine >= limits.maxConnectionsPerAddress && !trust?.(address, 0)) {
      return refuse(socket, `Your address has ${limits.maxConnectionsPerAddress} connections open; close some or reuse them.`);
    }
    total += 1;
    open.set(address, mine + 1);
    socket.once('close', () => {
      total -= 1;
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
