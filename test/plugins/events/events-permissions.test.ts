// Events and venues on wp/v2 follow WordPress's per-post rights (issue 30), on every store:
// an author edits, publishes, reads and deletes only their own events and venues; a
// contributor does not publish; editors do everything; authors' titles, content and
// excerpts get kses; names of the event taxonomies' terms are plain text.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FakeServer, TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { eventsHost, fakeNominatim, makeEvent, makeVenue, NS, type Body } from './fixtures.js';

type Who = { login: string; password: string; userId: number };
interface Ctx {
  t: TestHost;
  geo: FakeServer;
  editor: Who;
  ann: Who;
  carl: Who;
  /** The administrator's: a draft event, a private event, a published event, a published venue. */
  ids: Record<'draft' | 'private' | 'published' | 'venue', number>;
}

const wp = (t: TestHost, method: string, path: string, options: Parameters<TestHost['request']>[2] = {}) =>
  t.request<Body>(method, path, { namespace: 'wp/v2', ...options });
const start = { start_date: '2026-03-20 20:00:00' };

for (const store of testStores('events permissions')) {
  const test = suite<Ctx>(`events permissions (${store.label})`);
  test.before(async (ctx) => {
    ctx.geo = await fakeNominatim();
    ctx.t = await eventsHost(store.config(), ctx.geo.url, '2026-03-10T17:00:00Z');
    ctx.editor = await ctx.t.createUser('eddie', 'editor');
    ctx.ann = await ctx.t.createUser('ann', 'author');
    ctx.carl = await ctx.t.createUser('carl', 'contributor');
    ctx.ids = {
      draft: await makeEvent(ctx.t, 'admin', { title: 'Admin draft gig', status: 'draft', meta: start }),
      private: await makeEvent(ctx.t, 'admin', { title: 'Admin private gig', status: 'private', meta: start }),
      published: await makeEvent(ctx.t, 'admin', { title: 'Admin gig', meta: start }),
      venue: await makeVenue(ctx.t, 'admin', 'Admin Hall', { address: '1 Main St' }),
    };
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.geo.close();
  });

  test("an author cannot read, edit, publish or delete an administrator's events", async ({ t, ann, ids }) => {
    for (const id of [ids.draft, ids.private]) {
      const read = await wp(t, 'GET', `/events/${id}`, { as: ann });
      assert.is(read.status, 403, JSON.stringify(read.body));
      assert.is(read.body.code, 'rest_forbidden');
      const anonymous = await wp(t, 'GET', `/events/${id}`, { as: 'anonymous' });
      assert.is(anonymous.status, 401);
    }
    const publish = await wp(t, 'POST', `/events/${ids.draft}`, { as: ann, body: { status: 'publish' } });
    assert.is(publish.status, 403, JSON.stringify(publish.body));
    assert.is(publish.body.code, 'rest_cannot_edit');
    for (const id of [ids.private, ids.published]) {
      const edit = await wp(t, 'PATCH', `/events/${id}`, { as: ann, body: { title: 'Mine now', meta: { price: 'free' } } });
      assert.is(edit.status, 403);
      assert.is(edit.body.code, 'rest_cannot_edit');
      const remove = await wp(t, 'DELETE', `/events/${id}`, { as: ann, query: { force: 'true' } });
      assert.is(remove.status, 403);
      assert.is(remove.body.code, 'rest_cannot_delete');
    }
    assert.is(
      (await wp(t, 'GET', `/events/${ids.published}`, { as: ann, query: { context: 'edit' } })).body.code,
      'rest_forbidden_context',
    );
    const drafts = await t.request<Body[]>('GET', '/events', {
      namespace: 'wp/v2',
      as: ann,
      query: { status: 'draft,private', per_page: 100 },
    });
    assert.is(drafts.status, 200);
    assert.equal(
      drafts.body.map((e) => e.id),
      [],
      "others' drafts and private events are left out of lists",
    );
    assert.is(drafts.headers.get('x-wp-total'), '0');
    // Stored state: nothing moved.
    assert.is((await t.host.content.getPost(ids.draft))!.status, 'draft');
    assert.is((await t.host.content.getPost(ids.private))!.title, 'Admin private gig');
    const published = (await t.host.content.getPost(ids.published))!;
    assert.is(published.status, 'publish');
    assert.is(published.meta.price, undefined);
  });

  test("an author cannot edit or delete an administrator's venue", async ({ t, ann, ids }) => {
    const edit = await wp(t, 'POST', `/venues/${ids.venue}`, { as: ann, body: { meta: { address: 'Elsewhere' } } });
    assert.is(edit.status, 403);
    assert.is(edit.body.code, 'rest_cannot_edit');
    const remove = await wp(t, 'DELETE', `/venues/${ids.venue}`, { as: ann });
    assert.is(remove.status, 403);
    assert.is(remove.body.code, 'rest_cannot_delete');
    const venue = (await t.host.content.getPost(ids.venue))!;
    assert.is(venue.status, 'publish');
    assert.is(venue.meta.address, '1 Main St');
    // Still on the public venue route.
    assert.is((await t.request<Body>('GET', `/events/venues/${ids.venue}`, { ...NS, as: 'anonymous' })).status, 200);
  });

  test('an author writes, publishes and deletes their own events and venues; a contributor does not publish', async ({ t, ann, carl }) => {
    const venue = await makeVenue(t, ann, 'Ann Hall', { address: '2 Side St' });
    const event = await makeEvent(t, ann, { title: 'Ann gig', status: 'draft', meta: { ...start, venue_id: venue } });
    const published = await wp(t, 'POST', `/events/${event}`, { as: ann, body: { status: 'publish' } });
    assert.is(published.status, 200, JSON.stringify(published.body));
    assert.is((await wp(t, 'DELETE', `/events/${event}`, { as: ann })).status, 200);
    assert.is((await t.host.content.getPost(event))!.status, 'trash');
    assert.is((await wp(t, 'DELETE', `/venues/${venue}`, { as: ann, query: { force: 'true' } })).status, 200);
    const contributed = await wp(t, 'POST', '/events', { as: carl, body: { title: 'Carl gig', status: 'publish', meta: start } });
    assert.is(contributed.status, 403);
    assert.is(contributed.body.code, 'rest_cannot_publish');
  });

  test("an editor edits, publishes and deletes everyone's events and venues", async ({ t, editor, ids }) => {
    assert.is((await wp(t, 'GET', `/events/${ids.private}`, { as: editor, query: { context: 'edit' } })).status, 200);
    const edited = await wp(t, 'PATCH', `/venues/${ids.venue}`, { as: editor, body: { meta: { city: 'Springfield' } } });
    assert.is(edited.status, 200, JSON.stringify(edited.body));
    const draft = await makeEvent(t, 'admin', { title: 'Admin second draft', status: 'draft', meta: start });
    assert.is((await wp(t, 'POST', `/events/${draft}`, { as: editor, body: { status: 'publish' } })).status, 200);
    assert.is((await wp(t, 'DELETE', `/events/${draft}`, { as: editor, query: { force: 'true' } })).status, 200);
    assert.is(await t.host.content.getPost(draft), null);
  });

  test("kses on authors' event and venue titles, content and excerpts; editors keep their HTML", async ({ t, ann, editor }) => {
    const res = await wp(t, 'POST', '/events', {
      as: ann,
      body: {
        title: 'Gig <img src=x onerror=alert(1)><em>live</em>',
        content: '<p onclick="steal()">Doors 8pm</p><script>alert(1)</script>',
        excerpt: '<b onmouseover="x()">Short</b>',
        status: 'publish',
        meta: start,
      },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    const stored = (await t.host.content.getPost(res.body.id))!;
    assert.is(stored.title, 'Gig <em>live</em>');
    assert.is(stored.content, '<p>Doors 8pm</p>');
    assert.is(stored.excerpt, '<b>Short</b>');
    const venue = await wp(t, 'POST', '/venues', {
      as: ann,
      body: { title: 'Hall<script>alert(1)</script>', content: '<a href="javascript:alert(1)">map</a>', status: 'publish' },
    });
    const storedVenue = (await t.host.content.getPost(venue.body.id))!;
    assert.is(storedVenue.title, 'Hall');
    assert.is(storedVenue.content, '<a>map</a>');
    const trusted = await wp(t, 'POST', '/events', {
      as: editor,
      body: { title: 'Editor gig', content: '<p onclick="x()">Kept</p>', meta: start },
    });
    assert.is((await t.host.content.getPost(trusted.body.id))!.content, '<p onclick="x()">Kept</p>');
  });

  test('names of event taxonomy terms are plain text; authors cannot manage them', async ({ t, ann, editor }) => {
    for (const base of ['event-categories', 'event-locations', 'event-artists']) {
      const created = await wp(t, 'POST', `/${base}`, {
        as: editor,
        body: { name: `<b>Bold</b> ${base}<script>alert(1)</script>`, description: '<em>Kept</em> for editors' },
      });
      assert.is(created.status, 201, JSON.stringify(created.body));
      assert.is(created.body.name, `Bold ${base}`);
      assert.is(created.body.description, '<em>Kept</em> for editors');
      const renamed = await wp(t, 'POST', `/${base}/${created.body.id}`, {
        as: editor,
        body: { name: 'Re<img src=x onerror=alert(1)>named' },
      });
      assert.is(renamed.body.name, 'Renamed');
      const byAuthor = await wp(t, 'POST', `/${base}/${created.body.id}`, { as: ann, body: { name: 'Ann' } });
      assert.is(byAuthor.status, 403);
    }
  });

  test.run();
}
