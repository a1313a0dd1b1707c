import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchLimitError, UrlRefusedError } from '../../../core/security/guarded-fetch-types.js';
import { addressRange, isAllowedAddress, isPublicAddress } from '../../../host/net/address-policy.js';
import { createGuardedFetch } from '../../../host/net/guarded-fetch.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

interface FakeServer {
  server: Server;
  port: number;
  base: string;
  seen: Seen[];
}

type Ctx = { main: FakeServer; other: FakeServer };

// Every connection undici is about to open, by host name: refusals that must be decided
// before connecting have to leave this empty.
const attempts: string[] = [];
const onBeforeConnect = (message: unknown): void => {
  attempts.push((message as { connectParams: { hostname: string } }).connectParams.hostname);
};

let hugeClosed: (sent: number) => void = () => undefined;
/** Another origin (the second fake server's port) that main redirects to. */
let crossOriginTarget = '';

function route(fake: () => FakeServer, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  const { base, port } = fake();
  const path = req.url ?? '/';
  switch (path) {
    case '/text':
      return void res.writeHead(200, { 'content-type': 'text/plain', 'X-Mixed-Case': 'yes' }).end('hello, world');
    case '/json':
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"items":[1,2]}');
    case '/missing':
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    case '/echo':
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ method: req.method, headers: req.headers, body: body.toString('utf8') }));
    case '/to-text':
      return void res.writeHead(302, { location: '/text' }).end();
    case '/see-other':
      return void res.writeHead(303, { location: '/echo' }).end();
    case '/keep-method':
      return void res.writeHead(307, { location: '/echo' }).end();
    case '/to-other-loopback':
      return void res.writeHead(302, { location: `http://127.0.0.2:${port}/text` }).end();
    case '/to-metadata':
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    case '/to-file':
      return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    case '/to-other-origin':
      return void res.writeHead(302, { location: crossOriginTarget }).end();
    case '/loop':
      return void res.writeHead(302, { location: `${base}/loop` }).end();
    case '/hang':
      return; // never answers
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.write('first part, then nothing');
    case '/declared-big':
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      return void res.write('x');
    case '/exactly-1k':
      return void res.writeHead(200).end(Buffer.alloc(1024, 'y'));
    case '/huge': {
      // Streams without end (a 1 GiB safety stop) until the client goes away.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      let sent = 0;
      const pump = (): void => {
        while (!res.destroyed && sent < 1024 ** 3 && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed && sent < 1024 ** 3) res.once('drain', pump);
      };
      res.on('close', () => hugeClosed(sent));
      res.on('error', () => undefined);
      pump();
      return;
    }
    default:
      return void res.writeHead(404).end();
  }
}

async function startFake(): Promise<FakeServer> {
  const fake = { seen: [] as Seen[] } as FakeServer;
  fake.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      fake.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      route(() => fake, req, body, res);
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.port = (fake.server.address() as AddressInfo).port;
  fake.base = `http://127.0.0.1:${fake.port}`;
  return fake;
}

async function stopFake(fake: FakeServer): Promise<void> {
  fake.server.closeAllConnections();
  await new Promise((resolve) => fake.server.close(resolve));
}

async function refused(promise: Promise<unknown>, pattern?: RegExp): Promise<void> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, UrlRefusedError);
    assert.is((error as UrlRefusedError).code, 'url_refused');
    if (pattern) assert.match((error as Error).message, pattern);
    return;
  }
  assert.unreachable('expected a UrlRefusedError');
}

async function limited(promise: Promise<unknown>, code: FetchLimitError['code']): Promise<void> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, FetchLimitError);
    assert.is((error as FetchLimitError).code, code);
    return;
  }
  assert.unreachable(`expected FetchLimitError ${code}`);
}

const onlyLoopback = (ip: string): boolean => ip === '127.0.0.1';

const test = suite<Ctx>('host/net: guarded fetch');

test.before(async (ctx) => {
  ctx.main = await startFake();
  ctx.other = await startFake();
  crossOriginTarget = `${ctx.other.base}/echo`;
  subscribe('undici:client:beforeConnect', onBeforeConnect);
});
test.before.each(() => {
  attempts.length = 0;
});
test.after(async (ctx) => {
  unsubscribe('undici:client:beforeConnect', onBeforeConnect);
  await stopFake(ctx.main);
  await stopFake(ctx.other);
});

test('private, loopback, link-local and metadata addresses are refused by default, before any connection', async ({ main }) => {
  const fetch = createGuardedFetch();
  const urls = [
    `${main.base}/text`,
    `http://localhost:${main.port}/text`,
    `http://LOCALHOST./text`,
    `http://api.localhost/text`,
    `http://[::1]:${main.port}/text`,
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/admin',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    `http://[::ffff:127.0.0.1]:${main.port}/text`,
    'http://[::ffff:10.0.0.1]/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://[64:ff9b::a00:1]/', // NAT64 of 10.0.0.1
    'http://2130706433/', // 127.0.0.1 in decimal
    'https://0x7f.1/',
  ];
  for (const url of urls) await refused(fetch(url));
  assert.equal(attempts, [], 'no connection was attempted');
  assert.is(main.seen.length, 0, 'nothing reached the server');
});

test('refusal messages name the host and the reason', async () => {
  const fetch = createGuardedFetch();
  await refused(fetch('http://10.0.0.1/'), /10\.0\.0\.1 is a private address/);
  await refused(fetch('http://169.254.169.254/'), /169\.254\.169\.254 is a link-local \(cloud metadata\) address/);
  await refused(fetch('http://127.0.0.1:9/'), /127\.0\.0\.1 is a loopback address/);
  await refused(fetch('http://127.0.0.1:9/'), /FLOWHOST_ALLOW_PRIVATE_URLS=1, or allowPrivateUrls in flowhost\.config\.json/);
  await refused(fetch('http://localhost/'), /localhost .*loopback/);
});

test('host names are checked on every resolved address, and connect only to checked ones', async ({ main }) => {
  const answers: Record<string, string[]> = {
    'internal.example': ['127.0.0.1'],
    'mixed.example': ['93.184.216.34', '10.0.0.1'],
    'mapped.example': ['::ffff:192.168.0.10'],
  };
  const resolve = async (hostname: string) =>
    (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const fetch = createGuardedFetch({ resolve });
  await refused(
    fetch(`http://internal.example:${main.port}/text`),
    /internal\.example: it resolves to a loopback address \(127\.0\.0\.1\)/,
  );
  await refused(fetch('http://mixed.example/'), /mixed\.example: it resolves to a private address \(10\.0\.0\.1\)/);
  await refused(fetch('http://mixed.example/'), /unless the host allows them \(FLOWHOST_ALLOW_PRIVATE_URLS=1/);
  await refused(fetch('http://mapped.example/'), /private address/);
  assert.is(main.seen.length, 0, 'nothing reached the server');

  const allowed = createGuardedFetch({ resolve, allowAddress: onlyLoopback });
  const res = await allowed(`http://internal.example:${main.port}/text`);
  assert.is(res.text(), 'hello, world');
  assert.is(main.seen.at(-1)!.headers.host, `internal.example:${main.port}`, 'the name is kept, the checked address is used');
});

test('only http and https, even when private addresses are allowed', async ({ main }) => {
  const fetch = createGuardedFetch({ allowPrivate: true });
  await refused(fetch('file:///etc/passwd'), /file: URL: only http and https/);
  await refused(fetch('ftp://127.0.0.1/x'), /ftp:/);
  await refused(fetch('data:text/plain,hello'));
  await refused(fetch('javascript:alert(1)'));
  await refused(fetch('not a url'), /not a valid absolute URL/);
  await refused(fetch('/relative/path'));
  await refused(fetch(`${main.base}/to-file`), /file:/);
});

test('allowPrivate lets loopback and localhost through', async ({ main }) => {
  const fetch = createGuardedFetch({ allowPrivate: true });
  assert.is((await fetch(`${main.base}/text`)).status, 200);
  assert.is((await fetch(`http://localhost:${main.port}/text`)).text(), 'hello, world');
});

test('allowAddress allows exactly the addresses it accepts', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback });
  assert.is((await fetch(`${main.base}/text`)).status, 200);
  await refused(fetch(`http://127.0.0.2:${main.port}/text`), /127\.0\.0\.2 is a loopback address/);
  await refused(fetch(`http://[::1]:${main.port}/text`));
  await refused(fetch(`http://localhost:${main.port}/text`));
});

test('response helpers: status, ok, final url, lower-case headers, text and json', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback });
  const text = await fetch(`${main.base}/text`);
  assert.is(text.status, 200);
  assert.ok(text.ok);
  assert.is(text.url, `${main.base}/text`);
  assert.is(text.headers['content-type'], 'text/plain');
  assert.is(text.headers['x-mixed-case'], 'yes');
  assert.is(text.text(), 'hello, world');
  assert.ok(Buffer.isBuffer(text.body));
  assert.throws(() => text.json());

  const json = await fetch(`${main.base}/json`);
  assert.equal(json.json<{ ok: boolean; items: number[] }>(), { ok: true, items: [1, 2] });

  const missing = await fetch(`${main.base}/missing`);
  assert.is(missing.status, 404);
  assert.is(missing.ok, false);
  assert.is(missing.text(), 'not here');
});

test('method, request headers and body reach the server', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback, userAgent: 'Flowhost/test' });
  const res = await fetch(`${main.base}/echo`, {
    method: 'post',
    headers: { 'Content-Type': 'application/json', 'X-Custom': 'one', Authorization: 'Bearer abc' },
    body: '{"a":1}',
  });
  const echoed = res.json<{ method: string; headers: Record<string, string>; body: string }>();
  assert.is(echoed.method, 'POST');
  assert.is(echoed.body, '{"a":1}');
  assert.is(echoed.headers['content-type'], 'application/json');
  assert.is(echoed.headers['x-custom'], 'one');
  assert.is(echoed.headers.authorization, 'Bearer abc');
  assert.is(echoed.headers['user-agent'], 'Flowhost/test');

  await fetch(`${main.base}/echo`, { method: 'PUT', body: new Uint8Array([1, 2, 3]), headers: { 'User-Agent': 'custom' } });
  const last = main.seen.at(-1)!;
  assert.is(last.method, 'PUT');
  assert.equal([...last.body], [1, 2, 3]);
  assert.is(last.headers['user-agent'], 'custom', 'a caller header replaces the default, whatever its case');
});

test('redirects are followed, and every hop is checked before connecting', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback });
  const res = await fetch(`${main.base}/to-text`);
  assert.is(res.url, `${main.base}/text`);
  assert.is(res.text(), 'hello, world');

  main.seen.length = 0;
  attempts.length = 0;
  await refused(fetch(`${main.base}/to-other-loopback`), /127\.0\.0\.2/);
  await refused(fetch(`${main.base}/to-metadata`), /169\.254\.169\.254 is a link-local/);
  assert.equal(
    main.seen.map((s) => s.url),
    ['/to-other-loopback', '/to-metadata'],
  );
  assert.not.ok(
    attempts.some((host) => host !== '127.0.0.1'),
    `connections attempted: ${attempts.join(', ')}`,
  );
});

test('303 turns a POST into a GET without body; 307 keeps method and body', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback });
  const seeOther = (
    await fetch(`${main.base}/see-other`, { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } })
  ).json<{ method: string; body: string; headers: Record<string, string> }>();
  assert.is(seeOther.method, 'GET');
  assert.is(seeOther.body, '');
  assert.is(seeOther.headers['content-type'], undefined);
  const kept = (await fetch(`${main.base}/keep-method`, { method: 'POST', body: 'payload' })).json<{ method: string; body: string }>();
  assert.is(kept.method, 'POST');
  assert.is(kept.body, 'payload');
});

test('credentials are kept on same-origin redirects and dropped on cross-origin ones', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback });
  const headers = { Authorization: 'Bearer secret', Cookie: 'sid=1', 'X-Keep': 'yes' };
  type Echo = { headers: Record<string, string> };
  const same = (await fetch(`${main.base}/keep-method`, { headers })).json<Echo>();
  assert.is(same.headers.authorization, 'Bearer secret');
  assert.is(same.headers.cookie, 'sid=1');
  const cross = await fetch(`${main.base}/to-other-origin`, { headers });
  assert.is(cross.url, crossOriginTarget);
  const echoed = cross.json<Echo>();
  assert.is(echoed.headers.authorization, undefined);
  assert.is(echoed.headers.cookie, undefined);
  assert.is(echoed.headers['x-keep'], 'yes');
});

test('too many redirects', async ({ main }) => {
  await limited(createGuardedFetch({ allowAddress: onlyLoopback })(`${main.base}/loop`, { maxRedirects: 3 }), 'too_many_redirects');
  assert.is(main.seen.filter((s) => s.url === '/loop').length, 4, 'the first request and 3 redirects');
  await limited(createGuardedFetch({ allowAddress: onlyLoopback, maxRedirects: 0 })(`${main.base}/to-text`), 'too_many_redirects');
  await limited(createGuardedFetch({ allowAddress: onlyLoopback })(`${main.base}/loop`), 'too_many_redirects');
});

test('the timeout covers waiting for headers and reading the body', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback });
  await limited(fetch(`${main.base}/hang`, { timeoutMs: 200 }), 'timeout');
  await limited(createGuardedFetch({ allowAddress: onlyLoopback, timeoutMs: 200 })(`${main.base}/slow-body`), 'timeout');
});

test('the body is capped while streaming, and the stream is aborted', async ({ main }) => {
  const fetch = createGuardedFetch({ allowAddress: onlyLoopback });
  const closed = new Promise<number>((resolve) => (hugeClosed = resolve));
  await limited(fetch(`${main.base}/huge`, { maxBytes: 64 * 1024 }), 'too_large');
  const sent = await closed;
  assert.ok(sent < 1024 ** 3, 'the server stopped because the client went away');
  await limited(fetch(`${main.base}/declared-big`, { maxBytes: 1024 }), 'too_large');
  await limited(createGuardedFetch({ allowAddress: onlyLoopback, maxBytes: 1023 })(`${main.base}/exactly-1k`), 'too_large');
  const exact = await fetch(`${main.base}/exactly-1k`, { maxBytes: 1024 });
  assert.is(exact.body.length, 1024);
});

test.run();

const policy = suite('host/net: address policy');

policy('public unicast addresses pass, special ranges do not', () => {
  for (const ip of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])
    assert.ok(isPublicAddress(ip), ip);
  const expected: Record<string, string> = {
    '127.0.0.1': 'loopback',
    '127.0.0.2': 'loopback',
    '10.1.2.3': 'private',
    '172.31.0.1': 'private',
    '192.168.1.1': 'private',
    '169.254.169.254': 'linkLocal',
    '100.64.0.1': 'carrierGradeNat',
    '0.0.0.0': 'unspecified',
    '255.255.255.255': 'broadcast',
    '224.0.0.1': 'multicast',
    '240.0.0.1': 'reserved',
    '::1': 'loopback',
    '::': 'unspecified',
    'fd00::1': 'uniqueLocal',
    'fe80::1': 'linkLocal',
    'ff02::1': 'multicast',
    '::ffff:127.0.0.1': 'loopback',
    '::ffff:169.254.169.254': 'linkLocal',
    nonsense: 'invalid',
    '': 'invalid',
  };
  for (const [ip, range] of Object.entries(expected)) {
    assert.is(addressRange(ip), range, ip);
    assert.not.ok(isPublicAddress(ip), ip);
  }
});

policy('allowPrivate allows everything; allowAddress only what it accepts', () => {
  assert.ok(isAllowedAddress('10.0.0.1', { allowPrivate: true }));
  assert.ok(isAllowedAddress('127.0.0.1', { allowAddress: onlyLoopback }));
  assert.not.ok(isAllowedAddress('127.0.0.2', { allowAddress: onlyLoopback }));
  assert.not.ok(isAllowedAddress('nonsense', { allowAddress: () => true }));
  assert.ok(isAllowedAddress('8.8.8.8', {}));
});

policy.run();
