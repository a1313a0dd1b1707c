/**
 * Revisions of flows and pipelines (issue 55): every change records who made it, when,
 * from which client and the configuration as it became, secrets masked. One collection per
 * kind (`flow_revisions`, `pipeline_revisions`), numbered from 1 per flow or pipeline.
 */
import type { Principal } from '../kernel/principal.js';

/** What a change did. `restore` names the revision it went back to in `restored_from`. */
export type RevisionAction = 'create' | 'update' | 'delete' | 'duplicate' | 'import' | 'restore' | 'recovered';

/**
 * Who is about to change a flow or pipeline: stored on the record itself with the change
 * (one atomic write), so a crash before the revision is written leaves the mark, and the
 * next boot writes the revision from it (see RevisionLog.repair). The number is the
 * record's own `revision`, counted up in that same write ($inc: two concurrent changes
 * never take the same number).
 */
export interface PendingRevision extends Record<string, unknown> {
  action: RevisionAction;
  user_id: number | null;
  user_login: string | null;
  client: string;
  at: Date;
  /** What the change touched, in words of the change log (`flow.step.config`, ...). */
  change: string;
  restored_from?: number;
}

export interface RevisionRecord extends Record<string, unknown> {
  _id: string;
  /** The flow's or pipeline's id. */
  entity_id: number;
  revision: number;
  action: RevisionAction;
  change: string;
  user_id: number | null;
  user_login: string | null;
  client: string;
  created_at: Date;
  restored_from?: number;
  /** The configuration after the change (before it, for a delete), secrets masked. */
  snapshot: Record<string, unknown>;
  /**
   * Each secret's keyed fingerprint by its JSON pointer in the snapshot (never the secret;
   * never answered): how a diff tells that a masked value changed. Absent on older revisions.
   */
  secret_fingerprints?: Record<string, string>;
}

/**
 * The client a change came from: what the principal says (the CLI's local identity says
 * `cli`, the chat assistant's tools `chat`), else a cookie session is the console and any
 * other credential the REST API; nobody (a boot repair, a cascade) is `system`.
 */
export function clientOf(by: Principal | null | undefined): string {
  if (!by) return 'system';
  if (by.client) return by.client;
  return by.via === 'cookie' ? 'console' : 'rest';
}

/** The mark of a change about to be written. */
export function pendingRevision(
  action: RevisionAction,
  change: string,
  by: Principal | null | undefined,
  at: Date,
  restoredFrom?: number,
): PendingRevision {
  return {
    action,
    change,
    user_id: by?.userId ?? null,
    user_login: by?.login ?? null,
    client: clientOf(by),
    at,
    ...(restoredFrom !== undefined ? { restored_from: restoredFrom } : {}),
  };
}
