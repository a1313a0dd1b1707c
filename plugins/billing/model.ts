/**
 * The billing plugin's stored shapes. Subscriptions are keyed by the payment provider's
 * subscription id (`sub_...`), so every payment event finds its subscription without a
 * lookup table, and the provisioner refers to the same id.
 */

/** Where a subscription is in its life (the state diagram is in docs/billing.md). */
export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'payment_failed', 'canceled', 'deleted'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface SubscriptionDoc extends Record<string, unknown> {
  _id: string;
  customer_id: string | null;
  email: string | null;
  plan: string | null;
  status: SubscriptionStatus;
  /** Set by provisioning_complete. */
  provisioned: boolean;
  site_id: string | null;
  site_url: string | null;
  provisioned_at: string | null;
  /** End of the paid period (the next renewal), from the last paid invoice. */
  renews_at: string | null;
  canceled_at: string | null;
  /** When the scheduled deletion runs (canceled + grace period). */
  deletion_due_at: string | null;
  deleted_at: string | null;
  /**
   * The provider's `created` (Unix seconds) of the last payment event that changed the
   * status: an older event arriving late must not regress the state.
   */
  last_event_created: number;
  /** The event that canceled / provisioned it: a retry of that event still sends its e-mail. */
  canceled_by_event?: string;
  provisioned_by_event?: string;
  created_at: string;
  updated_at: string;
}

export type EventSource = 'payments' | 'provisioner';
/** received: claimed, effect not yet recorded (a crash here is retried by the sender or a replay). */
export type EventStatus = 'received' | 'processed' | 'failed';

export interface EventDoc extends Record<string, unknown> {
  /** The sender's event id: the unique key that deduplicates retries. */
  _id: string;
  source: EventSource;
  type: string;
  /** The sender's creation time, Unix seconds. */
  created: number;
  subscription_id: string | null;
  status: EventStatus;
  /** What processing did: 'activated', 'ignored_stale', 'credits_added'... */
  outcome: string | null;
  error: string | null;
  /** The verified event as received (for replay). */
  payload: Record<string, unknown>;
  received_at: string;
  /** When the delivery now applying it claimed it: its lease runs from here (events.ts). */
  claimed_at?: string;
  processed_at: string | null;
  replays: number;
}

export type ReplayStatus = 'running' | 'processed' | 'failed';

/**
 * One replay of a stored event (support's `POST /events/{id}/replay`): an attempt of its
 * own, so the original keeps the outcome its delivery recorded. A replay runs against the
 * state as it is now (a stale check may say `ignored_stale` where the delivery activated).
 */
export interface ReplayDoc extends Record<string, unknown> {
  /** `<event id>:replay:<attempt>`. */
  _id: string;
  /** The event replayed. */
  replay_of: string;
  type: string;
  /** 1 for the event's first replay, then 2, ...: its `replays` count when this one began. */
  attempt: number;
  status: ReplayStatus;
  outcome: string | null;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

/** One credit purchase; a customer's balance is the sum of theirs (insert-only, so a retry cannot add twice). */
export interface CreditEntryDoc extends Record<string, unknown> {
  _id: string; // the event id
  customer_id: string;
  credits: number;
  session_id: string;
  created_at: string;
}

export interface DomainDoc extends Record<string, unknown> {
  _id: string; // the domain name, lower-case
  customer_id: string | null;
  expires_at: string;
  /** The event that last extended it: a replay of that event extends nothing. */
  last_event_id: string;
  renewals: number;
  updated_at: string;
}

export type MailStatus = 'pending' | 'sent';

export interface MailDoc extends Record<string, unknown> {
  /** `<event id>:<template>`: one e-mail per event and template, however often it is processed. */
  _id: string;
  template: string;
  to: string;
  subject: string;
  text: string;
  subscription_id: string | null;
  status: MailStatus;
  attempts: number;
  /** Clock milliseconds; the delivery job picks pending mail due by then. */
  next_attempt_at: number;
  /** Clock milliseconds until which one worker owns this mail (other hosts skip it). */
  lease_until: number;
  last_error: string | null;
  message_id: string | null;
  created_at: string;
  sent_at: string | null;
}
