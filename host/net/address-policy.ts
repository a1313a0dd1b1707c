import ipaddr from 'ipaddr.js';

/** Which outbound addresses guarded fetch may connect to. */
export interface AddressPolicy {
  /** Everything allowed (FLOWHOST_ALLOW_PRIVATE_URLS=1: tests and local demos only). */
  allowPrivate?: boolean;
  /** Extra allowance for exact addresses (tests: `ip => ip === '127.0.0.1'`). */
  allowAddress?: (ip: string) => boolean;
}

/**
 * The ipaddr.js range of an address: 'unicast' for public unicast, otherwise the name of
 * the special range ('loopback', 'private', 'linkLocal' (which holds the cloud metadata
 * address 169.254.169.254), 'uniqueLocal', 'carrierGradeNat', 'reserved', 'multicast',
 * ...), or 'invalid'. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address
 * it carries, since that is where a connection to it goes.
 */
export function addressRange(ip: string): string {
  if (!ipaddr.isValid(ip)) return 'invalid';
  return ipaddr.process(ip).range();
}

/**
 * Public unicast only. Every other IPv6 special range is refused too, including NAT64
 * (64:ff9b::/96), 6to4 and Teredo, which embed IPv4 addresses that may be private.
 */
export function isPublicAddress(ip: string): boolean {
  return addressRange(ip) === 'unicast';
}

export function isAllowedAddress(ip: string, policy: AddressPolicy): boolean {
  if (policy.allowPrivate) return true;
  if (isPublicAddress(ip)) return true;
  return ipaddr.isValid(ip) && Boolean(policy.allowAddress?.(ip));
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local (cloud metadata)',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT',
  private: 'a private',
  uniqueLocal: 'a unique-local (private)',
  reserved: 'a reserved',
};

/** Ends every refusal of an address, so whoever reads it (a job's error, a log line) knows the switch. */
export const HOW_TO_ALLOW_PRIVATE =
  'private, loopback and link-local addresses are refused unless the host allows them (FLOWHOST_ALLOW_PRIVATE_URLS=1, or allowPrivateUrls in flowhost.config.json; for local development only)';

/** Words for refusal messages: "a private address", "a loopback address". */
export function describeAddress(ip: string): string {
  const range = addressRange(ip);
  if (range === 'invalid') return 'an invalid address';
  return `${RANGE_WORDS[range] ?? `a non-public (${range})`} address`;
}
