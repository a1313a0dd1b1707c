import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { UrlRefusedError } from '../../core/security/guarded-fetch-types.js';
import { HOW_TO_ALLOW_PRIVATE, describeAddress, isAllowedAddress, type AddressPolicy } from './address-policy.js';

/** Resolves a host name to all its addresses (dns.lookup with `all: true` by default). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

type NetLookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type NetLookupOptions = { family?: number | string; all?: boolean };

/**
 * A `lookup` for net/tls.connect that refuses when ANY resolved address is outside the
 * policy. The socket then connects to exactly the addresses checked here, so a DNS
 * answer cannot change between the check and the connection (rebinding).
 */
export function checkedLookup(policy: AddressPolicy, resolve: Resolver) {
  return (hostname: string, options: NetLookupOptions, callback: NetLookupCallback): void => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolve(hostname).then(
      (all) => {
        const addresses = family ? all.filter((a) => a.family === family) : all;
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address${family ? ` of family IPv${family}` : ''}`);
          error.code = 'ENOTFOUND';
          return callback(error, '');
        }
        const bad = addresses.find((a) => !isAllowedAddress(a.address, policy));
        if (bad) {
          const refusal = new UrlRefusedError(
            `Refused to fetch ${hostname}: it resolves to ${describeAddress(bad.address)} (${bad.address}); ${HOW_TO_ALLOW_PRIVATE}`,
          );
          return callback(refusal, '');
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
