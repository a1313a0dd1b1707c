// host/http/restify-adapter.ts holds everything Flowhost does with restify beyond its
// documented API. Each test here pins one thing it relies on, so a restify (or Node)
// upgrade that changes it fails here, naming it, instead of failing the host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, Server as NodeServer, ServerResponse, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import {
  createRestifyServer,
  nodeServerOf,
  restifyPathname,
  SERVER_OPTIONS,
  setConnectionsCheckingInterval,
  validHost,
  type RestifyServer,
} from '../../../host/http/restify-adapter.js';
import { shapeRestifyErrors } from '../../../host/http/server.js';
import { fastLane } from '../../../host/http/fast-lane.js';
import { compileRoutes } from '../../../host/http/route-table.js';
import { defineSurface, type RouteDefinition } from '../../../sdk/index.js';

const silent = pino({ level: 'silent' });
const test = suite('host: what the restify adapter relies on');

/** Listens on a free loopback port; returns the port. */
async function listening(server: NodeServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Bytes on a socket exactly as given (no client normalises the path or the Host); the whole answer. */
function rawHttp(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}Connection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const headers = all.subarray(0, split).toString('latin1');
      resolve({ status: Number(headers.slice(9, 12)), headers, body: all.subarray(split + 4).toString('utf8') });
    });
    socket.on('error', reject);
  });
}

const requireHere = createRequire(import.meta.url);

test("the adapter loads restify's server and router, not its index and bundled plugins", () => {
  // Runs first: the next test loads the index itself to compare.
  const loaded = Object.keys(requireHere.cache);
  assert.ok(loaded.some((file) => file.endsWith('/restify/lib/server.js')));
  assert.not.ok(
    loaded.some((file) => file.endsWith('/restify/lib/index.js') || file.endsWith('/restify/lib/plugins/index.js')),
    'restify index loaded',
  );
});

test('createRestifyServer builds what restify.createServer builds for the same options', () => {
  // When this fails, restify's createServer does more than default the name and logger and
  // build the router: do the same in createRestifyServer (0.), or take the index.
  const restify = requireHere('restify') as { createServer(options: object): RestifyServer };
  const documented = restify.createServer({ ...SERVER_OPTIONS });
  const ours = createRestifyServer();
  assert.is(Object.getPrototypeOf(ours), Object.getPrototypeOf(documented));
  assert.equal(Object.keys(ours).sort(), Object.keys(documented).sort());
  assert.is(ours.router.constructor, documented.router.constructor);
  for (const key of ['name', 'handleUncaughtExceptions', 'strictFormatters', 'onceNext', 'strictNext'] as const) {
    assert.equal((ours as unknown as Record<string, unknown>)[key], (documented as unknown as Record<string, unknown>)[key], key);
  }
  assert.equal(ours.eventNames().sort(), documented.eventNames().sort());
  assert.equal(Object.keys(ours.router).sort(), Object.keys(documented.router).sort());
});

test('restify still replaces writeHead process-wide, and the adapter has put Node’s back', async () => {
  // restify keeps Node's method as `_writeHead` when it patches. When this fails, restify
  // stopped patching: delete the repair (1.) in restify-adapter.ts.
  const proto = ServerResponse.prototype as unknown as { writeHead: unknown; _writeHead?: unknown };
  assert.type(proto._writeHead, 'function', 'restify no longer patches ServerResponse.prototype.writeHead');
  assert.is(proto.writeHead, proto._writeHead);
  // What the repair is for: another server in the process chains writeHead.
  const other = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '7' }).end('chained'));
  const port = await listening(other);
  const answer = await rawHttp(port, 'GET / HTTP/1.1\r\nHost: localhost\r\n');
  other.close();
  assert.is(answer.status, 200);
  assert.is(answer.body, 'chained');
});

test('the documented factory gives a Node http.Server underneath, and `first` runs before restify routes', async () => {
  const server = createRestifyServer();
  assert.instance(nodeServerOf(server), NodeServer);
  const seen: string[] = [];
  server.first((req) => {
    seen.push(`first ${req.url}`);
    return true;
  });
  server.get('/x', (_req, res, next) => {
    seen.push('route');
    res.end('ok');
    next(false);
  });
  const port = await listening(nodeServerOf(server));
  await rawHttp(port, 'GET /x HTTP/1.1\r\nHost: localhost\r\n');
  nodeServerOf(server).close();
  assert.equal(seen, ['first /x', 'route']);
});

test('Node reads connectionsCheckingInterval from the server at listen: a header timeout means what it says', async () => {
  const server = createRestifyServer();
  const node = nodeServerOf(server);
  node.requestTimeout = 300;
  node.headersTimeout = 300;
  setConnectionsCheckingInterval(node, 100);
  const port = await listening(node);
  const started = Date.now();
  // Headers that never end: Node's timer must cut them within the interval, not its 30 s default.
  const closedAfter = await new Promise<number>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Date.now() - started));
  });
  node.close();
  assert.ok(closedAfter < 5_000, `the slow headers were cut after ${closedAfter} ms`);
});

test('restify routes the pathname of http://{Host}{url}: why the guard checks the Host (validHost)', async () => {
  // A Host with a path in it moves the routed path: /y with Host x/api reached /api/y.
  const server = createRestifyServer();
  server.get('/api/y', (_req, res, next) => {
    res.end('moved');
    next(false);
  });
  server.get('/y', (_req, res, next) => {
    res.end('as sent');
    next(false);
  });
  const port = await listening(nodeServerOf(server));
  const moved = await rawHttp(port, 'GET /y HTTP/1.1\r\nHost: x/api\r\n');
  nodeServerOf(server).close();
  assert.is(moved.body, 'moved', 'restify no longer reads the Host into the path; validHost (4.) is then only RFC 9112 hygiene');
  for (const good of ['localhost', '127.0.0.1:8080', '[::1]:3000', 'example.com', 'xn--caf-dma.example', 'a.b-c_d'])
    assert.ok(validHost(good), good);
  for (const bad of ['a b', '[', 'x/api', 'user@host', '1.2.3.999', 'a\\b', 'h?x', 'h#x', '%41']) assert.not.ok(validHost(bad), bad);
  assert.ok(validHost(undefined));
});

/** The same route table mounted on a restify server and in the fast lane, every route fast. */
const probeRoutes: RouteDefinition[] = [
  { method: 'POST', path: '/echo/{name}', permission: 'public', fastPath: true, handle: () => ({}) },
  { method: 'POST', path: '/echo/static', permission: 'public', fastPath: true, handle: () => ({}) },
  { method: 'POST', path: '/echo/{name}/items/{item}', permission: 'public', fastPath: true, handle: () => ({}) },
  { method: 'GET', path: '/files/{id}', permission: 'public', fastPath: true, handle: () => ({}) },
];

test('the fast lane picks the route and parameters restify picks, for odd paths too', async () => {
  const compiled = compileRoutes(
    [{ owner: 'probe', surface: defineSurface({ id: 'probe', namespace: 'probe/v1', routes: probeRoutes }) }],
    { apiPrefix: '/api', coreNamespace: 'automation/v1', log: silent },
  );
  const server = createRestifyServer();
  for (const route of compiled) {
    const verbs = route.method === 'GET' ? (['get', 'head'] as const) : (['post'] as const);
    for (const verb of verbs) {
      server[verb](route.routerPath, (req, res, next) => {
        res.end(JSON.stringify({ route: route.fullPath, params: { ...(req.params ?? {}) } }));
        next(false);
      });
    }
  }
  for (const verb of ['get', 'post', 'head'] as const) {
    server[verb]('/*', (_req, res, next) => {
      res.end(JSON.stringify({ route: null, params: {} }));
      next(false);
    });
  }
  const port = await listening(nodeServerOf(server));
  const lane = fastLane(compiled);
  const paths = [
    '/api/probe/v1/echo/a',
    '/api/probe/v1/echo/a/',
    '/api/probe/v1/echo/static',
    '/api/probe/v1/echo/static/',
    '/api/probe/v1/other/../echo/dots',
    '/api/probe/v1/other/%2E%2e/echo/pct',
    '/api/probe/v1/./echo/dot',
    '/api/probe/v1/echo\\slash',
    '/api/probe/v1/echo/a%2Fb',
    '/api/probe/v1/echo/caf%C3%A9%20au%20lait',
    '/api/probe/v1/echo/a?x=1#frag',
    '/api/probe/v1/echo/a;b=c',
    '/api/probe/v1/echo/a~b!$&',
    '/api/probe/v1/echo/a/items/7',
    '/api/probe/v1/echo/a/items/',
    '/api/probe/v1//echo/a',
    '//api/probe/v1/echo/a',
    '/api/probe/v1/files/x.json',
    '/api/probe/v1/files/%2e%2e',
    '/api/probe/v1/nothing',
  ];
  try {
    for (const method of ['POST', 'GET', 'HEAD']) {
      for (const path of paths) {
        const answer = await rawHttp(port, `${method} ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Length: 0\r\n`);
        const laneMatch = lane({ method, url: path, headers: {} } as IncomingMessage);
        const ours = { route: laneMatch?.route.fullPath ?? null, params: laneMatch?.params ?? {} };
        if (method === 'HEAD') {
          assert.is(answer.body, '');
          continue;
        }
        assert.equal(JSON.parse(answer.body), ours, `${method} ${path}`);
      }
    }
  } finally {
    nodeServerOf(server).close();
  }
  assert.is(restifyPathname('/a/../b?x=/../'), '/b');
  // Both use one copy of find-my-way: restify documents its paths as find-my-way's.
  const fromRestify = createRequire(createRequire(import.meta.url).resolve('restify')).resolve('find-my-way');
  assert.is(
    fromRestify,
    createRequire(import.meta.url).resolve('find-my-way'),
    'restify now routes with its own copy of find-my-way: check the fast lane against it',
  );
});

async function errorServer(): Promise<{ server: RestifyServer; port: number; logged: unknown[] }> {
  const logged: unknown[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  const server = createRestifyServer();
  shapeRestifyErrors(server, log);
  server.post('/broken', (_req, _res, next) => next(new Error('boom')));
  server.post('/refused', (_req, _res, next) => next(Object.assign(new Error('Not this way.'), { statusCode: 422 })));
  return { server, port: await listening(nodeServerOf(server)), logged };
}

test("restify's own error answers come out once, in Flowhost's error body", async () => {
  const { server, port, logged } = await errorServer();
  try {
    const missing = await rawHttp(port, 'GET /nowhere HTTP/1.1\r\nHost: localhost\r\n');
    assert.is(missing.status, 404);
    assert.equal(JSON.parse(missing.body), { code: 'rest_no_route', message: JSON.parse(missing.body).message, data: { status: 404 } });
    assert.match(missing.headers, /X-Request-Id: [0-9a-f-]{36}/i);
    assert.match(missing.headers, /Content-Type: application\/json/i);
    const wrongMethod = await rawHttp(port, 'GET /broken HTTP/1.1\r\nHost: localhost\r\n');
    assert.is(wrongMethod.status, 404);
    assert.is(JSON.parse(wrongMethod.body).code, 'rest_no_route');
    const refused = await rawHttp(port, 'POST /refused HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n');
    assert.is(refused.status, 422);
    assert.equal(JSON.parse(refused.body), { code: 'rest_bad_request', message: 'Not this way.', data: { status: 422 } });
    const broken = await rawHttp(port, 'POST /broken HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n');
    assert.is(broken.status, 500);
    assert.equal(JSON.parse(broken.body), { code: 'internal_error', message: 'An unexpected error occurred.', data: { status: 500 } });
    assert.is(logged.length, 1);
  } finally {
    nodeServerOf(server).close();
  }
});

test.run();
