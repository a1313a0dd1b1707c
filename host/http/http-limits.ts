import type { HostConfig } from '../config/schema.js';
import { compileTrust } from './client-address.js';
import { connectionLimitsOf } from './connection-limits.js';
import type { DispatchDeps } from './dispatch.js';

/** The HTTP server's per-client settings from the host's config: trusted proxies, body pace, connection caps. */
export function httpLimits(config: HostConfig): Pick<DispatchDeps, 'trust' | 'bodyTiming' | 'connections'> {
  return {
    trust: compileTrust(config.trustProxy, config.proxyHeader),
    bodyTiming: { idleMs: config.bodyIdleTimeoutMs, baseMs: config.bodyTimeoutMs, minBytesPerSecond: config.uploadMinBytesPerSecond },
    connections: connectionLimitsOf(config),
  };
}
