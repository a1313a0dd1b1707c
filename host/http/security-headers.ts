import type { IncomingMessage, ServerResponse } from 'node:http';
import { cameOverHttps, type TrustFunction } from './client-address.js';

/**
 * Headers every answer carries, set before any route or refusal answers (server.ts's first
 * handler), so an error, a 404 or a file is covered as well as a route's own answer:
 *   X-Content-Type-Options: nosniff  a browser never reads JSON or an upload as a script or page;
 *   Strict-Transport-Security        when the request came over https (this host's TLS, or
 *                                    the nearest trusted proxy's X-Forwarded-Proto), so a
 *                                    browser that once reached the host over TLS keeps to it.
 * Over plain http HSTS means nothing (RFC 6797 8.1: browsers ignore it) and is not sent.
 */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, deps: { trust?: TrustFunction; hsts?: string }): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (deps.hsts && cameOverHttps(req, deps.trust)) res.setHeader('Strict-Transport-Security', deps.hsts);
}

/** The header value for FLOWHOST_HSTS_MAX_AGE (0 makes browsers forget an earlier one, RFC 6797 6.1.1). */
export function hstsHeader(maxAgeSeconds: number): string {
  return `max-age=${maxAgeSeconds}`;
}

/**
 * An HTML page may not be framed by another page (clickjacking: the OAuth popup's result,
 * the console, the site). X-Frame-Options, which every browser reads; `page()`'s default
 * Content-Security-Policy says `frame-ancestors 'none'` as well. Set before the route's
 * own headers, which may say otherwise for a page meant to be embedded.
 */
export function denyFraming(res: ServerResponse): void {
  res.setHeader('X-Frame-Options', 'DENY');
}
