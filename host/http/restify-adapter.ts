import { ServerResponse, type IncomingMessage, type Server as NodeServer } from 'node:http';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import type restify from 'restify';

// The one file that imports restify. Everything else in host/http speaks Node's own
// request and response, and uses restify's documented server API (the verbs, first, the
// server events). What that API cannot do is here, numbered, each with why, and
// test/host/http/restify-adapter.test.ts pins each thing this file relies on, so a restify
// upgrade that changes one fails that test instead of the host.

// 0. restify's server and router modules, not its index. The index, where createServer
// lives, loads every bundled plugin as well (body parsers, HTTP signatures with sshpk,
// formidable, the CSV formatter): about 340 modules Flowhost never calls. Measured on
// `flowhost serve` (bench startup, docs/performance.md, 27 November 2026), idle RSS was
// 101-108 MB with the two modules and 131-137 MB through the index, over the 120 MB
// target. For Flowhost's options createServer only defaults the name and the logger and
// builds the router; `createRestifyServer` does the same, and the test builds a server
// both ways and compares them.
const require = createRequire(import.meta.url);
const Server = require('restify/lib/server') as new (options: Record<string, unknown>) => restify.Server;
const Router = require('restify/lib/router') as new (options: Record<string, unknown>) => unknown;

// 1. Loading restify (its server module) replaces http.ServerResponse.prototype.writeHead,
// for the whole process, with a wrapper that returns undefined instead of the response:
// `res.writeHead(200).end()` then throws in any other server of the process (a plugin
// test's fake API, an OAuth callback listener). restify has no option to skip the patch.
// Flowhost answers with Node's own methods and never uses what the wrapper adds (a
// 'header' event for restify's fullResponse plugin, and dropping the body headers of a
// 204/304, which Node does itself), so Node's method is put back, once, as restify is
// loaded. restify keeps the original as `_writeHead`; the test fails when it stops patching.
{
  const proto = ServerResponse.prototype as unknown as { writeHead: unknown; _writeHead?: unknown };
  if (typeof proto._writeHead === 'function') proto.writeHead = proto._writeHead;
}

/** A route handler in restify's shape; Flowhost's answer from Node's request and response. */
export type RestifyHandler = (
  req: IncomingMessage & { params?: Record<string, string> },
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;
/**
 * restify 12's `first` chain (documented; missing from @types/restify 8): synchronous
 * handlers run before restify touches the request, returning false once they have answered.
 */
export type FirstHandler = (req: IncomingMessage, res: ServerResponse) => boolean;
/** The verbs Flowhost mounts routes with. */
export type Verb = 'get' | 'post' | 'put' | 'patch' | 'del' | 'head' | 'opts';
export type RestifyServer = restify.Server &
  Record<Verb, (path: string, handler: RestifyHandler) => void> & { first(handler: FirstHandler): void };

/** restify's router option, shared with the fast lane so both read paths alike. */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: true } as const;

/** The options Flowhost gives restify: quiet (Flowhost logs every request itself). */
export const SERVER_OPTIONS = {
  name: 'flowhost',
  ...ROUTER_OPTIONS,
  handleUncaughtExceptions: false,
  log: pino({ level: 'silent' }),
};

/** What `restify.createServer(SERVER_OPTIONS)` builds, without loading restify's plugins (0.). */
export function createRestifyServer(): RestifyServer {
  return new Server({ ...SERVER_OPTIONS, router: new Router(SERVER_OPTIONS) }) as RestifyServer;
}

/** The Node server restify wraps (documented as `server.server`). */
export function nodeServerOf(server: restify.Server): NodeServer {
  return server.server as NodeServer;
}

/**
 * 2. How often Node checks its header and request timeouts. restify builds its Node
 * server with `http.createServer()` and no way to pass Node's options, and
 * `connectionsCheckingInterval` is one (Node's default, 30 s, would let a header timeout
 * of 1.5 s mean 31.5 s). Node reads the property when the server starts listening, so it
 * is set on the server before `listen`.
 */
export function setConnectionsCheckingInterval(server: NodeServer, ms: number): void {
  (server as NodeServer & { connectionsCheckingInterval: number }).connectionsCheckingInterval = ms;
}

/** Characters the URL parser leaves as they are in a path; no `.` or `%` (`%2e` is a dot too). */
const PLAIN_PATH = /^\/[A-Za-z0-9_~!$&'()*+,;=:@/-]*$/;

/**
 * 3. The path restify's router matches (for the fast lane, which must pick the route
 * restify would): restify reads it as the pathname of `new URL('http://' + Host + url)`,
 * dot segments resolved, a backslash read as a slash, characters outside ASCII
 * percent-encoded. The Host header is checked first (`validHost`), so it cannot move the
 * path. A path of plain characters reads as it is written, without the parse.
 */
export function restifyPathname(url: string): string {
  const end = url.search(/[?#]/);
  const raw = end < 0 ? url : url.slice(0, end);
  return PLAIN_PATH.test(raw) ? raw : new URL(`http://localhost${url}`).pathname;
}

/** Host names the URL parser takes as a whole authority (see `validHost`). */
const HOST_SHAPE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(?::[0-9]*)?$/;
const hostVerdicts = new Map<string, boolean>();

/**
 * 4. Whether restify can route a request with this Host header. restify parses
 * `'http://' + Host + url` to find the path, so a Host it cannot parse (`a b`, `[`) threw
 * from inside its router, outside any handler: one request stopped the process. A Host
 * with a path in it (`x/api`) moved the routed path away from the one a proxy in front
 * saw. HTTP says such a request is answered 400 (RFC 9112, 3.2). A request with no Host
 * (HTTP/1.0) is routed as restify does, as localhost. Verdicts are kept per value: the
 * same few hosts come back on every request.
 */
export function validHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  let verdict = hostVerdicts.get(host);
  if (verdict === undefined) {
    verdict = HOST_SHAPE.test(host) && parsesAsHost(host);
    if (hostVerdicts.size >= 1_000) hostVerdicts.clear();
    hostVerdicts.set(host, verdict);
  }
  return verdict;
}

function parsesAsHost(host: string): boolean {
  try {
    return new URL(`http://${host}/`).pathname === '/';
  } catch {
    return false;
  }
}
