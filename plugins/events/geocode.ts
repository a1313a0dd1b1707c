/**
 * Address lookup through a geocoding service of the Nominatim shape
 * (GET {base}/search?q=…&format=jsonv2). Nominatim's usage policy asks for an identifying
 * User-Agent and at most one request per second per application, so:
 * - every request sends the configured User-Agent (and `email` when set);
 * - the pace is kept across hosts by a slot in the store: each caller atomically takes the
 *   next free second (compare-and-set on `next_at`) and waits for it; a caller that would
 *   wait longer than `max_wait_ms` is told 429 with Retry-After instead of queueing forever;
 * - answers are cached in the store (keyed by the normalized query), so a second lookup of
 *   the same address costs nothing and spends no quota.
 * The pace is measured in real time (Date.now), not the host clock: it is a promise to a
 * real remote service, and waiting on a test's frozen clock would never end.
 */
import { createHash } from 'node:crypto';
import type { Clock, Collection, GuardedFetch, Logger } from '../../sdk/index.js';
import { eventsError } from './errors.js';

export interface GeocodeSettings {
  geocode_base_url: string;
  geocode_user_agent: string;
  geocode_email: string;
  geocode_min_interval_ms: number;
  geocode_max_wait_ms: number;
  geocode_cache_days: number;
  geocode_timeout_ms: number;
}

export interface Candidate {
  display_name: string;
  latitude: number;
  longitude: number;
  type: string;
  osm_type: string;
  osm_id: number | null;
  address: { house_number: string; road: string; city: string; region: string; postal_code: string; country: string; country_code: string };
}

type SlotDoc = { _id: string; next_at: number; last_start?: number } & Record<string, unknown>;
type CacheDoc = { _id: string; query: string; candidates: Candidate[]; expires_at: Date } & Record<string, unknown>;

const SLOT = 'nominatim';
const unavailable = (message: string, data: Record<string, unknown> = {}) => eventsError('geocode_unavailable', { message, data });
const str = (value: unknown) => (typeof value === 'string' ? value : '');

function candidateOf(item: unknown): Candidate | null {
  if (!item || typeof item !== 'object') return null;
  const r = item as Record<string, unknown>;
  const latitude = Number(r.lat);
  const longitude = Number(r.lon);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  const a = (r.address && typeof r.address === 'object' ? r.address : {}) as Record<string, unknown>;
  return {
    display_name: str(r.display_name).slice(0, 500),
    latitude,
    longitude,
    type: str(r.type).slice(0, 64),
    osm_type: str(r.osm_type).slice(0, 16),
    osm_id: Number.isSafeInteger(r.osm_id) ? (r.osm_id as number) : null,
    address: {
      house_number: str(a.house_number),
      road: str(a.road),
      city: str(a.city) || str(a.town) || str(a.village) || str(a.hamlet),
      region: str(a.state) || str(a.county),
      postal_code: str(a.postcode),
      country: str(a.country),
      country_code: str(a.country_code),
    },
  };
}

export class Geocoder {
  constructor(
    private readonly slots: Collection<SlotDoc>,
    private readonly cache: Collection<CacheDoc>,
    private readonly fetch: GuardedFetch,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly settings: GeocodeSettings & { userAgent: string },
  ) {}

  async search(input: { address: string; limit: number; countrycodes?: string }): Promise<{ candidates: Candidate[]; cached: boolean }> {
    // Nominatim's `countrycodes` is lower-case ISO 3166-1 alpha-2; lowering here also makes "DE" and "de" one cache entry.
    const countrycodes = input.countrycodes?.toLowerCase();
    const query = input.address.replace(/\s+/g, ' ').trim();
    const key = createHash('sha256')
      .update(JSON.stringify([query.toLowerCase(), input.limit, countrycodes ?? '']))
      .digest('hex');
    const hit = await this.cache.findOne({ _id: key });
    if (hit && new Date(hit.expires_at).getTime() > this.clock.now().getTime()) return { candidates: hit.candidates, cached: true };

    await this.waitForSlot();
    const url = new URL(`${this.settings.geocode_base_url.replace(/\/+$/, '')}/search`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('addressdetails', '1');
    url.searchParams.set('limit', String(input.limit));
    if (countrycodes) url.searchParams.set('countrycodes', countrycodes);
    if (this.settings.geocode_email) url.searchParams.set('email', this.settings.geocode_email);
    await this.afterLastStart(this.settings.geocode_min_interval_ms);
    let res;
    try {
      // Nothing is awaited between the floor's check and the request leaving, and the start
      // recorded is the request's own: the next request's floor is exact.
      const startedAt = Date.now();
      [res] = await Promise.all([
        this.fetch(url.toString(), {
          headers: { 'User-Agent': this.settings.userAgent, Accept: 'application/json' },
          timeoutMs: this.settings.geocode_timeout_ms,
          maxBytes: 1024 * 1024,
        }),
        this.slots.updateOne({ _id: SLOT }, { $set: { last_start: startedAt } }).catch(() => undefined),
      ]);
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'geocoding service unreachable');
      throw unavailable('The geocoding service could not be reached.');
    } finally {
      // The slot paced the start; a request that left late (a slow connect, a first-use
      // module load) must not bring the next one closer than the interval: the next slot
      // is at least a whole interval after this one ended.
      await this.pushSlot(Date.now() + this.settings.geocode_min_interval_ms).catch(() => undefined);
    }
    if (!res.ok) throw unavailable(`The geocoding service answered ${res.status}.`, { upstream_status: res.status });
    let body: unknown;
    try {
      body = res.json();
    } catch {
      throw unavailable('The geocoding service answered something other than JSON.');
    }
    if (!Array.isArray(body)) throw unavailable('The geocoding service answered an unexpected shape.');
    const candidates = body
      .map(candidateOf)
      .filter((c): c is Candidate => c !== null)
      .slice(0, input.limit);
    const expires = new Date(this.clock.now().getTime() + this.settings.geocode_cache_days * 86_400_000);
    await this.cache.updateOne({ _id: key }, { $set: { query: query.slice(0, 300), candidates, expires_at: expires } }, { upsert: true });
    return { candidates, cached: false };
  }

  /** Moves the next free slot to `at` unless it is later already (compare-and-set). */
  private async pushSlot(at: number): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const slot = await this.slots.findOne({ _id: SLOT });
      if (!slot || slot.next_at >= at) return;
      if ((await this.slots.updateOne({ _id: SLOT, next_at: slot.next_at }, { $set: { next_at: at } })).matchedCount === 1) return;
    }
  }

  /**
   * A slot taken over a slow store round trip starts late, which brings it closer than the
   * interval to the slot after it (already taken by another request, perhaps on another host).
   * The last real start, kept beside the slot, is the floor for this one.
   */
  private async afterLastStart(interval: number): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const last = (await this.slots.findOne({ _id: SLOT }))?.last_start ?? 0;
      if (last + interval <= Date.now()) return;
      await sleepUntil(last + interval);
    }
  }

  /** Takes the next free slot in the store and sleeps until it comes. */
  private async waitForSlot(): Promise<void> {
    const interval = this.settings.geocode_min_interval_ms;
    for (let attempt = 0; attempt < 50; attempt++) {
      const now = Date.now();
      const slot = await this.slots.findOne({ _id: SLOT });
      if (!slot) {
        try {
          await this.slots.insertOne({ _id: SLOT, next_at: now + interval });
          return;
        } catch (error) {
          if ((error as { code?: string }).code === 'duplicate_key') continue;
          throw error;
        }
      }
      const at = Math.max(now, slot.next_at);
      if (at - now > this.settings.geocode_max_wait_ms) {
        const seconds = Math.ceil((at - now) / 1000);
        throw eventsError('geocode_rate_limited', {
          message: `Geocoding is limited to one request per ${interval / 1000} s; try again in ${seconds} s.`,
          data: { retry_after: seconds },
          headers: { 'Retry-After': String(seconds) },
        });
      }
      const taken = await this.slots.updateOne({ _id: SLOT, next_at: slot.next_at }, { $set: { next_at: at + interval } });
      if (taken.matchedCount === 1) {
        await sleepUntil(at);
        return;
      }
    }
    throw eventsError('geocode_rate_limited', { data: { retry_after: 1 }, headers: { 'Retry-After': '1' } });
  }
}

function sleepUntil(at: number): Promise<void> {
  const wait = at - Date.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
}
