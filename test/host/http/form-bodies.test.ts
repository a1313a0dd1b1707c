// Form-encoded bodies (`application/x-www-form-urlencoded`, what `fetch` sends for a
// URLSearchParams body, jQuery's $.ajax by default and `curl -d`), read as WordPress reads
// form fields: every value arrives as a string, so integers, booleans and arrays are read
// from their text as query parameters are. A trial with curl found every number, boolean
// and array field refused (`featured_media must be integer`, `force must be boolean`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API JSON read freely

const test = suite<{ t: TestHost; auth: string }>('http: form-encoded bodies');

test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
  const editor = await ctx.t.createUser('fiona', 'editor');
  ctx.auth = `Basic ${Buffer.from(`${editor.login}:${editor.password}`).toString('base64')}`;
});
test.after(async ({ t }) => t.stop());

async function form(t: TestHost, auth: string, method: string, path: string, fields: string): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${t.url}/api${path}`, { method, headers: { Authorization: auth }, body: new URLSearchParams(fields) });
  return { status: response.status, body: (await response.json()) as Body };
}

test('a post created from form fields: integers, booleans and arrays read from their text', async ({ t, auth }) => {
  const category = await form(t, auth, 'POST', '/wp/v2/categories', 'name=Form+news');
  assert.is(category.status, 201, JSON.stringify(category.body));
  const id = category.body.id as number;
  const created = await form(
    t,
    auth,
    'POST',
    '/wp/v2/posts',
    `title=From+a+form&content=Hello&categories[]=${id}&sticky=false&status=draft`,
  );
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.categories, [id]);
  assert.is(created.body.sticky, false);
  // One value where an array is declared is a one-item array; WordPress's yes/no is a boolean too.
  const updated = await form(t, auth, 'POST', `/wp/v2/posts/${created.body.id}`, `categories=${id}&sticky=no&featured_media=0`);
  assert.is(updated.status, 200, JSON.stringify(updated.body));
  assert.equal(updated.body.categories, [id]);
  assert.is(updated.body.featured_media, 0);
  const stored = await t.request<Body>('GET', `/posts/${created.body.id}`, { namespace: 'wp/v2', query: { context: 'edit' } });
  assert.equal(stored.body.categories, [id], 'stored as numbers, not the text');
});

test('DELETE with force=true in a form body deletes for good', async ({ t, auth }) => {
  const created = await form(t, auth, 'POST', '/wp/v2/posts', 'title=Doomed&status=draft');
  assert.is(created.status, 201);
  const deleted = await form(t, auth, 'DELETE', `/wp/v2/posts/${created.body.id}`, 'force=true');
  assert.is(deleted.status, 200, JSON.stringify(deleted.body));
  assert.is(deleted.body.deleted, true);
  const gone = await t.request<Body>('GET', `/posts/${created.body.id}`, { namespace: 'wp/v2', query: { context: 'edit' } });
  assert.is(gone.status, 404);
  // WordPress's 1 for true.
  const second = await form(t, auth, 'POST', '/wp/v2/posts', 'title=Doomed+too&status=draft');
  const deletedToo = await form(t, auth, 'DELETE', `/wp/v2/posts/${second.body.id}`, 'force=1');
  assert.is(deletedToo.status, 200, JSON.stringify(deletedToo.body));
  assert.is(deletedToo.body.deleted, true);
});

test('text that is no number is still refused, naming the field', async ({ t, auth }) => {
  const refused = await form(t, auth, 'POST', '/wp/v2/posts', 'title=Bad&featured_media=twelve');
  assert.is(refused.status, 400);
  assert.is(refused.body.code, 'rest_invalid_param');
  assert.match(JSON.stringify(refused.body.data.params), /featured_media/);
  const notBoolean = await form(t, auth, 'POST', '/wp/v2/posts', 'title=Bad&sticky=perhaps');
  assert.is(notBoolean.status, 400);
  assert.match(JSON.stringify(notBoolean.body.data.params), /sticky/);
});

test('the automation API reads form bodies the same way: POST /execute with flow_id=N', async ({ t, auth }) => {
  const admin = `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;
  const pipeline = await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Form', steps: [] } });
  assert.is(pipeline.status, 200, JSON.stringify(pipeline.body));
  const flow = await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipeline.body.data.pipeline_id, flow_name: 'Form flow' } });
  assert.is(flow.status, 200, JSON.stringify(flow.body));
  const run = await form(t, admin, 'POST', '/automation/v1/execute', `flow_id=${flow.body.data.flow_id}`);
  assert.is(run.status, 200, JSON.stringify(run.body));
  assert.is(run.body.success, true);
  const refused = await form(t, admin, 'POST', '/automation/v1/execute', 'flow_id=abc');
  assert.is(refused.status, 400);
  assert.is(refused.body.code, 'rest_invalid_param');
});

test.run();
