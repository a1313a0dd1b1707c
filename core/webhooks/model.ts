import type { HmacTemplate } from './hmac-template.js';

/** A secret as stored: the value sealed by the vault, bound to its flow. */
export interface StoredSecret {
  id: string;
  sealed: string;
  /** null: no expiry. Past this time the secret no longer verifies and is forgotten. */
  expires_at: Date | null;
  created_at: Date;
}

/**
 * A flow's webhook trigger, stored on the flow record as `webhook` (not inside
 * scheduling_config, so schedule views and edits never carry secrets).
 */
export interface WebhookConfig {
  enabled: boolean;
  /** 'bearer', 'hmac', or a mode a verifier plugin contributes. */
  mode: string;
  /** bearer: the token, sealed. */
  token_sealed: string | null;
  /** hmac: the full template (a preset is expanded into it when chosen). */
  template: HmacTemplate | null;
  preset: string | null;
  secrets: StoredSecret[];
  rate_limit: { max: number; window_seconds: number };
  /** 413 past this many bytes; 0 = unlimited. */
  max_body_bytes: number;
  /**
   * Duplicate protection window, in seconds: with it on, a repeat of an accepted event id
   * within this many seconds answers the original job and starts nothing; 0 = off for
   * event ids (the spec's behaviour). A delivery's Idempotency-Key is honoured whatever
   * this is, for this window, or DEFAULT_IDEMPOTENCY_WINDOW_SECONDS when it is 0.
   * Absent on records written before the option existed.
   */
  dedupe_window_seconds?: number;
  updated_at: Date;
}

/** What a delivery is recognised by: the provider's event id, or the sender's Idempotency-Key. */
export interface DeliveryKey {
  kind: 'event_id' | 'idempotency_key';
  value: string;
}

/** An accepted delivery key, kept for the flow's window (collection `webhook_events`). */
export interface WebhookEventRecord extends Record<string, unknown> {
  /** `{flow_id}:{event_id}` or `{flow_id}!{idempotency key}`, unique: the insert is the claim. */
  key: string;
  flow_id: number;
  /** The event id or the Idempotency-Key, as sent. */
  event_id: string;
  /** Absent on records written before Idempotency-Keys: an event id. */
  source?: DeliveryKey['kind'];
  /** Idempotency-Keys: the first delivery's body hash (a repeat with another body is refused). */
  fingerprint?: string;
  /** null while the claiming request is still creating its job. */
  job_id: number | null;
  claimed_at: Date;
  expires_at: Date;
}

export const WEBHOOK_EVENTS = 'webhook_events';

export const DEFAULT_RATE_LIMIT = { max: 60, window_seconds: 60 };
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_ROTATION_TTL_SECONDS = 7 * 24 * 3600;
