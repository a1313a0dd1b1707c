// Events calendar benchmark: 10,000 published events over three months (30 venues, 12
// categories, 8 locations, multi-day events among them) written through the content
// service, then GET /events/calendar over real HTTP as an anonymous visitor (the page's
// own calls). Target: p50 < 20 ms for the default page (repeat views and paging reuse a
// cached grouping; calendar_new_arguments_p50_ms is the first view of a new filter). BENCH_SMOKE=1: 200 events.
// BENCH_EVENTS=N sets the count.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost } from '../sdk/testing/index.js';
import type { BenchOptions, BenchResult } from './store.js';

const LIMIT_MS = 20;
const round = (n: number) => Math.round(n * 1000) / 1000;
const smoke = () => process.env.BENCH_SMOKE === '1';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const pad = (n: number) => String(n).padStart(2, '0');

export async function eventsBench(opts: BenchOptions = {}): Promise<BenchResult> {
  const total = Number(process.env.BENCH_EVENTS ?? (smoke() ? 200 : 10_000));
  const log = opts.progress ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-bench-events-'));
  const t = await createTestHost({ plugins: [], config: { dataDir: dir } });
  try {
    const content = t.host.content;
    const categories: number[] = [];
    for (let i = 0; i < 12; i++) categories.push((await content.ensureTerm('event_category', `Category ${i}`)).term_id);
    const locations: number[] = [];
    for (let i = 0; i < 8; i++) locations.push((await content.ensureTerm('event_location', `Location ${i}`)).term_id);
    const venues: number[] = [];
    for (let i = 0; i < 30; i++)
      venues.push(
        (
          await content.createPost({
            post_type: 'venue',
            status: 'publish',
            title: `Venue ${i}`,
            meta: { address: `${i} Main St`, city: 'Springfield' },
          })
        ).post_id,
      );
    const today = t.clock.now();
    const insertStarted = process.hrtime.bigint();
    for (let i = 0; i < total; i++) {
      // Spread over 90 days from 10 days ago; one in 25 lasts three days.
      const day = new Date(today.getTime() + (((i * 7919) % 90) - 10) * 86_400_000);
      const date = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
      const hour = 10 + (i % 12);
      const end = i % 25 === 0 ? new Date(day.getTime() + 2 * 86_400_000).toISOString().slice(0, 10) : date;
      await content.createPost({
        post_type: 'event',
        status: 'publish',
        title: `Event ${i} with a reasonably long title`,
        content: `<p>Description of event ${i}: music, talks and food.</p>`,
        meta: {
          start_date: `${date} ${pad(hour)}:00:00`,
          end_date: `${end} ${pad(hour + 2)}:00:00`,
          venue_id: venues[i % venues.length],
          price: `$${i % 50}`,
        },
        terms: { event_category: [categories[i % categories.length]!], event_location: [locations[i % locations.length]!] },
      });
      if (i % 2000 === 0) log(`inserted ${i} / ${total}`);
    }
    const insertSeconds = Number(process.hrtime.bigint() - insertStarted) / 1e9;
    const base = `${t.url}${t.host.config.apiPrefix}/events/v1`;
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`);
      const body = (await res.json()) as { success?: boolean; html?: string; data?: { total_events: number } };
      if (res.status !== 200 || !body.success) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return body;
    };
    const timeIt = async (name: string, path: string, runs: number) => {
      const first = await get(path); // the first call builds the in-memory index
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const started = process.hrtime.bigint();
        await get(path);
        samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      log(`${name}: p50 ${round(percentile(samples, 50))} ms, ${first.data?.total_events ?? '-'} events`);
      return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)) };
    };
    const coldStarted = process.hrtime.bigint();
    await get('/events/calendar');
    const coldMs = Number(process.hrtime.bigint() - coldStarted) / 1e6;
    const runs = smoke() ? 10 : 100;
    const first = await timeIt('calendar', '/events/calendar', runs);
    const paged = await timeIt('calendar page 5', '/events/calendar?paged=5', runs);
    const filtered = await timeIt(
      'calendar filtered',
      `/events/calendar?tax_filter[event_category][]=${categories[3]}&date_start=${today.toISOString().slice(0, 10)}`,
      runs,
    );
    const search = await timeIt('calendar search', '/events/calendar?event_search=event%2042', runs);
    const past = await timeIt('calendar past', '/events/calendar?past=1', runs);
    const filters = await timeIt('filters', '/events/filters', runs);
    // Arguments never asked before (category × location pairs): each one a full pass over
    // the events, without the grouping cache.
    const fresh: number[] = [];
    for (let i = 0; i < Math.min(runs, categories.length * locations.length); i++) {
      const path = `/events/calendar?tax_filter[event_category][]=${categories[i % categories.length]}&tax_filter[event_location][]=${locations[Math.floor(i / categories.length) % locations.length]}`;
      const started = process.hrtime.bigint();
      await get(path);
      fresh.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    const uncached = round(percentile(fresh, 50));
    log(`calendar, arguments not seen before: p50 ${uncached} ms`);
    return {
      name: 'events',
      params: { adapter: 'embedded', events: total, venues: venues.length, per_page: 20, transport: 'http, anonymous', smoke: smoke() },
      metrics: {
        insert_events_per_s: Math.round(total / insertSeconds),
        first_request_ms: round(coldMs),
        calendar_p50_ms: first.p50,
        calendar_p95_ms: first.p95,
        calendar_new_arguments_p50_ms: uncached,
        calendar_page5_p50_ms: paged.p50,
        calendar_filtered_p50_ms: filtered.p50,
        calendar_search_p50_ms: search.p50,
        calendar_past_p50_ms: past.p50,
        filters_p50_ms: filters.p50,
      },
      targets: { calendar_p50_ms: { limit: LIMIT_MS, value: first.p50, pass: first.p50 < LIMIT_MS } },
    };
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
