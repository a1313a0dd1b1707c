/**
 * The `event` publish handler: one event per packet, so flows import events
 * (rss/ical fetch → ai → event). A packet's `data` may carry title, content/description,
 * start_date/end_date (site wall time `YYYY-MM-DD HH:MM[:SS]`, or ISO 8601 with an offset,
 * turned into site time), venue (a name) with venue_address/venue_city, ticket_url, price,
 * and categories/locations/artists (names, a list or comma text). A packet seen before
 * (same metadata.item_id) updates its event instead of adding another.
 */
import { htmlToPlainText, type ContentStore, type DataPacket, type JsonSchema, type PostStatus } from '../../sdk/index.js';
import { venueRow } from './event-index.js';
import { parseLocal, wallTime } from './local-time.js';
import { EVENT_TYPE, VENUE_TYPE } from './model.js';
import { normalize } from './venue-match.js';

export interface EventPublishSettings {
  post_status: PostStatus;
  default_duration_minutes: number;
}

export const eventPublishSchema: JsonSchema = {
  type: 'object',
  properties: {
    post_status: { type: 'string', enum: ['publish', 'draft', 'pending', 'private'], default: 'publish' },
    default_duration_minutes: { type: 'integer', minimum: 0, maximum: 10080, default: 120 },
  },
};

const field = (data: Record<string, unknown>, ...names: string[]): string => {
  for (const name of names) {
    const value = data[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return '';
};

/** Site wall time from a wall time or an ISO instant with an offset. */
export function siteTime(value: string, zone: string): string | null {
  const local = parseLocal(value);
  if (local && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(value.trim())) return local;
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? null : wallTime(instant, zone);
}

const names = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return [
    ...new Set(
      list
        .filter((v): v is string => typeof v === 'string')
        .map((v) => htmlToPlainText(v).slice(0, 200))
        .filter(Boolean),
    ),
  ].slice(0, 20);
};

function addMinutes(local: string, minutes: number): string {
  const date = new Date(`${local.replace(' ', 'T')}Z`);
  return new Date(date.getTime() + minutes * 60_000).toISOString().replace('T', ' ').slice(0, 19);
}

async function venueFor(content: ContentStore, name: string, address: string, city: string): Promise<number> {
  const wanted = normalize(name);
  for (let offset = 0; ; offset += 100) {
    const { items } = await content.findPosts({
      post_type: VENUE_TYPE,
      status: 'publish',
      orderby: 'post_id',
      order: 'asc',
      per_page: 100,
      offset,
    });
    const same = items.find((post) => normalize(venueRow(post).name) === wanted);
    if (same) return same.post_id;
    if (items.length < 100) break;
  }
  const venue = await content.createPost({
    post_type: VENUE_TYPE,
    status: 'publish',
    title: name,
    meta: { ...(address ? { address } : {}), ...(city ? { city } : {}) },
  });
  return venue.post_id;
}

export async function publishEvents(
  content: ContentStore,
  zone: string,
  settings: EventPublishSettings,
  packets: DataPacket[],
  /** The event's address as wp/v2 links it; a run lists it with what it published. */
  linkOf?: (postId: number) => string,
): Promise<DataPacket[]> {
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const data = (packet.data ?? {}) as Record<string, unknown>;
    const start = siteTime(field(data, 'start_date', 'start', 'dtstart', 'date'), zone);
    if (!start) {
      out.push({
        type: 'event_skipped',
        data: { reason: 'no start_date', title: field(data, 'title') },
        metadata: { item_id: packet.metadata?.item_id ?? null },
      });
      continue;
    }
    const endGiven = siteTime(field(data, 'end_date', 'end', 'dtend'), zone);
    const end = endGiven && endGiven >= start ? endGiven : addMinutes(start, settings.default_duration_minutes ?? 120);
    const terms: Record<string, number[]> = {};
    for (const [taxonomy, key] of [
      ['event_category', 'categories'],
      ['event_location', 'locations'],
      ['event_artist', 'artists'],
    ] as const) {
      const ids: number[] = [];
      for (const name of names(data[key])) ids.push((await content.ensureTerm(taxonomy, name)).term_id);
      if (ids.length) terms[taxonomy] = ids;
    }
    const venueName = htmlToPlainText(field(data, 'venue', 'location_name'));
    const venueId = venueName
      ? await venueFor(content, venueName.slice(0, 200), field(data, 'venue_address', 'address'), field(data, 'venue_city', 'city'))
      : null;
    const ticket = field(data, 'ticket_url', 'url', 'link');
    const itemId = packet.metadata?.item_id;
    const meta: Record<string, unknown> = {
      start_date: start,
      end_date: end,
      ...(venueId ? { venue_id: venueId } : {}),
      ...(/^https?:\/\//i.test(ticket) ? { ticket_url: ticket } : {}),
      ...(field(data, 'price') ? { price: field(data, 'price').slice(0, 100) } : {}),
      ...(typeof itemId === 'string' || typeof itemId === 'number' ? { source_item_id: String(itemId) } : {}),
    };
    const fields = {
      title: field(data, 'title', 'name', 'summary') || `Event ${start}`,
      content: field(data, 'content', 'description'),
      status: settings.post_status ?? 'publish',
      meta,
      terms,
    };
    const existing = meta.source_item_id
      ? (
          await content.findPosts({
            post_type: EVENT_TYPE,
            status: ['publish', 'draft', 'pending', 'private'],
            meta: { source_item_id: meta.source_item_id as string },
            per_page: 1,
          })
        ).items[0]
      : undefined;
    const post = existing
      ? await content.updatePost(existing.post_id, fields)
      : await content.createPost({ post_type: EVENT_TYPE, ...fields });
    out.push({
      type: 'event',
      data: { post_id: post.post_id, title: post.title, start_date: start, end_date: end, venue_id: venueId, updated: !!existing },
      metadata: {
        post_id: post.post_id,
        source_item_id: itemId ?? null,
        published_id: String(post.post_id),
        ...(linkOf ? { published_url: linkOf(post.post_id) } : {}),
      },
    });
  }
  return out;
}
