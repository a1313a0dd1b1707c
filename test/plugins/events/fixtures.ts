// Shared set-up for the events suites: a host with the events plugin's geocoder pointed at
// a fake Nominatim, and helpers that write venues and events through wp/v2 as an editor.
import { createFakeServer, createTestHost, FakeClock, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';

export type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
export const NS = { namespace: 'events/v1' };
export const UA = 'Flowhost-Events-Test/1.0 (ops@example.test)';

/** A Nominatim-shaped fake: checks the query and the identifying User-Agent as the real service's policy asks. */
export async function fakeNominatim(): Promise<FakeServer & { times: number[] }> {
  const times: number[] = [];
  const server = await createFakeServer((req) => {
    times.push(Date.now());
    const url = new URL(req.url, 'http://x');
    if (url.pathname !== '/search') return { status: 404, body: { error: 'not found' } };
    if (req.headers['user-agent'] !== UA)
      return { status: 403, body: { error: 'Access blocked: identify your application (usage policy).' } };
    if (url.searchParams.get('format') !== 'jsonv2' || !url.searchParams.get('q')) return { status: 400, body: { error: 'bad request' } };
    if (url.searchParams.get('q') === 'explode') return { status: 500, body: 'oops' };
    return {
      body: [
        {
          place_id: 1,
          osm_type: 'way',
          osm_id: 42,
          lat: '40.7308',
          lon: '-73.9973',
          display_name: `${url.searchParams.get('q')}, New York, USA`,
          type: 'house',
          address: {
            house_number: '131',
            road: 'West 3rd Street',
            city: 'New York',
            state: 'New York',
            postcode: '10012',
            country: 'United States',
            country_code: 'us',
          },
        },
        { place_id: 2, lat: 'nonsense', lon: '0' },
      ],
    };
  });
  return Object.assign(server, { times });
}

export async function eventsHost(
  config: Record<string, unknown>,
  nominatimUrl: string,
  now: string,
  extra: Record<string, unknown> = {},
): Promise<TestHost> {
  return createTestHost({
    plugins: [],
    clock: new FakeClock(new Date(now).getTime()),
    config: {
      ...config,
      pluginSettings: {
        events: { timezone: 'America/New_York', events_per_page: 4, geocode_base_url: nominatimUrl, geocode_user_agent: UA, ...extra },
      },
    },
  });
}

export async function makeVenue(
  t: TestHost,
  as: { login: string; password: string } | 'admin',
  title: string,
  meta: Record<string, unknown>,
): Promise<number> {
  const res = await t.request<Body>('POST', '/venues', { namespace: 'wp/v2', as, body: { title, status: 'publish', meta } });
  if (res.status !== 201) throw new Error(`venue: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function makeEvent(
  t: TestHost,
  as: { login: string; password: string } | 'admin',
  body: Record<string, unknown>,
): Promise<number> {
  const res = await t.request<Body>('POST', '/events', { namespace: 'wp/v2', as, body: { status: 'publish', ...body } });
  if (res.status !== 201) throw new Error(`event: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function makeTerm(t: TestHost, restBase: string, name: string, parent?: number): Promise<number> {
  const res = await t.request<Body>('POST', `/${restBase}`, { namespace: 'wp/v2', body: { name, ...(parent ? { parent } : {}) } });
  if (res.status !== 201) throw new Error(`term: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
