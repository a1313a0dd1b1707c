/**
 * Preloaded (`node --import`) into a child process that must work offline (Redocly CLI in
 * the lint test): every outbound connection and DNS lookup is refused and reported on
 * stderr with MARKER, so the test can fail on an attempt even when the child swallows the
 * error (Redocly's telemetry and update check catch theirs and go on).
 */
import dns from 'node:dns';
import net from 'node:net';
import { DENY_NETWORK_MARKER } from './deny-network-marker.js';

const report = (what: string) => process.stderr.write(`${DENY_NETWORK_MARKER} ${what}\n`);

const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]): net.Socket {
  const first = args[0];
  const options = first && typeof first === 'object' ? (first as { host?: string; port?: number; path?: string }) : null;
  // A Unix socket or a pipe to a parent is local: only network targets are refused.
  if (options?.path !== undefined || (typeof first === 'string' && Number.isNaN(Number(first))))
    return originalConnect.apply(this, args as Parameters<typeof originalConnect>);
  report(`connect ${options ? `${options.host ?? 'localhost'}:${options.port ?? ''}` : String(first)}`);
  process.nextTick(() => this.destroy(new Error('network access is refused in this process')));
  return this;
};

const refuseLookup = (hostname: string, ...rest: unknown[]) => {
  report(`dns ${hostname}`);
  const callback = rest.find((r): r is (error: Error) => void => typeof r === 'function');
  process.nextTick(() => callback?.(Object.assign(new Error(`getaddrinfo refused ${hostname}`), { code: 'ENOTFOUND' })));
};
dns.lookup = refuseLookup as unknown as typeof dns.lookup;
dns.promises.lookup = (async (hostname: string) => {
  report(`dns ${hostname}`);
  throw Object.assign(new Error(`getaddrinfo refused ${hostname}`), { code: 'ENOTFOUND' });
}) as unknown as typeof dns.promises.lookup;
