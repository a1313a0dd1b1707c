// Upload routes (streamBody) are published as what they read: multipart/form-data with the
// file in its field (and the route's text fields), or the raw body as the file, named by a
// Content-Disposition header. Before, the document said only `*/*: string`. A request header
// a route reads itself (schema.requestHeaders) is a header parameter too.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { optionalPlugins } from '../../../plugins/index.js';
import { servedOpenApi, type OpenApiDocument } from '../../support/served-openapi.js';
import { compileRoutes } from '../../../host/http/route-table.js';
import { silentLogger } from '../../../core/kernel/logger.js';

type Node = Record<string, unknown>;
const at = (value: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((node, key) => (node as Node | undefined)?.[key], value);

const test = suite<{ t: TestHost; doc: OpenApiDocument }>('host: upload routes in openapi.json');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: Object.values(optionalPlugins) });
  ctx.doc = (await servedOpenApi(ctx.t.url)).doc;
});
test.after(async (ctx) => {
  await ctx.t.stop();
});

test('every streamBody route declares its upload (schema.upload)', ({ t }) => {
  const undeclared = t.host.routes
    .filter((r) => r.definition.streamBody && !r.definition.schema?.upload)
    .map((r) => `${r.method} ${r.fullPath}`);
  assert.equal(undeclared, []);
  assert.ok(t.host.routes.filter((r) => r.definition.streamBody).length >= 2);
});

for (const [path, fields] of [
  ['/api/automation/v1/files', []],
  ['/api/wp/v2/media', ['title', 'alt_text', 'caption', 'description', 'post']],
] as const) {
  test(`POST ${path}: multipart/form-data with the file, or the raw body with Content-Disposition`, ({ doc }) => {
    const op = doc.paths[path]?.post;
    const content = at(op, 'requestBody', 'content') as Node;
    assert.equal(Object.keys(content), ['multipart/form-data', '*/*']);
    const form = at(content, 'multipart/form-data', 'schema') as Node;
    assert.is(form.type, 'object');
    assert.equal(form.required, ['file']);
    assert.equal(at(form, 'properties', 'file'), {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'The file, with its filename',
    });
    assert.equal(Object.keys(form.properties as Node), ['file', ...fields]);
    assert.equal(at(content, '*/*', 'schema'), {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'The file itself, typed by Content-Type',
    });
    const disposition = ((op?.parameters ?? []) as Node[]).find((p) => p.in === 'header' && p.name === 'Content-Disposition');
    assert.ok(disposition, 'Content-Disposition header declared');
    assert.is(disposition.required, false);
  });
}

test("a request header a route reads itself (the trigger's Idempotency-Key) is a header parameter a client can send", ({ doc }) => {
  const op = at(doc, 'paths', '/api/automation/v1/trigger/{flow_id}', 'post') as Node | undefined;
  const key = ((op?.parameters ?? []) as Node[]).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  assert.ok(key, 'Idempotency-Key declared');
  assert.is(key.required, false);
  assert.equal(key.schema, { type: 'string', minLength: 1, maxLength: 255 });
});

test('schema.upload on a route whose body the host reads is a mistake, refused when the table is built', () => {
  const route = { method: 'POST' as const, path: '/x', permission: 'public' as const, schema: { upload: {} }, handle: () => ({}) };
  assert.throws(
    () =>
      compileRoutes([{ surface: { id: 'x', routes: [route] }, owner: 'test' }], {
        apiPrefix: '/api',
        coreNamespace: 'automation/v1',
        log: silentLogger,
      }),
    /schema\.upload describes a streamBody route's upload/,
  );
});

test.run();
