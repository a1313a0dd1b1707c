/** A webhook delivery's payload as items: the array at `items_path`, each mapped to an item's fields. */
import { createHash } from 'node:crypto';
import { stableJson, type DataPacket } from '../../sdk/index.js';
import { ItemPathError, parsePath, pathText, readPath } from './item-path.js';

export interface WebhookItemsSettings {
  /** Where the items are in the payload ('' = the payload is one item). */
  items_path?: string;
  id_field?: string;
  title_field?: string;
  content_field?: string;
  link_field?: string;
  author_field?: string;
  date_field?: string;
  /** A delivery without `items_path` yields no items instead of failing the step. */
  skip_missing?: boolean;
  /** Enforced by the engine when it claims items; the handler returns every item. */
  max_items?: number;
}

/** The mapping's defaults: the names most JSON senders use. */
export const FIELD_DEFAULTS = {
  id_field: 'id',
  title_field: 'title',
  content_field: 'content',
  link_field: 'url',
  author_field: 'author',
  date_field: '',
} as const;

type FieldSetting = keyof typeof FIELD_DEFAULTS;

/** What the trigger stored of the delivery (`initial_data.webhook_trigger`), as far as items need it. */
export interface Delivery {
  payload: unknown;
  request_id: string | null;
  received_at: string | null;
}

/** The delivery a run was started with, or null for a run no webhook started (and no initial_data gave one). */
export function deliveryOf(engineData: Readonly<Record<string, unknown>>): Delivery | null {
  const trigger = engineData.webhook_trigger;
  if (!trigger || typeof trigger !== 'object' || !('payload' in trigger)) return null;
  const { payload, request_id, received_at } = trigger as Record<string, unknown>;
  return {
    payload,
    request_id: typeof request_id === 'string' ? request_id : null,
    received_at: typeof received_at === 'string' ? received_at : null,
  };
}

/** The array (or the one object) the items are, found at `items_path`. */
function itemsAt(payload: unknown, settings: WebhookItemsSettings): unknown[] | null {
  const path = settings.items_path ?? '';
  const steps = parsePath('items_path', path);
  const read = readPath(payload, steps, true);
  if (!read.found) {
    if (settings.skip_missing) return null;
    throw new ItemPathError(
      `items_path '${path}' does not lead to the items: ${pathText(steps, read.at)} is ${read.why} (set skip_missing to take such deliveries as having no items)`,
    );
  }
  const { value } = read;
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return [value];
  if (value === null && settings.skip_missing) return null;
  throw new ItemPathError(
    `items_path '${path}' does not lead to the items: ${pathText(steps)} is ${value === null ? 'null' : `a ${typeof value}`}, not an array or an object`,
  );
}

/** A field's text: a string, or a number or boolean written out; anything else is no text. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function fieldReader(settings: WebhookItemsSettings) {
  const paths = Object.fromEntries(
    (Object.keys(FIELD_DEFAULTS) as FieldSetting[]).map((name) => {
      const path = settings[name] ?? FIELD_DEFAULTS[name];
      return [name, path ? parsePath(name, path) : null];
    }),
  ) as Record<FieldSetting, ReturnType<typeof parsePath> | null>;
  return (item: unknown, name: FieldSetting): string => {
    const steps = paths[name];
    if (!steps) return '';
    const read = readPath(item, steps);
    return read.found ? textOf(read.value) : '';
  };
}

/**
 * The item's identity, which the engine claims per flow step: the mapped id, else a hash of
 * the item itself, so the same delivery sent again yields no new item.
 */
function identityOf(item: unknown, id: string): string {
  if (id) return id.slice(0, 500);
  return `sha256:${createHash('sha256').update(stableJson(item)).digest('hex')}`;
}

function isEmpty(item: unknown): boolean {
  if (item === null || item === undefined || item === '') return true;
  return typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 0;
}

/** One packet per item of the delivery; none when `skip_missing` and the items are not there. */
export function deliveryPackets(delivery: Delivery, settings: WebhookItemsSettings): DataPacket[] {
  const items = itemsAt(delivery.payload, settings);
  if (!items) return [];
  const field = fieldReader(settings);
  const packets: DataPacket[] = [];
  for (const item of items) {
    if (isEmpty(item)) continue;
    // A string or number in the array is the item's text.
    const scalar = typeof item !== 'object' ? textOf(item) : null;
    const link = scalar === null ? field(item, 'link_field') : '';
    const itemId = identityOf(item, scalar === null ? field(item, 'id_field') : '');
    const author = scalar === null ? field(item, 'author_field') : '';
    const date = scalar === null ? field(item, 'date_field') : '';
    packets.push({
      type: 'webhook_item',
      data: {
        title: scalar === null ? field(item, 'title_field') : '',
        content: scalar ?? field(item, 'content_field'),
        link,
        guid: itemId,
        ...(author ? { author } : {}),
        ...(date ? { published_at: date } : {}),
        // The whole item, for a later step (an AI prompt) that needs more than the mapped fields.
        item,
      },
      metadata: {
        item_id: itemId,
        source_url: link || null,
        webhook_request_id: delivery.request_id,
        received_at: delivery.received_at,
      },
    });
  }
  return packets;
}
