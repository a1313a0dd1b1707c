/**
 * A waiting job's review as the job views show it (GET /jobs?status=waiting, GET /jobs/{id}):
 * the step it waits at, the timeout, and each item as it will go on (its packet, i.e. the
 * previous step's output such as the AI's, secrets masked) with its decision.
 */
import type { JsonSchema } from '../kernel/json-schema.js';
import { anyObject, int, isoDate, list, named, nullable, obj, str } from '../kernel/response-schemas.js';
import type { JobReview } from './model.js';

export function firstPacket(json: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(json) as unknown;
    const first = Array.isArray(parsed) ? (parsed[0] as unknown) : null;
    return first && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function reviewView(review: JobReview): Record<string, unknown> {
  return {
    flow_step_id: review.flow_step_id,
    position: review.position,
    mode: review.mode,
    since: review.since.toISOString(),
    timeout_at: review.timeout_at ? review.timeout_at.toISOString() : null,
    on_timeout: review.on_timeout,
    link_expires_at: review.link_expires_at.toISOString(),
    // A wait that ended (cancelled, its step removed) has nothing pending, though items may be undecided.
    pending: review.ended_at ? 0 : review.items.filter((i) => i.decision === null).length,
    ended_at: review.ended_at ? review.ended_at.toISOString() : null,
    ended_by: review.ended_by ?? null,
    items: review.items.map((item) => ({
      item_id: item.item_id,
      title: item.title,
      // null when the packet was larger than a review item keeps (32 KiB of JSON).
      packet: firstPacket(item.packet.json),
      decision: item.decision,
      decided_at: item.decided_at ? item.decided_at.toISOString() : null,
      decided_by: item.decided_by,
    })),
  };
}

export const reviewSchema: JsonSchema = named(
  'JobReview',
  obj({
    flow_step_id: str,
    position: int,
    mode: { enum: ['review', 'webhook'] },
    since: isoDate,
    timeout_at: nullable(isoDate),
    on_timeout: { enum: ['approve', 'reject'] },
    link_expires_at: isoDate,
    pending: int,
    ended_at: nullable(isoDate),
    ended_by: nullable({ enum: ['decided', 'timeout', 'webhook', 'removed', 'cancelled'] }),
    items: list(
      obj({
        item_id: str,
        title: nullable(str),
        packet: nullable(anyObject),
        decision: nullable({ enum: ['approved', 'rejected'] }),
        decided_at: nullable(isoDate),
        decided_by: nullable(str),
      }),
    ),
  }),
);
