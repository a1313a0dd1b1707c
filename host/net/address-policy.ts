import ipaddr from 'ipaddr.js';

/**
 * Whether an address is public unicast. Loopback, private, link-local (incl. the cloud
 * metadata 169.254.169.254), unique-local, CGNAT, reserved, multicast, broadcast and
 * unspecified are not; IPv4-mapped IPv6 is judged as the IPv4 it carries.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === 'unicast';
}

export interface AddressPolicy {
  allowPrivate?: boolean;
  /** Extra allowance (tests: exactly 127.0.0.1). */
  allowAddress?: (ip: string) => boolean;
}

export function isAllowedAddress(ip: string, policy: AddressPolicy): boolean {
  return Boolean(policy.allowPrivate) || isPublicAddress(ip) || Boolean(policy.allowAddress?.(ip));
}
