import { isIP } from 'node:net';
import { UrlRefusedError } from '../../core/security/guarded-fetch-types.js';
import { HOW_TO_ALLOW_PRIVATE, describeAddress, isAllowedAddress, type AddressPolicy } from './address-policy.js';

/** Names that always mean this machine (RFC 6761), whatever DNS would say. */
const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/**
 * Checks what can be judged from the URL alone, before any connection: the scheme, a
 * literal IP host (which never goes through the resolver, so the connect-time check
 * would not see it) and localhost names. Host names are judged again at connect time.
 */
export function checkUrl(input: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UrlRefusedError(`Refused to fetch "${String(input).slice(0, 200)}": not a valid absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlRefusedError(`Refused to fetch ${url.protocol} URL: only http and https are allowed`);
  }
  // WHATWG parsing already turned 2130706433, 0x7f.1 and friends into dotted form.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host)) {
    if (!isAllowedAddress(host, policy)) {
      throw new UrlRefusedError(`Refused to fetch ${url.host}: ${host} is ${describeAddress(host)}; ${HOW_TO_ALLOW_PRIVATE}`);
    }
  } else if (isLocalhostName(host) && !policy.allowPrivate) {
    throw new UrlRefusedError(`Refused to fetch ${url.host}: ${host} names this machine (a loopback address); ${HOW_TO_ALLOW_PRIVATE}`);
  }
  return url;
}
