// flowhost/testing's startTestHost: requests answered without a socket, with the same
// status codes and error bodies as HTTP; only the plugins a test names; services a test
// replaces with its own.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceRef, definePlugin, defineSurface, reply, services, successBody } from '../../sdk/index.js';
import { mockService, startTestHost, type InjectTestHost } from '../../sdk/testing/index.js';

interface Weather {
  today(city: string): Promise<string>;
  tomorrow(city: string): Promise<string>;
}
/** A service some other plugin would provide; the plugin under test only uses it. */
const weatherRef = createServiceRef<Weather>({ id: 'acme.weather' });

const forecast = definePlugin({
  id: 'forecast',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { routes: services.routes, weather: weatherRef },
  setup({ routes, weather }) {
    routes.add(
      defineSurface({
        id: 'forecast',
        namespace: 'forecast/v1',
        routes: [
          {
            method: 'GET',
            path: '/today/{city}',
            permission: 'authenticated',
            schema: {
              params: { type: 'object', properties: { city: { type: 'string', minLength: 2 } } },
              responses: {
                200: successBody({
                  data: { type: 'object', required: ['city', 'sky'], properties: { city: { type: 'string' }, sky: { type: 'string' } } },
                }),
              },
            },
            handle: async (request) =>
              reply(200, { success: true, data: { city: request.params.city, sky: await weather.today(String(request.params.city)) } }),
          },
          {
            method: 'GET',
            path: '/tomorrow/{city}',
            permission: 'public',
            handle: async (request) => reply(200, { success: true, data: { sky: await weather.tomorrow(String(request.params.city)) } }),
          },
        ],
      }),
    );
  },
});

const test = suite<{ t: InjectTestHost }>('testing: startTestHost');
test.before(async (ctx) => {
  ctx.t = await startTestHost({ plugins: [forecast], services: [mockService(weatherRef, { today: async (city) => `sunny in ${city}` })] });
});
test.after(async (ctx) => ctx.t.stop());

test('a plugin route answers through inject, with a service the test implemented', async ({ t }) => {
  const res = await t.request('GET', '/today/Oslo', { namespace: 'forecast/v1' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { success: true, data: { city: 'Oslo', sky: 'sunny in Oslo' } });
});

test('authentication, validation and unknown paths give the HTTP bodies', async ({ t }) => {
  const anonymous = await t.request<{ code: string; data: { status: number } }>('GET', '/today/Oslo', {
    namespace: 'forecast/v1',
    as: 'anonymous',
  });
  assert.is(anonymous.status, 401);
  assert.is(anonymous.body.data.status, 401);
  const invalid = await t.request<{ code: string }>('GET', '/today/O', { namespace: 'forecast/v1' });
  assert.is(invalid.status, 400);
  assert.is(invalid.body.code, 'rest_invalid_param');
  const none = await t.inject<{ code: string }>({ method: 'GET', url: '/api/forecast/v1/nowhere' });
  assert.is(none.status, 404);
  assert.is(none.body.code, 'rest_no_route');
});

test('a permission the user lacks is a 403 (core routes too)', async ({ t }) => {
  const reader = await t.createUser('reader', 'subscriber');
  const res = await t.request<{ code: string }>('GET', '/flows', { as: reader });
  assert.is(res.status, 403);
  const admin = await t.request<{ data: unknown[] }>('GET', '/flows');
  assert.is(admin.status, 200, JSON.stringify(admin.body));
});

test('a member the mock lacks fails naming the service and the member', async ({ t }) => {
  const res = await t.request<{ code: string }>('GET', '/tomorrow/Oslo', { namespace: 'forecast/v1' });
  assert.is(res.status, 500, 'an unexpected error in a handler is a 500 with no detail');
  const direct = await t.host.services.get(weatherRef, 'forecast');
  assert.throws(() => direct.tomorrow('Oslo'), /mockService\('acme\.weather'\): the test's implementation has no 'tomorrow'/);
});

test('only the named plugins are loaded, and no port is open', async ({ t }) => {
  const ids = t.host.plugins.map((p) => p.id);
  assert.ok(ids.includes('forecast'));
  assert.not.ok(ids.includes('discovery'), 'built-ins are off unless asked for');
  assert.is(t.host.url, '');
  assert.not.ok(process.getActiveResourcesInfo().includes('TCPServerWrap'), 'nothing listens');
});

test('a mock replaces a service the host itself provides', async () => {
  const fixed = new Date('2030-01-02T03:04:05Z');
  const t = await startTestHost({ plugins: [], services: [mockService(services.clock, { now: () => fixed })] });
  try {
    const clock = await t.host.services.get(services.clock, 'test');
    assert.equal(clock.now(), fixed);
  } finally {
    await t.stop();
  }
});

test.run();
