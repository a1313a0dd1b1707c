// Every route declares the bodies it answers (schema.responses), the test host checks each
// answer against them, and openapi.json publishes them. This suite makes sure of all three:
// every route of a host with every plugin has a success schema; the checker itself fails
// an undeclared field, an undeclared status and a wrong `exact` reply; the document is
// structurally OpenAPI 3.1; and the dispatcher's own errors are added by permission.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import {
  ApiError,
  definePlugin,
  defineSurface,
  errorBody,
  json,
  services,
  successBody,
  type PluginDefinition,
} from '../../../sdk/index.js';
import { optionalPlugins } from '../../../plugins/index.js';
import { probePlugin } from '../../support/probe-plugin.js';
import { closeSchema } from '../../../host/http/response-check.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads arbitrary JSON

/** Test-only routes that answer what their schema does not say. */
const liar: PluginDefinition = definePlugin({
  id: 'liar',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { routes: services.routes },
  setup({ routes }) {
    routes.add(
      defineSurface({
        id: 'liar',
        namespace: 'liar/v1',
        routes: [
          {
            method: 'GET',
            path: '/extra-field',
            permission: 'public',
            schema: {
              responses: { 200: successBody({ data: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } }) },
            },
            handle: () => ({ success: true, data: { id: 1, secret_internal: 'oops' } }),
          },
          {
            method: 'GET',
            path: '/boom',
            permission: 'public',
            schema: { responses: { 200: successBody({}) } },
            handle: () => {
              throw new Error('unexpected');
            },
          },
          {
            method: 'GET',
            path: '/teapot',
            permission: 'public',
            schema: { responses: { 200: successBody({}) } },
            handle: () => {
              throw new ApiError('liar_teapot', 'I am a teapot', 418);
            },
          },
          {
            method: 'GET',
            path: '/exact',
            permission: 'public',
            schema: {
              responses: { 200: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } },
            },
            handle: () => json(200, [{ id: 1 }, { id: 'two' }]),
          },
          {
            method: 'GET',
            path: '/exact-ok',
            permission: 'public',
            schema: {
              responses: { 200: { type: 'array', items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } },
            },
            handle: () => json(200, [{ id: 1 }, { id: 2 }]),
          },
          {
            method: 'GET',
            path: '/all-of',
            permission: 'public',
            schema: {
              responses: {
                200: {
                  allOf: [
                    successBody({ a: { type: 'integer' } }),
                    { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
                  ],
                },
                404: errorBody('liar_missing'),
              },
            },
            handle: () => ({ success: true, a: 1, b: 2 }),
          },
          {
            method: 'GET',
            path: '/nothing-declared',
            permission: 'public',
            handle: () => ({ success: true }),
          },
        ],
      }),
    );
  },
}) as PluginDefinition;

/** Routes of the test-only plugins, which lie on purpose or come from the probe. */
const testOnly = (path: string) => path.includes('/liar/v1/');

const test = suite<{ t: TestHost }>('host: response schemas, checked and published');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [...Object.values(optionalPlugins), probePlugin(), liar] });
});
test.after(async (ctx) => {
  await ctx.t.stop();
});

test('every route declares the body of its success answer', ({ t }) => {
  const lacking = t.host.routes
    .filter((r) => !testOnly(r.fullPath))
    // A route that only refuses its method (openapi: false: GET/DELETE on the stateless MCP endpoint) has no success answer.
    .filter((r) => r.definition.openapi !== false)
    .filter((r) => !Object.keys(r.definition.schema?.responses ?? {}).some((status) => Number(status) >= 200 && Number(status) < 400))
    .map((r) => `${r.method} ${r.fullPath} (plugin '${r.owner}')`);
  assert.equal(lacking, [], `routes without a success response schema:\n  ${lacking.join('\n  ')}`);
  assert.ok(t.host.routes.length > 60);
});

test('an answer with a field its schema does not declare fails: 500 rest_response_invalid naming route, status and field', async ({
  t,
}) => {
  const res = await t.request<Body>('GET', '/extra-field', { namespace: 'liar/v1', as: 'anonymous' });
  assert.is(res.status, 500);
  assert.is(res.body.code, 'rest_response_invalid');
  assert.is(res.body.data.status, 500);
  assert.match(res.body.message, 'GET /api/liar/v1/extra-field');
  assert.match(res.body.message, 'answered 200');
  assert.match(res.body.message, 'data.secret_internal is not an allowed property');
});

test('an answer with a status the route does not declare fails', async ({ t }) => {
  const teapot = await t.request<Body>('GET', '/teapot', { namespace: 'liar/v1', as: 'anonymous' });
  assert.is(teapot.status, 500);
  assert.is(teapot.body.code, 'rest_response_invalid');
  assert.match(teapot.body.message, 'no response schema for status 418');
  // A 500 internal_error is every route's (the dispatcher's own): it passes as is.
  const boom = await t.request<Body>('GET', '/boom', { namespace: 'liar/v1', as: 'anonymous' });
  assert.is(boom.status, 500);
  assert.is(boom.body.code, 'internal_error');
});

test('exact JSON replies are checked too; allOf members are not closed', async ({ t }) => {
  const bad = await t.request<Body>('GET', '/exact', { namespace: 'liar/v1', as: 'anonymous' });
  assert.is(bad.status, 500);
  assert.is(bad.body.code, 'rest_response_invalid');
  assert.match(bad.body.message, '1.id must be integer');
  const good = await t.request<unknown[]>('GET', '/exact-ok', { namespace: 'liar/v1', as: 'anonymous' });
  assert.is(good.status, 200);
  assert.equal(good.body, [{ id: 1 }, { id: 2 }]);
  const allOf = await t.request<Body>('GET', '/all-of', { namespace: 'liar/v1', as: 'anonymous' });
  assert.is(allOf.status, 200);
  assert.equal(allOf.body, { success: true, a: 1, b: 2 });
});

test('a route without any response schema fails on its first answer', async ({ t }) => {
  const res = await t.request<Body>('GET', '/nothing-declared', { namespace: 'liar/v1', as: 'anonymous' });
  assert.is(res.status, 500);
  assert.is(res.body.code, 'rest_response_invalid');
});

test("the dispatcher's own errors are every route's, by permission", async ({ t }) => {
  const byKey = new Map(t.host.routes.map((r) => [`${r.method} ${r.fullPath}`, r]));
  const codes = (key: string, status: number) =>
    ((byKey.get(key)!.responses[status]?.properties as Body | undefined)?.code?.enum ?? []) as string[];
  const flows = 'POST /api/automation/v1/flows';
  assert.ok(codes(flows, 401).includes('rest_not_logged_in'));
  assert.ok(codes(flows, 403).includes('rest_forbidden'));
  assert.ok(codes(flows, 400).includes('rest_invalid_json'));
  assert.ok(codes(flows, 400).includes('rest_invalid_param'));
  assert.ok(codes(flows, 400).includes('config_not_found'), "the route's own codes are kept");
  assert.ok(codes(flows, 413).includes('rest_payload_too_large'));
  assert.ok(codes(flows, 500).includes('internal_error'));
  // Public: nobody is refused for not being logged in; a wrong password still is.
  assert.not.ok(codes('POST /api/automation/v1/session', 401).includes('rest_not_logged_in'));
  assert.ok(codes('POST /api/automation/v1/session', 401).includes('rest_invalid_credentials'));
  // Credentials ignored: not even that.
  assert.equal(codes('POST /api/automation/v1/trigger/{flow_id}', 401), ['rest_unauthorized']);
  // A GET reads no body.
  assert.is(byKey.get('GET /api/automation/v1/settings/scheduling-intervals')!.responses[413], undefined);
  // And they pass the check: a stranger gets the real 401, not a 500.
  const anonymous = await t.request<Body>('GET', '/flows', { as: 'anonymous' });
  assert.is(anonymous.status, 401);
  assert.is(anonymous.body.code, 'rest_not_logged_in');
  const invalid = await t.request<Body>('GET', '/jobs', { query: { per_page: 'lots' } });
  assert.is(invalid.status, 400);
  assert.is(invalid.body.code, 'rest_invalid_param');
});

test('closing: objects without additionalProperties are closed, in properties, items, anyOf; not allOf members', () => {
  const closed = closeSchema({
    type: 'object',
    properties: {
      a: { type: 'object', properties: { b: { type: 'string' } } },
      list: { type: 'array', items: { properties: { c: {} } } },
      open: { type: 'object', additionalProperties: true },
    },
    anyOf: [{ type: 'object', properties: {} }],
    allOf: [{ type: 'object', properties: { d: { type: 'object', properties: {} } } }],
  }) as Body;
  assert.is(closed.additionalProperties, undefined, 'an object with allOf is not closed itself');
  assert.is(closed.properties.a.additionalProperties, false);
  assert.is(closed.properties.list.items.additionalProperties, false);
  assert.is(closed.properties.open.additionalProperties, true);
  assert.is(closed.anyOf[0].additionalProperties, false);
  assert.is(closed.allOf[0].additionalProperties, undefined);
  assert.is(closed.allOf[0].properties.d.additionalProperties, false);
});

/**
 * An error response's codes as published: `allOf: [Error, { code: enum }]` for the shared
 * error body (openapi-components.ts), the enum itself for a body of its own (/healthz's 503).
 */
function publishedCodes(schema: Body | undefined): string[] | null {
  if (Array.isArray(schema?.properties?.code?.enum)) return schema.properties.code.enum;
  const own = schema?.allOf?.find((s: Body) => s.properties?.code)?.properties.code.enum;
  return schema?.allOf?.[0]?.$ref === '#/components/schemas/Error' && Array.isArray(own) ? own : null;
}

/** Every `$ref` in the document must point at something in it. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

test('openapi.json is OpenAPI 3.1: every operation answers with content schemas, errors list their codes, no dangling $ref', async ({
  t,
}) => {
  const res = await t.request<Body>('GET', '/api/openapi.json', { absolute: true, as: 'anonymous' });
  assert.is(res.status, 200);
  const doc = res.body;
  assert.is(doc.openapi, '3.1.0');
  assert.type(doc.info.title, 'string');
  assert.type(doc.info.version, 'string');
  assert.ok(Array.isArray(doc.servers) && doc.servers.length > 0);
  const problems: string[] = [];
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Body>>)) {
    if (!path.startsWith('/')) problems.push(`${path}: path does not start with /`);
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method))
        problems.push(`${where}: not an HTTP method`);
      if (operationIds.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} is not unique`);
      operationIds.add(op.operationId);
      if (typeof op['x-flowhost-permission'] !== 'string') problems.push(`${where}: no x-flowhost-permission`);
      for (const name of names)
        if (!op.parameters.some((p: Body) => p.in === 'path' && p.name === name && p.required === true))
          problems.push(`${where}: path parameter ${name} not declared`);
      for (const p of op.parameters)
        if (!p.schema || !['path', 'query', 'header', 'cookie'].includes(p.in))
          problems.push(`${where}: parameter ${p.name} without schema or location`);
      if (op.requestBody && !Object.values(op.requestBody.content as Record<string, Body>).every((c) => c.schema))
        problems.push(`${where}: request body without schema`);
      const statuses = Object.keys(op.responses ?? {});
      if (!testOnly(path) && !statuses.some((s) => /^[23]\d\d$/.test(s))) problems.push(`${where}: no success response`);
      for (const [status, response] of Object.entries(op.responses as Record<string, Body>)) {
        if (!/^[1-5]\d\d$|^default$/.test(status)) problems.push(`${where} ${status}: not a status`);
        if (typeof response.description !== 'string') problems.push(`${where} ${status}: no description`);
        const content = Object.values((response.content ?? {}) as Record<string, Body>);
        if (!content.length || !content.every((c) => c.schema && typeof c.schema === 'object'))
          problems.push(`${where} ${status}: no content schema`);
        if (
          Number(status) >= 400 &&
          response.content['application/json'] &&
          !publishedCodes(response.content['application/json'].schema) &&
          !response.content['application/json'].schema?.anyOf
        ) {
          problems.push(`${where} ${status}: error without its code enum`);
        }
      }
    }
  }
  for (const ref of refs(doc)) {
    const target = ref.startsWith('#/')
      ? ref
          .slice(2)
          .split('/')
          .reduce<unknown>((node, key) => (node as Body | undefined)?.[key], doc)
      : undefined;
    if (target === undefined) problems.push(`dangling $ref ${ref}`);
  }
  assert.equal(problems, []);
  const create = doc.paths['/api/automation/v1/flows'].post;
  assert.is(create['x-flowhost-permission'], 'capability:manage_options');
  assert.ok(create.requestBody.content['application/json'].schema);
  assert.ok(create.responses['200'].content['application/json'].schema.properties.data);
  assert.ok(publishedCodes(create.responses['404'].content['application/json'].schema)?.includes('pipeline_not_found'));
  assert.ok(publishedCodes(create.responses['401'].content['application/json'].schema)?.includes('rest_not_logged_in'));
  assert.is(doc.success, undefined, 'the document is served as is: OpenAPI allows no other top-level key');
  assert.ok(doc.paths['/api/reference'].get.responses['200'].content['text/html']);
});

test.run();
