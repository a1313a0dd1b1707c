import { suite } from 'uvu';
import { defaultPlugins } from 'flowhost/host';
import { services } from 'flowhost';
import * as assert from 'uvu/assert';
import { buildCustomHost } from '../build.js';

type Host = Awaited<ReturnType<typeof buildCustomHost>>;
const test = suite<{ host: Host; url: string; auth: string }>('custom-host build');

test.before(async (ctx) => {
  ctx.host = await buildCustomHost({ dataDir: ':memory:', port: 0, logLevel: 'silent' }, {});
  ctx.url = await ctx.host.start();
  const admin = ctx.host.initialAdmin!;
  ctx.auth = `Basic ${Buffer.from(`${admin.login}:${admin.password}`).toString('base64')}`;
});
test.after(async (ctx) => ctx.host.stop());

test('loads exactly the chosen plugins: the core domains, the default built-ins and hello', ({ host }) => {
  const ids = host.plugins.map((p) => p.id);
  assert.equal(ids.filter((id) => !id.startsWith('core-')).sort(), [...defaultPlugins.map((p) => p.id), 'hello'].sort());
  assert.equal(ids.filter((id) => id.startsWith('core-')).sort(), [
    'core-content',
    'core-credentials',
    'core-engine',
    'core-logs',
    'core-media',
    'core-retention',
    'core-settings',
    'core-users',
    'core-webhooks',
    'core-workflows',
  ]);
});

test('serves under its own prefix with the plugin configured', async ({ host, url, auth }) => {
  const res = await fetch(`${url}/wp-json/hello/v1/greeting?name=Team`, { headers: { Authorization: auth } });
  assert.is(res.status, 200);
  const body = (await res.json()) as { data: { message: string } };
  assert.is(body.data.message, 'Welcome, Team!');
  const handlers = (await (await fetch(`${url}/wp-json/automation/v1/handlers`, { headers: { Authorization: auth } })).json()) as {
    data: Record<string, unknown>;
  };
  assert.ok(handlers.data.hello && handlers.data.rss && handlers.data.cms, Object.keys(handlers.data).join(', '));
  assert.is(Object.keys(handlers.data).length, (await host.services.get(services.handlerCatalogue, 'test')).handlers().length);
  const old = await fetch(`${url}/api/automation/v1/handlers`, { headers: { Authorization: auth } });
  assert.is(old.status, 404);
});

test.run();
