/** Reading loosely-typed packet fields (they come from feeds, AI steps and webhooks). */
import type { DataPacket } from '../../sdk/index.js';

export function stringField(record: Record<string, unknown> | undefined, ...keys: string[]): string {
  for (const key of keys) {
    const value = record?.[key];
    if (typeof value === 'string' && value.trim().length > 0) return value;
  }
  return '';
}

/** The post a packet is about: metadata first (set by cms-local / cms), then data. */
export function packetPostId(packet: DataPacket): number | null {
  for (const value of [packet.metadata?.post_id, packet.data?.post_id]) {
    const id = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  }
  return null;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Only web links are linked: a feed could hand us `javascript:` or worse. */
export function webUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
