// Schemas that type their handlers: a TypeBox schema types request.params/query/body, a
// handler's settings and a tool's args, with no cast; ajv validates the same objects on
// a real host. Type checks are compile-time (this file must compile); the host checks
// what reaches the handler at run time.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Type } from 'typebox';
import type { JsonSchema } from '../../sdk/index.js';
import { defineChatTool, defineHandler, definePlugin, defineRoute, defineSurface, reply, services, successBody } from '../../sdk/index.js';
import { createTestHost, runHandler, runTool } from '../../sdk/testing/index.js';

const test = suite('sdk: schemas that type their handlers');

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(_: T) => undefined;

const seen: unknown[] = [];
const createNote = defineRoute({
  method: 'POST',
  path: '/notes/{book_id}',
  permission: 'authenticated',
  schema: {
    params: Type.Object({ book_id: Type.Integer({ minimum: 1 }) }),
    query: Type.Object({ draft: Type.Optional(Type.Boolean()) }),
    body: Type.Object(
      { text: Type.String({ minLength: 1 }), tags: Type.Array(Type.Union([Type.Literal('red'), Type.Literal('blue')])) },
      { additionalProperties: false },
    ),
    responses: {
      201: successBody({
        data: { type: 'object', required: ['book_id', 'chars'], properties: { book_id: { type: 'integer' }, chars: { type: 'integer' } } },
      }),
    },
  },
  handle(request) {
    expectType<Equal<typeof request.params.book_id, number>>(true);
    expectType<Equal<typeof request.query.draft, boolean | undefined>>(true);
    expectType<Equal<typeof request.body.tags, Array<'red' | 'blue'>>>(true);
    seen.push(request.body.tags);
    return reply(201, { success: true, data: { book_id: request.params.book_id, chars: request.body.text.length } });
  },
});

// A plain JSON schema written `as const` types the request as TypeBox does: required and
// defaulted properties present, the others optional, enums as unions.
const bookParams = { type: 'object', required: ['book_id'], properties: { book_id: { type: 'integer', minimum: 1 } } } as const;
const listQuery = {
  type: 'object',
  properties: { per_page: { type: 'integer', default: 10 }, order: { enum: ['asc', 'desc'] } },
  additionalProperties: false,
} as const;
const constTyped = defineRoute({
  method: 'GET',
  path: '/books/{book_id}/notes',
  permission: 'authenticated',
  schema: { params: bookParams, query: listQuery, responses: { 200: successBody({ data: { type: 'string' } }) } },
  handle(request) {
    expectType<Equal<typeof request.params.book_id, number>>(true);
    expectType<Equal<typeof request.query.per_page, number>>(true);
    expectType<Equal<typeof request.query.order, 'asc' | 'desc' | undefined>>(true);
    return { success: true, data: `${request.params.book_id}:${request.query.per_page}:${request.query.order ?? '-'}` };
  },
});

// A schema written inline is read as a literal too (defineRoute's type parameter is `const`).
const inline = defineRoute({
  method: 'DELETE',
  path: '/books/{book_id}',
  permission: 'authenticated',
  schema: {
    params: { type: 'object', required: ['book_id'], properties: { book_id: { type: 'integer' } } },
    query: { type: 'object', required: ['why'], properties: { why: { enum: ['typo', 'spam'] } } },
    responses: { 200: successBody({ data: { type: 'string' } }) },
  },
  handle(request) {
    expectType<Equal<typeof request.params.book_id, number>>(true);
    expectType<Equal<typeof request.query.why, 'typo' | 'spam'>>(true);
    return { success: true, data: request.query.why };
  },
});
void inline;

// A schema whose type is not a literal (built at run time, typed JsonSchema) is still
// accepted; it types nothing.
const wideQuery: JsonSchema = { type: 'object', properties: { q: { type: 'string' } } };
const plain = defineRoute({
  method: 'GET',
  path: '/plain',
  permission: 'authenticated',
  schema: {
    query: wideQuery,
    responses: { 200: successBody({ data: { type: 'string' } }) },
  },
  handle(request) {
    expectType<Equal<typeof request.query, Record<string, unknown>>>(true);
    return { success: true, data: String(request.query.q ?? '') };
  },
});

const counter = defineHandler({
  slug: 'counter',
  type: 'fetch',
  label: 'Counter',
  description: 'Counts to n.',
  settings: Type.Object({ n: Type.Integer({ minimum: 1, default: 2 }), max_items: Type.Integer({ default: 10 }) }),
  async fetch(_ctx, settings) {
    expectType<Equal<typeof settings.n, number>>(true);
    return Array.from({ length: settings.n }, (_, i) => ({ type: 'n', data: { title: `#${i}` }, metadata: { item_id: `n${i}` } }));
  },
});

const shout = defineChatTool({
  name: 'shout',
  description: 'Upper-cases a text.',
  parameters: Type.Object({ text: Type.String(), times: Type.Optional(Type.Integer({ minimum: 1 })) }),
  async run(args) {
    expectType<Equal<typeof args.text, string>>(true);
    return args.text.toUpperCase().repeat(args.times ?? 1);
  },
});

// A tool's plain inline schema types its arguments as well.
const tag = defineChatTool({
  name: 'tag',
  description: 'Tags a post.',
  parameters: {
    type: 'object',
    required: ['post_id'],
    properties: { post_id: { type: 'integer' }, mode: { enum: ['add', 'remove'], default: 'add' } },
    additionalProperties: false,
  },
  destructive: (args) => args.mode === 'remove',
  async run(args) {
    expectType<Equal<typeof args.post_id, number>>(true);
    expectType<Equal<typeof args.mode, 'add' | 'remove'>>(true);
    return `${args.mode} ${args.post_id}`;
  },
});

test('a typed route goes into defineSurface; the host validates with the TypeBox schema', async () => {
  const plugin = definePlugin({
    id: 'notes',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { routes: services.routes },
    setup({ routes }) {
      routes.add(defineSurface({ id: 'notes', namespace: 'notes/v1', routes: [createNote, plain, constTyped] }));
    },
  });
  const t = await createTestHost({ plugins: [plugin] });
  try {
    const ok = await t.request<{ data: { book_id: number; chars: number } }>('POST', '/notes/7', {
      namespace: 'notes/v1',
      body: { text: 'hello', tags: ['red'] },
    });
    assert.is(ok.status, 201);
    assert.equal(ok.body.data, { book_id: 7, chars: 5 });
    const refused = await t.request<{ code: string }>('POST', '/notes/7', {
      namespace: 'notes/v1',
      body: { text: 'hello', tags: ['green'] },
    });
    assert.is(refused.status, 400);
    assert.is(refused.body.code, 'rest_invalid_param');
    assert.equal(seen, [['red']]);
    // The `as const` route: the default filled in, the integer coerced from the path.
    const listed = await t.request<{ data: string }>('GET', '/books/3/notes', { namespace: 'notes/v1', query: { order: 'desc' } });
    assert.is(listed.status, 200, JSON.stringify(listed.body));
    assert.is(listed.body.data, '3:10:desc');
  } finally {
    await t.stop();
  }
});

test('a handler typed by its TypeBox settings runs with defaults applied', async () => {
  const packets = await runHandler(counter, {});
  assert.equal(
    packets.map((p) => p.data.title),
    ['#0', '#1'],
  );
});

test('a chat tool typed by its TypeBox parameters', async () => {
  assert.is(await shout.run({ text: 'hi', times: 2 }, { user: null } as never), 'HIHI');
  assert.is(await tag.run({ post_id: 4, mode: 'remove' }, { user: null } as never), 'remove 4');
});

test('runTool calls a tool as the host would: arguments checked and defaulted, destructive read, run with a context', async () => {
  const added = await runTool(tag, { post_id: 4 });
  assert.equal(added, { result: 'add 4', destructive: false, args: { post_id: 4, mode: 'add' } });
  assert.is((await runTool(tag, { post_id: 4, mode: 'remove' })).destructive, true);
  try {
    await runTool(tag, { post_id: 'four', extra: 1 });
    assert.unreachable('invalid arguments were run');
  } catch (error) {
    assert.match((error as Error).message, /^runTool 'tag': invalid arguments: /);
    assert.match((error as Error).message, /post_id/);
  }
  // The context: the user given, a clock and a guarded fetch.
  const seenCtx: unknown[] = [];
  const who = defineChatTool({
    name: 'who',
    description: 'Says who calls.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    async run(_args, ctx) {
      seenCtx.push(typeof ctx.fetch, ctx.clock.now() instanceof Date);
      return ctx.user?.login ?? 'nobody';
    },
  });
  assert.is((await runTool(who, {})).result, 'nobody');
  assert.is(
    (await runTool(who, {}, { user: { userId: 7, login: 'ada', capabilities: ['read'], can: (c) => c === 'read' } })).result,
    'ada',
  );
  assert.equal(seenCtx, ['function', true, 'function', true]);
});

test.run();
