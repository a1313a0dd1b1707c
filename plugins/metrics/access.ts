/**
 * Who may read GET /metrics. Metrics name routes, handlers and volumes: nothing a stranger
 * should read, so by default only this machine may (a Prometheus agent beside the host, or
 * a scraper behind the same reverse proxy must use the token).
 */
import { isIP } from 'node:net';
import { safeEqual } from '../../sdk/index.js';

export type MetricsAccess = 'loopback' | 'token' | 'public';

export function isLoopback(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (address === '::1') return true;
  return isIP(address) === 4 && address.startsWith('127.');
}

/** Null when allowed, else why not (the message says how to allow it). */
export function refusal(
  access: MetricsAccess,
  token: string | undefined,
  request: { ip: string; headers: Readonly<Record<string, string | undefined>> },
): string | null {
  if (access === 'public') return null;
  const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  // A configured token also admits scrapers from elsewhere, whatever the access mode.
  if (token && given && safeEqual(given, token)) return null;
  if (access === 'loopback' && isLoopback(request.ip)) return null;
  if (access === 'token')
    return token
      ? 'GET /metrics needs Authorization: Bearer <the metrics token>'
      : 'GET /metrics is set to token access but no token is configured (plugins.metrics.token)';
  return 'GET /metrics answers requests from this machine only; to scrape from elsewhere set plugins.metrics.token (then send Authorization: Bearer <token>) or plugins.metrics.access to public';
}
