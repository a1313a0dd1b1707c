// The CLI's requests to the host on this machine go through node:http (sendToHost), not
// fetch: what the host receives and what the CLI reads back must be what fetch gave.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { sendToHost } from '../../../host/cli/loopback-http.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const test = suite('cli: requests to the local host');
let server: Server;
let base: string;
const seen: Seen[] = [];

test.before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url === '/text') {
        res.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>Bad gateway</h1>');
        return;
      }
      if (req.url === '/empty') {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-WP-Total': '42' }).end(JSON.stringify({ success: true, n: 1 }));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after(() => new Promise<void>((done) => server.close(() => done())));

test('a JSON body arrives with its length; the answer, its status and headers read as fetch read them', async () => {
  const body = JSON.stringify({ name: 'Zoë' });
  const answer = await sendToHost(new URL(`${base}/flows?x=1`), {
    method: 'POST',
    headers: { Authorization: 'Local t', 'Content-Type': 'application/json' },
    body,
  });
  const got = seen.at(-1)!;
  assert.equal([got.method, got.url, got.body], ['POST', '/flows?x=1', body]);
  assert.is(got.headers['content-length'], String(Buffer.byteLength(body)), 'bytes, not characters');
  assert.is(got.headers.authorization, 'Local t');
  assert.equal([answer.status, answer.ok], [200, true]);
  assert.equal(answer.json(), { success: true, n: 1 });
  assert.is(answer.headers.get('x-wp-total'), '42');
  assert.is(answer.headers.get('X-WP-Total'), '42', 'header names in any case');
  assert.is(answer.headers.get('x-missing'), null);
});

test('a body that is not JSON, or none, reads as {} (the status still tells)', async () => {
  const bad = await sendToHost(new URL(`${base}/text`), { method: 'GET', headers: {} });
  assert.equal([bad.status, bad.ok, bad.json()], [502, false, {}]);
  const empty = await sendToHost(new URL(`${base}/empty`), { method: 'DELETE', headers: {} });
  assert.equal([empty.status, empty.ok, empty.json()], [204, true, {}]);
});

test('a streamed body arrives whole', async () => {
  const parts = ['a'.repeat(70_000), 'b'.repeat(70_000), 'c'];
  await sendToHost(new URL(`${base}/upload`), {
    method: 'POST',
    headers: { 'Content-Length': String(140_001) },
    body: Readable.from(parts.map((p) => Buffer.from(p))),
  });
  assert.is(seen.at(-1)!.body, parts.join(''));
});

test('nobody listening: the promise rejects with the connection error', async () => {
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((done) => closed.close(() => done()));
  try {
    await sendToHost(new URL(`http://127.0.0.1:${port}/x`), { method: 'GET', headers: {} });
    assert.unreachable('should have rejected');
  } catch (error) {
    assert.match((error as Error).message, /ECONNREFUSED/);
  }
});

test('an address that is not plain http is refused, naming it', async () => {
  try {
    await sendToHost(new URL('https://127.0.0.1:1/x'), { method: 'GET', headers: {} });
    assert.unreachable('should have rejected');
  } catch (error) {
    assert.match((error as Error).message, /https:\/\/127\.0\.0\.1:1 is not a host's own http:\/\/ address/);
  }
});

test.run();
