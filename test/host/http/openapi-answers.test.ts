// The host's answers to bad URLs checked against the served openapi.json, as a client
// that validates responses with the published document does (ajv's 2020-12 validator over
// the document itself, $refs and all). A client trial found answers the document did not
// declare: 400 rest_invalid_url for a path with a bad percent-escape, which any URL can
// carry; and wp/v2 answering 400 where WordPress's route patterns answer 404 rest_no_route
// (`/posts/abc`), or 200 where it refuses (`orderby=include` without `include`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { servedOpenApi, type OpenApiDocument } from '../../support/served-openapi.js';

type Body = { code?: string; message?: string; data?: { status?: number } };

const test = suite<{ t: TestHost; doc: OpenApiDocument; ajv: Ajv2020 }>('host: answers to bad URLs, as openapi.json declares them');

test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
  ctx.doc = (await servedOpenApi(ctx.t.url)).doc;
  ctx.ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ctx.ajv);
  ctx.ajv.addSchema({ ...ctx.doc, $id: 'openapi' });
});
test.after(async ({ t }) => t.stop());

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Sends the request, then checks its answer against the document's schema for that path, method and status. */
async function answered(
  ctx: { t: TestHost; doc: OpenApiDocument; ajv: Ajv2020 },
  method: string,
  documented: string,
  url: string,
  status: number,
  authorization?: string,
): Promise<Body> {
  const headers: Record<string, string> = { Accept: 'application/json', ...(authorization ? { Authorization: authorization } : {}) };
  const response = await fetch(`${ctx.t.url}${url}`, { method, headers });
  const body = (await response.json()) as Body;
  assert.is(response.status, status, `${method} ${url}: ${JSON.stringify(body)}`);
  const operation = ctx.doc.paths[documented]?.[method.toLowerCase()] as { responses?: Record<string, unknown> } | undefined;
  assert.ok(operation, `${method} ${documented} is in the document`);
  assert.ok(operation.responses?.[String(status)], `${method} ${documented} declares ${status}`);
  const validate = ctx.ajv.compile({
    $ref: `openapi#/${pointer('paths', documented, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`,
  });
  assert.ok(validate(body), `${method} ${url} → ${status} ${body.code}: ${ctx.ajv.errorsText(validate.errors)}`);
  return body;
}

test('a path with an invalid percent-escape: 400 rest_invalid_url, as the route declares', async (ctx) => {
  const body = await answered(ctx, 'GET', '/api/automation/v1/flows/{flow_id}', '/api/automation/v1/flows/%ff', 400);
  assert.is(body.code, 'rest_invalid_url');
  const post = await answered(ctx, 'GET', '/api/wp/v2/posts/{id}', '/api/wp/v2/posts/%ff', 400);
  assert.is(post.code, 'rest_invalid_url');
});

test('wp/v2: an id its route pattern would not take is 404 rest_no_route, as WordPress answers', async (ctx) => {
  for (const id of ['abc', '-1', '0'])
    assert.is((await answered(ctx, 'GET', '/api/wp/v2/posts/{id}', `/api/wp/v2/posts/${id}`, 404)).code, 'rest_no_route', id);
  assert.is((await answered(ctx, 'GET', '/api/wp/v2/media/{id}', '/api/wp/v2/media/abc', 404)).code, 'rest_no_route');
  // The automation API keeps its own rule: a bad id is 400 naming the parameter.
  const admin = `Basic ${Buffer.from(`${ctx.t.admin.login}:${ctx.t.admin.password}`).toString('base64')}`;
  const flow = await answered(ctx, 'GET', '/api/automation/v1/flows/{flow_id}', '/api/automation/v1/flows/abc', 400, admin);
  assert.is(flow.code, 'rest_invalid_param');
});

test('wp/v2: orderby=include without include is 400 rest_orderby_include_missing_include', async (ctx) => {
  const body = await answered(ctx, 'GET', '/api/wp/v2/posts', '/api/wp/v2/posts?orderby=include', 400);
  assert.is(body.code, 'rest_orderby_include_missing_include');
  assert.is(body.message, 'You need to define an include parameter to order by include.');
  const media = await answered(ctx, 'GET', '/api/wp/v2/media', '/api/wp/v2/media?orderby=include', 400);
  assert.is(media.code, 'rest_orderby_include_missing_include');
  await answered(ctx, 'GET', '/api/wp/v2/posts', '/api/wp/v2/posts?orderby=include&include=1', 200);
});

test('wp/v2: types in the edit context refused to a stranger, as declared', async (ctx) => {
  assert.is((await answered(ctx, 'GET', '/api/wp/v2/types', '/api/wp/v2/types?context=edit', 401)).code, 'rest_cannot_view');
});

test('wp/v2 lists declare the paging headers they send, creations their Location', async (ctx) => {
  const admin = `Basic ${Buffer.from(`${ctx.t.admin.login}:${ctx.t.admin.password}`).toString('base64')}`;
  for (const path of ['/api/wp/v2/posts', '/api/wp/v2/categories', '/api/wp/v2/tags', '/api/wp/v2/media', '/api/wp/v2/users']) {
    const operation = ctx.doc.paths[path]?.get as { responses: Record<string, { headers?: Record<string, unknown> }> } | undefined;
    assert.ok(operation, path);
    const declared = operation.responses['200']!;
    assert.equal(Object.keys(declared.headers ?? {}).sort(), ['Link', 'X-WP-Total', 'X-WP-TotalPages'], path);
    const response = await fetch(`${ctx.t.url}${path}?per_page=1`, { headers: { Authorization: admin } });
    assert.match(response.headers.get('x-wp-total') ?? '', /^[0-9]+$/, path);
    assert.match(response.headers.get('x-wp-totalpages') ?? '', /^[0-9]+$/, path);
  }
  for (const path of ['/api/wp/v2/posts', '/api/wp/v2/categories', '/api/wp/v2/media']) {
    const operation = ctx.doc.paths[path]?.post as { responses: Record<string, { headers?: Record<string, unknown> }> } | undefined;
    assert.ok(operation, path);
    const declared = operation.responses['201']!;
    assert.equal(Object.keys(declared.headers ?? {}), ['Location'], path);
  }
  const created = await fetch(`${ctx.t.url}/api/wp/v2/categories`, {
    method: 'POST',
    headers: { Authorization: admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Declared' }),
  });
  assert.is(created.status, 201);
  assert.match(created.headers.get('location') ?? '', /\/api\/wp\/v2\/categories\/[0-9]+$/);
});

test.run();
