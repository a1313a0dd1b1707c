// Preloaded (`node --import`) into a `flowhost serve` that must run without a network
// (scripts/check-installed-bin.mjs): a DNS lookup of a name and a connection to anything but
// this machine are refused and reported on stderr after MARKER, so the check fails on an
// attempt even when the host catches the error and goes on. Unlike test/support/deny-network
// (which refuses everything, for a child that serves nothing), loopback stays open: the host
// listens on 127.0.0.1, which Node looks up even as an address.
import dns from 'node:dns';
import net from 'node:net';

// scripts/check-installed-bin.mjs looks for these words.
const MARKER = 'offline-preload: refused';

const local = (host) => host === undefined || host === 'localhost' || /^127\./.test(host) || host === '::1' || host === '::ffff:127.0.0.1';
const report = (what) => process.stderr.write(`${MARKER} ${what}\n`);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function offlineConnect(...args) {
  // net.connect passes its arguments already normalized: one array, the options first.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options.path !== undefined || local(options.host)) return connect.apply(this, args);
  report(`connect ${options.host}:${options.port ?? ''}`);
  process.nextTick(() => this.destroy(new Error('this process runs without a network')));
  return this;
};

const lookup = dns.lookup;
dns.lookup = function offlineLookup(hostname, ...rest) {
  if (net.isIP(hostname) || hostname === 'localhost') return lookup.call(this, hostname, ...rest);
  report(`dns ${hostname}`);
  const callback = rest.find((r) => typeof r === 'function');
  process.nextTick(() => callback?.(Object.assign(new Error(`getaddrinfo refused ${hostname}`), { code: 'ENOTFOUND' })));
};
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = async (hostname, ...rest) => {
  if (net.isIP(hostname) || hostname === 'localhost') return lookupPromise(hostname, ...rest);
  report(`dns ${hostname}`);
  throw Object.assign(new Error(`getaddrinfo refused ${hostname}`), { code: 'ENOTFOUND' });
};
