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
   * Opt-in duplicate event-id protection: a repeat of an accepted event id within this many
   * seconds answers the original job and starts nothing. 0 = off (the spec's behaviour).
   * Absent on records written before the option existed.
   */
  dedupe_window_seconds?: number;
  updated_at: Date;
}

/** An accepted event id, kept for the flow's dedupe window (collection `webhook_events`). */
export interface WebhookEventRecord extends Record<string, unknown> {
  /** `{flow_id}:{event_id}`, unique: the insert is the claim. */
  key: string;
  flow_id: number;
  event_id: string;
  /** null while the claiming request is still creating its job. */
  job_id: number | null;
  claimed_at: Date;
  expires_at: Date;
}

export const WEBHOOK_EVENTS = 'webhook_events';

export const DEFAULT_RATE_LIMIT = { max: 60, window_seconds: 60 };
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_ROTATION_TTL_SECONDS = 7 * 24 * 3600;
