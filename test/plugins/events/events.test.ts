// The events plugin on both stores: events and venues written through wp/v2 by an editor,
// GET /events/calendar (days in the site's time zone, whole days per page, multi-day events
// on each day, past reversed, filters, escaping, every bad input), /events/filters,
// the venue routes, geocoding against a fake Nominatim (User-Agent, 1 request/s, cache),
// the `event` publish handler and the server-rendered page.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runHandler, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { services } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { eventsHost, fakeNominatim, makeEvent, makeTerm, makeVenue, NS, type Body } from './fixtures.js';

type Who = { login: string; password: string };
interface Ctx {
  t: TestHost;
  geo: FakeServer & { times: number[] };
  editor: Who;
  ids: Record<string, number>;
}

const days = (res: { body: Body }) => res.body.data.days as string[];

for (const store of testStores('events plugin')) {
  const test = suite<Ctx>(`events plugin (${store.label})`);
  test.before(async (ctx) => {
    ctx.geo = await fakeNominatim();
    // 13:00 in New York (EDT, UTC-4), 17:00 UTC.
    ctx.t = await eventsHost(store.config(), ctx.geo.url, '2026-03-10T17:00:00Z');
    ctx.editor = await ctx.t.createUser('ed', 'editor');
    ctx.ids = {};
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.geo.close();
  });

  test('an editor writes venues and events (schedule and venue in meta) through wp/v2', async ({ t, editor, ids }) => {
    ids.live = await makeTerm(t, 'event-categories', 'Live');
    ids.music = await makeTerm(t, 'event-categories', 'Music', ids.live);
    ids.theatre = await makeTerm(t, 'event-categories', 'Theatre');
    ids.brooklyn = await makeTerm(t, 'event-locations', 'Brooklyn');
    ids.artist = await makeTerm(t, 'event-artists', 'Ada Trio');
    ids.blue = await makeVenue(t, editor, 'The Blue Note', {
      address: '131 W 3rd St',
      city: 'New York',
      region: 'NY',
      country: 'US',
      latitude: 40.7308,
      longitude: -73.9973,
      website: 'https://bluenote.example',
    });
    ids.hall = await makeVenue(t, editor, 'Union Hall', { address: '702 Union St', city: 'Brooklyn' });
    ids.jazz = await makeEvent(t, editor, {
      title: 'Jazz Night',
      content: 'Swing and bebop',
      meta: {
        start_date: '2026-03-10 20:00:00',
        end_date: '2026-03-10 23:00:00',
        venue_id: ids.blue,
        ticket_url: 'https://tickets.example/jazz',
        price: '$20',
      },
      'event-categories': [ids.music],
      'event-artists': [ids.artist],
    });
    ids.matinee = await makeEvent(t, editor, {
      title: 'Matinee',
      meta: { start_date: '2026-03-10 14:00:00', end_date: '2026-03-10 15:00:00' },
      'event-categories': [ids.theatre],
    });
    ids.xss = await makeEvent(t, editor, {
      title: '<script>alert(1)</script>',
      meta: { start_date: '2026-03-11 19:00:00', venue_id: ids.hall },
      'event-categories': [ids.theatre],
    });
    ids.festival = await makeEvent(t, editor, {
      title: 'Spring Festival',
      meta: { start_date: '2026-03-12 10:00:00', end_date: '2026-03-14 18:00:00', venue_id: ids.hall },
      'event-categories': [ids.music],
      'event-locations': [ids.brooklyn],
    });
    ids.late = await makeEvent(t, editor, {
      title: 'Late Show',
      meta: { start_date: '2026-03-20 21:00:00' },
      'event-categories': [ids.theatre],
    });
    ids.morning = await makeEvent(t, editor, {
      title: 'Morning Talk',
      meta: { start_date: '2026-03-10 09:00:00', end_date: '2026-03-10 10:00:00' },
    });
    ids.old = await makeEvent(t, editor, {
      title: 'Old Show',
      meta: { start_date: '2026-02-20 20:00:00' },
      'event-categories': [ids.music],
    });
    await makeEvent(t, editor, { title: 'Draft Gig', status: 'draft', meta: { start_date: '2026-03-11 10:00:00' } });
    // Typed meta: wp/v2 refuses a schedule or venue field the calendar could not read.
    for (const [path, meta, key] of [
      ['/events', { start_date: 'soon' }, 'meta.start_date'],
      ['/events', { start_date: '2026-03-10 20:00:00', venue_id: 'blue' }, 'meta.venue_id'],
      ['/events', { start_date: '2026-03-10 20:00:00', ticket_url: 'javascript:alert(1)' }, 'meta.ticket_url'],
      ['/venues', { latitude: 91 }, 'meta.latitude'],
    ] as const) {
      const res = await t.request<Body>('POST', path, { namespace: 'wp/v2', as: editor, body: { title: 'Bad', status: 'publish', meta } });
      assert.is(res.status, 400, `${path} ${JSON.stringify(meta)}`);
      assert.is(res.body.code, 'rest_invalid_param');
      assert.ok(
        Object.keys(res.body.data.params).some((p) => p.startsWith(key)),
        JSON.stringify(res.body.data.params),
      );
    }
    // A null still removes a typed key; other meta keys stay free-form.
    const loose = await makeEvent(t, editor, {
      title: 'Loose',
      status: 'draft',
      meta: { start_date: '2026-03-10 20:00:00', note: { any: 'thing' } },
    });
    const cleared = await t.request<Body>('POST', `/events/${loose}`, {
      namespace: 'wp/v2',
      as: editor,
      body: { meta: { start_date: null } },
    });
    assert.is(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal(cleared.body.meta, { note: { any: 'thing' } });
    // Written straight to the content store (no wp/v2 check), an unreadable start keeps the event off the calendar.
    await t.host.content.createPost({ post_type: 'event', status: 'publish', title: 'Undated', meta: { start_date: 'soon' } });
    const read = await t.request<Body>('GET', `/events/${ids.jazz}`, { namespace: 'wp/v2' });
    assert.equal(read.body.meta, {
      start_date: '2026-03-10 20:00:00',
      end_date: '2026-03-10 23:00:00',
      venue_id: ids.blue,
      ticket_url: 'https://tickets.example/jazz',
      price: '$20',
    });
    assert.equal(read.body['event-categories'], [ids.music]);
    const sub = await t.createUser('sub', 'subscriber');
    assert.is(
      (
        await t.request('POST', '/events', {
          namespace: 'wp/v2',
          as: sub,
          body: { title: 'x', meta: { start_date: '2026-03-10 10:00:00' } },
        })
      ).status,
      403,
    );
  });

  test('calendar: upcoming days in the site time zone, whole days per page, multi-day events on each day', async ({ t, ids }) => {
    const res = await t.request<Body>('GET', '/events/calendar', { ...NS, as: 'anonymous' });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.success, true);
    // 13:00 in New York: the 14:00 matinee is still to come (it would be over at 17:00 UTC).
    assert.equal(days(res), ['2026-03-10', '2026-03-11', '2026-03-12']);
    assert.equal(res.body.data, { page: 1, total_pages: 2, total_events: 5, page_events: 4, past: false, days: days(res) });
    const html = res.body.html as string;
    assert.ok(html.indexOf('Matinee') < html.indexOf('Jazz Night'), 'in time order within the day');
    assert.match(html, 'Tuesday 10 March 2026');
    assert.match(html, 'The Blue Note, New York');
    assert.match(html, 'href="https://tickets.example/jazz"');
    assert.match(html, '>Music<');
    assert.not.match(html, 'Morning Talk');
    assert.not.match(html, 'Draft Gig');
    assert.not.match(html, 'Undated');
    assert.match(res.body.counter, '5 events · page 1 of 2');
    assert.match(res.body.pagination, 'href="/events?paged=2"');
    assert.match(res.body.navigation, 'href="/events?past=1"');
    const two = await t.request<Body>('GET', '/events/calendar', { ...NS, query: { paged: 2 } });
    assert.equal(days(two), ['2026-03-13', '2026-03-14', '2026-03-20']);
    assert.is((two.body.html.match(/Spring Festival/g) ?? []).length, 2, 'the festival shows on the 13th and 14th');
    assert.match(two.body.html, 'All day (until 14 Mar 2026)');
    assert.match(two.body.html, 'Until 18:00');
    const beyond = await t.request<Body>('GET', '/events/calendar', { ...NS, query: { paged: 9 } });
    assert.is(beyond.status, 200);
    assert.equal(days(beyond), []);
    assert.match(beyond.body.html, 'No events on this page.');
  });

  test('calendar: titles are escaped, never markup', async ({ t }) => {
    const res = await t.request<Body>('GET', '/events/calendar', NS);
    assert.match(res.body.html, '&lt;script&gt;alert(1)&lt;/script&gt;');
    assert.not.match(res.body.html, '<script>');
    const search = await t.request<Body>('GET', '/events/calendar', { ...NS, query: { event_search: '"><img src=x onerror=alert(1)>' } });
    assert.is(search.status, 200);
    assert.not.match(search.body.pagination + search.body.navigation + search.body.html, '<img');
  });

  test('calendar: past reverses the order; date range; search; tax_filter in both forms; archive term', async ({ t, ids }) => {
    const past = await t.request<Body>('GET', '/events/calendar', { ...NS, query: { past: '1' } });
    assert.equal(days(past), ['2026-03-10', '2026-02-20']);
    assert.match(past.body.html, 'Morning Talk');
    assert.match(past.body.navigation, 'aria-current="true">Past');
    const range = await t.request<Body>('GET', '/events/calendar', { ...NS, query: { date_start: '2026-03-13', date_end: '2026-03-20' } });
    assert.equal(days(range), ['2026-03-13', '2026-03-14', '2026-03-20']);
    assert.match(range.body.navigation, '13 Mar 2026 – 20 Mar 2026');
    const search = await t.request<Body>('GET', '/events/calendar', { ...NS, query: { event_search: 'BEBOP' } });
    assert.equal(days(search), ['2026-03-10']);
    assert.is(search.body.data.total_events, 1);
    const byVenue = await t.request<Body>('GET', '/events/calendar', { ...NS, query: { event_search: 'union hall' } });
    assert.is(byVenue.body.data.total_events, 2);
    const json = await t.request<Body>('GET', '/events/calendar', {
      ...NS,
      query: { tax_filter: JSON.stringify({ event_category: [ids.music] }) },
    });
    assert.is(json.body.data.total_events, 2);
    const php = await t.request<Body>(
      'GET',
      `/events/calendar?tax_filter[event_category][]=${ids.music}&tax_filter[event_location][]=${ids.brooklyn}`,
      NS,
    );
    assert.is(php.body.data.total_events, 1);
    assert.match(php.body.html, 'Spring Festival');
    const archive = await t.request<Body>('GET', '/events/calendar', {
      ...NS,
      query: { archive_taxonomy: 'event_category', archive_term_id: ids.theatre },
    });
    assert.is(archive.body.data.total_events, 3);
  });

  test('calendar: bad input is 400 naming the parameter; a missing archive term 404', async ({ t }) => {
    const bad = async (query: Record<string, string>, param: string) => {
      const res = await t.request<Body>('GET', '/events/calendar', { ...NS, query });
      assert.is(res.status, 400, `${JSON.stringify(query)} → ${res.status}`);
      assert.is(res.body.code, 'rest_invalid_param');
      assert.ok(
        Object.keys(res.body.data.params).some((key) => key.startsWith(param)),
        JSON.stringify(res.body),
      );
    };
    await bad({ date_start: '2026-02-30' }, 'date_start');
    await bad({ date_start: 'yesterday' }, 'date_start');
    await bad({ date_start: '2026-03-10', date_end: '2026-03-01' }, 'date_end');
    await bad({ paged: '0' }, 'paged');
    await bad({ paged: 'two' }, 'paged');
    await bad({ past: 'maybe' }, 'past');
    await bad({ tax_filter: '{nope' }, 'tax_filter');
    await bad({ tax_filter: '[1,2]' }, 'tax_filter');
    await bad({ tax_filter: JSON.stringify({ category: [1] }) }, 'tax_filter');
    await bad({ tax_filter: JSON.stringify({ event_category: ['x'] }) }, 'tax_filter');
    await bad({ 'tax_filter[event_category]': 'abc' }, 'tax_filter[event_category]');
    await bad({ archive_taxonomy: 'event_category' }, 'archive_term_id');
    await bad({ archive_taxonomy: 'post_tag', archive_term_id: '1' }, 'archive_taxonomy');
    await bad({ event_search: 'x'.repeat(201) }, 'event_search');
    const missing = await t.request<Body>('GET', '/events/calendar', {
      ...NS,
      query: { archive_taxonomy: 'event_category', archive_term_id: '999999' },
    });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'event_term_not_found');
  });

  test('filters: counts in the current context, other filters applied, parents and dependencies', async ({ t, ids }) => {
    const res = await t.request<Body>('GET', '/events/filters', { ...NS, as: 'anonymous' });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.context, 'modal');
    assert.is(res.body.total, 5);
    const cats = res.body.taxonomies.find((x: Body) => x.taxonomy === 'event_category');
    const count = (list: Body, id: number) => list.terms.find((term: Body) => term.id === id)?.count;
    assert.is(count(cats, ids.music), 2);
    assert.is(count(cats, ids.theatre), 3);
    // Live has no event of its own: its count is its child Music's events, as its archive would list them.
    assert.is(count(cats, ids.live), 2);
    assert.equal(res.body.parents.event_category, { [ids.music]: ids.live });
    // Brooklyn's one event is under Music, and so under Live (Music's parent) too.
    assert.equal(res.body.dependencies.event_location[ids.brooklyn], { event_category: [ids.live, ids.music].sort((a, b) => a - b) });
    // With Brooklyn active: categories count only Brooklyn's events, locations ignore their own filter.
    const active = await t.request<Body>('GET', `/events/filters?active[event_location][]=${ids.brooklyn}&context=inline`, NS);
    const cats2 = active.body.taxonomies.find((x: Body) => x.taxonomy === 'event_category');
    assert.equal(
      cats2.terms.map((term: Body) => [term.id, term.count]),
      [
        [ids.live, 1],
        [ids.music, 1],
      ],
    );
    const locations = active.body.taxonomies.find((x: Body) => x.taxonomy === 'event_location');
    assert.equal(locations.terms, [{ id: ids.brooklyn, name: 'Brooklyn', slug: 'brooklyn', parent: 0, count: 1, active: true }]);
    const past = await t.request<Body>('GET', '/events/filters', { ...NS, query: { past: 'true' } });
    assert.is(past.body.total, 2);
    assert.is((await t.request<Body>('GET', '/events/filters', { ...NS, query: { context: 'popup' } })).status, 400);
    assert.is((await t.request<Body>('GET', '/events/filters', { ...NS, query: { active: '{"nope":[1]}' } })).status, 400);
  });

  test("a parent category includes its children's events, as a WordPress category archive does", async ({ t, ids }) => {
    // Live carries no event itself; Music, its child, has Jazz Night and Spring Festival.
    const archive = await t.request<Body>('GET', '/events/calendar', {
      ...NS,
      query: { archive_taxonomy: 'event_category', archive_term_id: ids.live },
    });
    assert.is(archive.body.data.total_events, 2, archive.body.html);
    assert.match(archive.body.html, 'Jazz Night');
    assert.match(archive.body.html, 'Spring Festival');
    const filtered = await t.request<Body>('GET', `/events/calendar?tax_filter[event_category][]=${ids.live}`, NS);
    assert.is(filtered.body.data.total_events, 2);
    // Combined with another taxonomy's filter the inclusion still holds (Spring Festival is in Brooklyn).
    const both = await t.request<Body>(
      'GET',
      `/events/calendar?tax_filter[event_category][]=${ids.live}&tax_filter[event_location][]=${ids.brooklyn}`,
      NS,
    );
    assert.is(both.body.data.total_events, 1);
    assert.match(both.body.html, 'Spring Festival');
    // The modal's count for Brooklyn with Live ticked: the events matching Live (children included) in Brooklyn.
    const facets = await t.request<Body>('GET', `/events/filters?active[event_category][]=${ids.live}`, NS);
    const locations = facets.body.taxonomies.find((x: Body) => x.taxonomy === 'event_location');
    assert.equal(
      locations.terms.map((term: Body) => [term.id, term.count]),
      [[ids.brooklyn, 1]],
    );
    assert.is(facets.body.total, 2);
  });

  test('duplicate venues: Unicode case folding, NFKD and ß/ss; a name that is part of the other in the same city; a small typo', async ({
    t,
    editor,
  }) => {
    const lido = await makeVenue(t, editor, 'Lido', { address: 'Cuvrystraße 7', city: 'Berlin' });
    const lidoHamburg = await makeVenue(t, editor, 'Lido', { address: 'Reeperbahn 1', city: 'Hamburg' });
    const rose = await makeVenue(t, editor, 'Weiße Rose', { address: 'Hauptstraße 2', city: 'Köln' });
    const kessel = await makeVenue(t, editor, 'Kesselhaus', { address: 'Knaackstraße 97', city: 'Berlin' });
    const check = async (query: Record<string, string>) => {
      const res = await t.request<Body>('GET', '/events/venues/check-duplicate', { ...NS, query });
      assert.is(res.status, 200, JSON.stringify(res.body));
      return (res.body.duplicates as Body[]).map((d) => [d.venue.id, d.reasons]);
    };
    // "Lido Berlin" in Berlin is the Lido in Berlin, not the one in Hamburg.
    assert.equal(await check({ name: 'Lido Berlin', city: 'Berlin' }), [[lido, ['similar_name']]]);
    assert.equal(await check({ name: 'Das Lido', city: 'berlin' }), [[lido, ['similar_name']]]);
    // ß and ss, upper case ẞ, full-width letters and accents are the same text.
    assert.equal(await check({ name: 'WEISSE ROSE', city: 'KÖLN' }), [[rose, ['same_name']]]);
    assert.equal(await check({ name: 'Weiẞe Rose' }), [[rose, ['same_name']]]);
    assert.equal(await check({ name: 'ＬＩＤＯ', city: 'Hamburg' }), [[lidoHamburg, ['same_name']]]);
    assert.equal(await check({ name: 'Lido', address: 'Cuvrystrasse 7', city: 'Berlin' }), [[lido, ['same_name', 'same_address']]]);
    // A typo in a longer name.
    assert.equal(await check({ name: 'Keselhaus', city: 'Berlin' }), [[kessel, ['similar_name']]]);
    assert.equal(await check({ name: 'Kesselhuas', city: 'Berlin' }), [[kessel, ['similar_name']]]);
    // Not the same place: a short name one letter off, a part-name in another city, a different word.
    assert.equal(await check({ name: 'Lidl', city: 'Berlin' }), []);
    assert.equal(await check({ name: 'Lido Berlin', city: 'Munich' }), []);
    assert.equal(await check({ name: 'Kesselraum', city: 'Berlin' }), []);
    for (const id of [lido, lidoHamburg, rose, kessel])
      await t.request('DELETE', `/venues/${id}`, { namespace: 'wp/v2', query: { force: 'true' } });
  });

  test('venues: one venue with its upcoming count; 404; duplicate check by normalized name and address', async ({ t, ids }) => {
    const res = await t.request<Body>('GET', `/events/venues/${ids.blue}`, { ...NS, as: 'anonymous' });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.venue.coordinates, { latitude: 40.7308, longitude: -73.9973 });
    assert.is(res.body.venue.name, 'The Blue Note');
    assert.is(res.body.venue.upcoming_event_count, 1);
    assert.is(res.body.venue.website, 'https://bluenote.example');
    assert.is((await t.request<Body>('GET', `/events/venues/${ids.hall}`, NS)).body.venue.upcoming_event_count, 2);
    const missing = await t.request<Body>('GET', `/events/venues/${ids.jazz}`, NS);
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'venue_not_found');
    assert.is((await t.request<Body>('GET', '/events/venues/abc', NS)).status, 400);
    const dup = await t.request<Body>('GET', '/events/venues/check-duplicate', {
      ...NS,
      query: { name: 'Blue Note', address: '131 West 3rd Street' },
    });
    assert.is(dup.status, 200, JSON.stringify(dup.body));
    assert.is(dup.body.duplicates.length, 1);
    assert.is(dup.body.duplicates[0].venue.id, ids.blue);
    assert.equal(dup.body.duplicates[0].reasons, ['same_name', 'same_address']);
    const oneField = await t.request<Body>('GET', '/events/venues/check-duplicate', {
      ...NS,
      query: { name: 'Blue Note, 131 West 3rd Street' },
    });
    assert.is(oneField.body.duplicates[0].venue.id, ids.blue);
    const none = await t.request<Body>('GET', '/events/venues/check-duplicate', {
      ...NS,
      query: { name: 'Village Vanguard', address: '178 7th Ave S' },
    });
    assert.equal(none.body.duplicates, []);
    const empty = await t.request<Body>('GET', '/events/venues/check-duplicate', { ...NS, query: { name: '  ' } });
    assert.is(empty.status, 400);
    assert.is(empty.body.code, 'venue_check_empty');
  });

  test('geocoding: edit_posts only; the fake sees jsonv2 and our User-Agent; 1 request/s; cached; upstream failures 502', async ({
    t,
    geo,
    editor,
  }) => {
    assert.is(
      (await t.request('POST', '/events/geocode/search', { ...NS, as: 'anonymous', body: { address: '131 W 3rd St' } })).status,
      401,
    );
    const sub = await t.createUser('sub2', 'subscriber');
    assert.is((await t.request('POST', '/events/geocode/search', { ...NS, as: sub, body: { address: '131 W 3rd St' } })).status, 403);
    assert.is(geo.requests.length, 0);
    const started = Date.now();
    const first = await t.request<Body>('POST', '/events/geocode/search', {
      ...NS,
      as: editor,
      body: { address: '131 W 3rd St, New York', limit: 3 },
    });
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.is(first.body.cached, false);
    assert.equal(
      first.body.candidates.map((c: Body) => [c.latitude, c.longitude, c.address.city]),
      [[40.7308, -73.9973, 'New York']],
    );
    const sent = new URL(geo.requests[0]!.url, 'http://x');
    assert.is(sent.searchParams.get('q'), '131 W 3rd St, New York');
    assert.is(sent.searchParams.get('limit'), '3');
    const [second, third] = await Promise.all([
      t.request<Body>('POST', '/events/geocode/search', { ...NS, as: editor, body: { address: '702 Union St' } }),
      t.request<Body>('POST', '/events/geocode/search', { ...NS, as: editor, body: { address: '178 7th Ave S' } }),
    ]);
    assert.is(second.status, 200);
    assert.is(third.status, 200);
    assert.is(geo.requests.length, 3);
    // Slots are a second apart when sent; what arrives may jitter by a few ms on loopback.
    for (let i = 1; i < geo.times.length; i++)
      assert.ok(geo.times[i]! - geo.times[i - 1]! >= 950, `requests ${i - 1} and ${i} were ${geo.times[i]! - geo.times[i - 1]!} ms apart`);
    assert.ok(Date.now() - started >= 1900);
    const cached = await t.request<Body>('POST', '/events/geocode/search', {
      ...NS,
      as: editor,
      body: { address: '  131 w 3rd st,   New York ', limit: 3 },
    });
    assert.is(cached.body.cached, true);
    assert.is(geo.requests.length, 3, 'a cached answer costs no request');
    const failed = await t.request<Body>('POST', '/events/geocode/search', { ...NS, as: editor, body: { address: 'explode' } });
    assert.is(failed.status, 502);
    assert.is(failed.body.code, 'geocode_unavailable');
    for (const body of [
      {},
      { address: '' },
      { address: 'x'.repeat(301) },
      { address: 'ok st', limit: 11 },
      { address: 'ok st', countrycodes: 'USA' },
      { address: 'ok st', extra: 1 },
    ]) {
      const res = await t.request<Body>('POST', '/events/geocode/search', { ...NS, as: editor, body });
      assert.is(res.status, 400, JSON.stringify(body));
    }
  });

  test('geocoding: a caller that would wait longer than geocode_max_wait_ms gets 429 with Retry-After, and nothing is sent', async ({
    geo,
  }) => {
    const impatient = await eventsHost(store.config(), geo.url, '2026-03-10T17:00:00Z', { geocode_max_wait_ms: 0 });
    try {
      const sent = geo.requests.length;
      const first = await impatient.request<Body>('POST', '/events/geocode/search', { ...NS, body: { address: '1 First Ave' } });
      assert.is(first.status, 200);
      const second = await impatient.request<Body>('POST', '/events/geocode/search', { ...NS, body: { address: '2 Second Ave' } });
      assert.is(second.status, 429, JSON.stringify(second.body));
      assert.is(second.body.code, 'geocode_rate_limited');
      assert.is(second.headers.get('retry-after'), '1');
      assert.is(geo.requests.length, sent + 1);
    } finally {
      await impatient.stop();
    }
  });

  test('geocoding: country codes in either case; the geocoder is sent lower-case ISO 3166-1 alpha-2', async ({ t, geo, editor }) => {
    const sent = geo.requests.length;
    const res = await t.request<Body>('POST', '/events/geocode/search', {
      ...NS,
      as: editor,
      body: { address: 'Cuvrystraße 7, Berlin', countrycodes: 'DE,at' },
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(geo.requests.length, sent + 1);
    assert.is(new URL(geo.requests[sent]!.url, 'http://x').searchParams.get('countrycodes'), 'de,at');
    const again = await t.request<Body>('POST', '/events/geocode/search', {
      ...NS,
      as: editor,
      body: { address: 'Cuvrystraße 7, Berlin', countrycodes: 'de,AT' },
    });
    assert.is(again.body.cached, true, 'the same codes in another case are the same question');
    for (const countrycodes of ['DEU', 'D', 'de;at', 'd1']) {
      const bad = await t.request<Body>('POST', '/events/geocode/search', { ...NS, as: editor, body: { address: 'ok st', countrycodes } });
      assert.is(bad.status, 400, countrycodes);
    }
  });

  test('the `event` publish handler imports events (ISO times to site time, venue found or made, terms) and updates on re-import', async ({
    t,
    ids,
  }) => {
    const packets = [
      {
        type: 'item',
        data: {
          title: 'Imported Gig',
          description: 'From a feed',
          start_date: '2026-03-21T23:30:00Z',
          venue: 'the blue note',
          categories: 'Music, Jazz',
          artists: ['Ada Trio'],
        },
        metadata: { item_id: 'feed:1' },
      },
      { type: 'item', data: { title: 'No date' }, metadata: { item_id: 'feed:2' } },
    ];
    const out = await runHandler(await handlerOf(t), {}, { packets, content: t.host.content });
    assert.is(out[0]!.type, 'event');
    assert.is(out[1]!.type, 'event_skipped');
    // What the run's outcome lists as published (issue 53): the event's id and its link.
    assert.is(out[0]!.metadata.published_id, String(out[0]!.data.post_id));
    assert.is(out[0]!.metadata.published_url, `${t.url}/?p=${out[0]!.data.post_id}`);
    assert.is(out[1]!.metadata.published_id, undefined, 'a skipped item published nothing');
    const post = await t.host.content.getPost(out[0]!.data.post_id as number);
    assert.is(post!.meta.start_date, '2026-03-21 19:30:00', '23:30 UTC is 19:30 in New York');
    assert.is(post!.meta.end_date, '2026-03-21 21:30:00');
    assert.is(post!.meta.venue_id, ids.blue, 'an existing venue, matched by normalized name');
    assert.is(post!.terms.event_artist![0], ids.artist);
    assert.is(post!.terms.event_category!.length, 2);
    const again = await runHandler(
      await handlerOf(t),
      {},
      { packets: [{ ...packets[0]!, data: { ...packets[0]!.data, title: 'Imported Gig (moved)' } }], content: t.host.content },
    );
    assert.is(again[0]!.data.post_id, out[0]!.data.post_id);
    assert.is((await t.host.content.getPost(out[0]!.data.post_id as number))!.title, 'Imported Gig (moved)');
  });

  test('the page: server-rendered first page, its script, CSP without inline script', async ({ t }) => {
    const res = await fetch(`${t.url}/events?event_search=festival`);
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', 'text/html');
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, "script-src 'self'");
    assert.not.match(csp, 'unsafe-inline');
    const html = await res.text();
    assert.match(html, '<main id="fh-main" data-api="/api/events/v1" data-page="/events">');
    assert.match(html, 'value="festival"');
    assert.match(html, 'Spring Festival');
    assert.not.match(html, 'Jazz Night');
    assert.match(html, '<script src="/events/calendar.js" defer></script>');
    const script = await fetch(`${t.url}/events/calendar.js`);
    assert.is(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', 'text/javascript');
    assert.match(await script.text(), "/events/calendar?'");
    assert.is((await fetch(`${t.url}/events?date_start=nope`)).status, 400);
  });

  test('the calendar follows time and writes: an event that ends drops out; a wp/v2 edit is seen at once', async ({ t, editor, ids }) => {
    const before = await t.request<Body>('GET', '/events/calendar', NS);
    assert.match(before.body.html, 'Matinee');
    const filtersBefore = (await t.request<Body>('GET', '/events/filters', NS)).body.total as number;
    t.clock.advance(2.5 * 3600_000); // 15:30 in New York: the matinee (14:00–15:00) is over.
    assert.is((await t.request<Body>('GET', '/events/filters', NS)).body.total, filtersBefore - 1, 'filter counts follow time too');
    const after = await t.request<Body>('GET', '/events/calendar', NS);
    assert.not.match(after.body.html, 'Matinee');
    assert.match(after.body.html, 'Jazz Night');
    const edit = await t.request<Body>('POST', `/events/${ids.late}`, {
      namespace: 'wp/v2',
      as: editor,
      body: { title: 'Later Show', meta: { start_date: '2026-03-11 21:00:00' } },
    });
    assert.is(edit.status, 200);
    const edited = await t.request<Body>('GET', '/events/calendar', NS);
    assert.match(edited.body.html, 'Later Show');
    assert.ok(edited.body.data.days.includes('2026-03-11'));
    assert.ok(!(await t.request<Body>('GET', '/events/calendar', { ...NS, query: { paged: 2 } })).body.data.days.includes('2026-03-20'));
    await t.request('DELETE', `/events/${ids.jazz}`, { namespace: 'wp/v2', query: { force: 'true' } });
    assert.not.match((await t.request<Body>('GET', '/events/calendar', NS)).body.html, 'Jazz Night');
  });

  test('imported text is read as a reader sees it: entities decoded in the excerpt, search, venue and terms; scripts dropped', async ({
    t,
  }) => {
    const packets = [
      {
        type: 'item',
        data: {
          title: 'Cartoon night',
          description: '<p>Tom &amp; Jerry&#8217;s\n &mdash; 5 &lt; 6</p><script>stealCookies()</script><style>p { color: red }</style>',
          start_date: '2026-04-02T23:00:00Z',
          venue: 'Caf&eacute; &amp; Bar',
          categories: ['Chanson &amp; Caf&eacute;'],
        },
        metadata: { item_id: 'feed:entities' },
      },
    ];
    const [out] = await runHandler(await handlerOf(t), {}, { packets, content: t.host.content });
    assert.is(out!.type, 'event', JSON.stringify(out));
    const april = { date_start: '2026-04-02', date_end: '2026-04-03' };
    const res = await t.request<Body>('GET', '/events/calendar', { ...NS, query: april });
    assert.is(res.body.data.total_events, 1, JSON.stringify(res.body.data));
    const html = res.body.html as string;
    assert.match(html, '<p class="fh-excerpt">Tom &amp; Jerry’s — 5 &lt; 6</p>');
    assert.match(html, 'Café &amp; Bar');
    assert.match(html, '>Chanson &amp; Café<');
    assert.not.match(html, 'stealCookies');
    assert.not.match(html, 'color: red');
    const found = async (event_search: string) =>
      (await t.request<Body>('GET', '/events/calendar', { ...NS, query: { ...april, event_search } })).body.data.total_events;
    assert.is(await found('jerry’s — 5 < 6'), 1);
    assert.is(await found('café'), 1, 'the venue by its name as written');
    assert.is(await found('stealcookies'), 0, 'script content is not searchable text');
  });

  test.run();
}

async function handlerOf(t: TestHost) {
  const handler = (await t.host.services.get(services.handlerCatalogue, 'test')).handler('event');
  if (!handler) throw new Error('no event handler registered');
  return handler;
}
