// A stop must not wait on a keep-alive connection whose last response was still being
// written when the stop began. A streamed body with a Content-Length (an attachment's
// bytes) reaches the client before the server ends the response: the client is done and
// keeps the connection for its next request, the server's response ends a moment later.
// Node's close() only closes the connections idle at that instant, so this one stayed open
// until the client's keep-alive timer or the shutdown bound (10 s): a test suite stopping
// such a host waited 10 s, and so did an operator's Ctrl-C with nginx's upstream
// keep-alive connections open.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Agent, get } from 'node:http';
import { Readable } from 'node:stream';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, defineSurface, services, stream } from '../../../sdk/index.js';
import { captureLogger } from '../../support/capture-logger.js';

const test = suite<{ t: TestHost; lines: string[]; release: () => void; bodyEnded: Promise<void> }>(
  'host: stop with a keep-alive connection whose response was ending',
);

test.before(async (ctx) => {
  let release = () => {};
  const gate = new Promise<void>((done) => (release = done));
  let bodyEnded = () => {};
  ctx.bodyEnded = new Promise<void>((done) => (bodyEnded = done));
  ctx.release = release;
  const plugin = definePlugin({
    id: 'slow-end',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { routes: services.routes },
    setup({ routes }) {
      routes.add(
        defineSurface({
          id: 'slow-end',
          namespace: 'slow-end/v1',
          routes: [
            {
              method: 'GET',
              path: '/bytes',
              permission: 'public',
              schema: { responses: { 200: { type: 'string', description: 'Two bytes, then a late end' } } },
              handle() {
                // Both bytes now; the end of the stream only when the test releases it.
                const body = new Readable({ read() {} });
                body.push('ok');
                void gate.then(() => {
                  body.push(null);
                  bodyEnded();
                });
                return stream(200, body, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
              },
            },
          ],
        }),
      );
    },
  });
  ctx.lines = [];
  ctx.t = await createTestHost({
    plugins: [plugin],
    builtins: false,
    logger: captureLogger(ctx.lines),
    // A short bound, so the defect shows as the bound's warning rather than a long wait.
    config: { shutdownTimeoutSeconds: 2 },
  });
});

test('the connection is closed as soon as its response ends, not at the shutdown bound', async (ctx) => {
  const agent = new Agent({ keepAlive: true });
  const socketClosed = new Promise<void>((done) => agent.once('free', (socket) => socket.once('close', () => done())));
  const text = await new Promise<string>((done, fail) => {
    get(`${ctx.t.url}${ctx.t.host.config.apiPrefix}/slow-end/v1/bytes`, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done(body));
    }).on('error', fail);
  });
  assert.is(text, 'ok', 'the client has the whole body (its Content-Length) before the server ends the response');
  const stopped = ctx.t.stop();
  ctx.release();
  await ctx.bodyEnded;
  await stopped;
  await socketClosed;
  agent.destroy();
  const warnings = ctx.lines.filter((line) => line.includes('shutdown bound'));
  assert.equal(warnings, [], 'the stop ended before its bound, with nothing cut off');
});

test.run();
