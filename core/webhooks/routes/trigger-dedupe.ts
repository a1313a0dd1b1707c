/** Which duplicate protection a verified delivery gets, and the answer to a repeat. */
import type { FlowRecord } from '../../flows/model.js';
import type { ClaimOutcome, EventDedupe } from '../event-dedupe.js';
import { DEFAULT_IDEMPOTENCY_WINDOW_SECONDS, bodyFingerprint, readIdempotencyKey } from '../idempotency-key.js';
import type { DeliveryKey, WebhookConfig } from '../model.js';

export interface DeliveryIdentity {
  /** The key the delivery is claimed under, with its window; null: nothing to claim. */
  claimed: { key: DeliveryKey; windowSeconds: number } | null;
  /** The sender's Idempotency-Key, kept on the job (null when it sent none). */
  idempotencyKey: string | null;
}

/**
 * Read only once the request is authenticated, so a stranger can neither claim a key
 * (and block the real delivery) nor learn from a 400 how far the request got. An event id
 * wins when the flow turned event-id protection on (the provider's redelivery keeps it);
 * else the Idempotency-Key, for the flow's window or a day when it set none.
 */
export function deliveryIdentity(
  config: WebhookConfig,
  eventId: string | null,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): DeliveryIdentity {
  const idempotencyKey = readIdempotencyKey(headers);
  const window = config.dedupe_window_seconds ?? 0;
  if (window > 0 && eventId !== null)
    return { claimed: { key: { kind: 'event_id', value: eventId }, windowSeconds: window }, idempotencyKey };
  if (idempotencyKey !== null)
    return {
      claimed: {
        key: { kind: 'idempotency_key', value: idempotencyKey },
        windowSeconds: window > 0 ? window : DEFAULT_IDEMPOTENCY_WINDOW_SECONDS,
      },
      idempotencyKey,
    };
  return { claimed: null, idempotencyKey };
}

/** Claims the delivery's key (an Idempotency-Key with the body's fingerprint). */
export function claimDelivery(
  dedupe: EventDedupe,
  flowId: number,
  claimed: NonNullable<DeliveryIdentity['claimed']>,
  rawBody: Buffer,
): Promise<ClaimOutcome> {
  const fingerprint = claimed.key.kind === 'idempotency_key' ? bodyFingerprint(rawBody) : undefined;
  return dedupe.claim(flowId, claimed.key, claimed.windowSeconds, fingerprint);
}

/** A repeat's answer: the first delivery's job, the same shape as an accepted one, plus `duplicate`. */
export function duplicateAnswer(flow: FlowRecord, key: DeliveryKey, jobId: number): Record<string, unknown> {
  const what = key.kind === 'event_id' ? `Event ${key.value}` : `Idempotency-Key ${key.value}`;
  return {
    success: true,
    flow_id: flow.flow_id,
    flow_name: flow.flow_name,
    job_id: jobId,
    message: `${what} was already accepted; flow "${flow.flow_name}" not triggered again.`,
    duplicate: true,
  };
}
