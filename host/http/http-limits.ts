import type { HostConfig } from '../config/schema.js';
import { compileTrust } from './client-address.js';
import { connectionLimitsOf } from './connection-limits.js';
import type { DispatchDeps } from './dispatch.js';
import { allowedOrigins } from './request-origin.js';
import { hstsHeader } from './security-headers.js';

/**
 * The HTTP server's per-client settings from the host's config: trusted proxies and the
 * hosts they may name, body pace, connection caps, HSTS.
 */
export function httpLimits(config: HostConfig): Pick<DispatchDeps, 'trust' | 'bodyTiming' | 'connections' | 'linkOrigin' | 'hsts'> {
  return {
    trust: compileTrust(config.trustProxy, config.proxyHeader),
    bodyTiming: { idleMs: config.bodyIdleTimeoutMs, baseMs: config.bodyTimeoutMs, minBytesPerSecond: config.uploadMinBytesPerSecond },
    connections: connectionLimitsOf(config),
    linkOrigin: allowedOrigins(config.allowedHosts),
    hsts: hstsHeader(config.hstsMaxAge),
  };
}
