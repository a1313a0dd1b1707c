import type { Clock } from '../kernel/clock.js';
import { DuplicateKeyError, type DocumentStore } from '../store/port.js';
import { WEBHOOK_EVENTS, type DeliveryKey, type WebhookEventRecord } from './model.js';
import { apiError } from '../errors/catalogue.js';

/** A claim held by one request: settle it with the job it created, or release it on failure. */
export interface EventClaim {
  settle(jobId: number): Promise<void>;
  release(): Promise<void>;
}

export type ClaimOutcome = { claimed: true; claim: EventClaim } | { claimed: false; jobId: number };

/**
 * The job a request stored under this key since `since`, if any: a claim left without its
 * job may belong to a request whose job was stored and whose process died before settling.
 */
export type StoredJobOf = (flowId: number, key: DeliveryKey, since: Date) => Promise<number | null>;

/** A claim whose request has not created its job after this long is taken to be abandoned (crash). */
const ABANDONED_AFTER_MS = 30_000;
/** How long a repeat waits for the first request of its key to finish. */
const WAIT_FOR_FIRST_MS = 2_000;
const POLL_MS = 25;

const inProgress = () => apiError('webhook_event_in_progress', { headers: { 'Retry-After': '1' } });
const reused = () => apiError('idempotency_key_reused');

/**
 * The record's key. Event ids keep the `{flow_id}:{event_id}` form they were stored under;
 * Idempotency-Keys are `{flow_id}!{key}`: the flow id is digits, so the character after it
 * tells the two apart and a sender's key can never stand for a provider's event id.
 */
const recordKey = (flowId: number, key: DeliveryKey) => `${flowId}${key.kind === 'event_id' ? ':' : '!'}${key.value}`;

/**
 * Duplicate delivery protection. The unique insert of the record key is the claim, so of
 * two hosts receiving the same delivery at once exactly one creates a job. The claim
 * records its job once created; a repeat inside the window answers that job. A claim
 * still without a job is checked against the jobs stored under its key (the claimer's
 * process may have died between storing the job and settling): that job is the answer.
 * One with no job either is taken over after 30 s, so a sender's retry is never refused
 * forever: at-least-once, never silently lost.
 */
export class EventDedupe {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock; storedJob?: StoredJobOf }) {}

  private get events() {
    return this.deps.store.collection<WebhookEventRecord>(WEBHOOK_EVENTS);
  }

  async init(): Promise<void> {
    await this.events.createIndex({ fields: { key: 1 }, unique: true });
    await this.events.createIndex({ fields: { expires_at: 1 } });
  }

  /**
   * Claims a delivery key for `windowSeconds`. `fingerprint` (Idempotency-Keys: the body's
   * hash) must match the first delivery's: a repeat with another body answers 422.
   */
  async claim(flowId: number, key: DeliveryKey, windowSeconds: number, fingerprint?: string): Promise<ClaimOutcome> {
    const id = recordKey(flowId, key);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const now = this.deps.clock.now();
      const fresh = {
        job_id: null,
        claimed_at: now,
        expires_at: new Date(now.getTime() + windowSeconds * 1000),
        ...(fingerprint ? { fingerprint } : {}),
      };
      try {
        await this.events.insertOne({ key: id, flow_id: flowId, event_id: key.value, source: key.kind, ...fresh });
        return { claimed: true, claim: this.claimOf(id, now) };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      const existing = await this.events.findOne({ key: id });
      if (!existing) continue; // purged or released between the two calls: claim again
      const expired = existing.expires_at.getTime() <= now.getTime();
      if (!expired && fingerprint && existing.fingerprint && existing.fingerprint !== fingerprint) throw reused();
      if (!expired && existing.job_id !== null) return { claimed: false, jobId: existing.job_id };
      const abandoned = existing.job_id === null && now.getTime() - existing.claimed_at.getTime() > ABANDONED_AFTER_MS;
      if (!expired && (abandoned || Date.now() >= deadline)) {
        const stored = await this.deps.storedJob?.(flowId, key, existing.claimed_at);
        if (stored != null) {
          await this.claimOf(id, existing.claimed_at).settle(stored);
          return { claimed: false, jobId: stored };
        }
      }
      if (expired || abandoned) {
        // Take over only the record as read: of two requests doing this, one wins.
        const taken = await this.events.updateOne({ key: id, claimed_at: existing.claimed_at }, { $set: fresh });
        if (taken.matchedCount === 1) return { claimed: true, claim: this.claimOf(id, now) };
        continue;
      }
      if (Date.now() >= deadline) throw inProgress();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private claimOf(key: string, claimedAt: Date): EventClaim {
    return {
      settle: async (jobId) =>
        void (await this.events.updateOne({ key, claimed_at: claimedAt, job_id: null }, { $set: { job_id: jobId } })),
      // Only a claim still without a job is ours to drop.
      release: async () => void (await this.events.deleteOne({ key, claimed_at: claimedAt, job_id: null })),
    };
  }

  /** Forgets keys whose window has passed (hourly job). */
  async purgeExpired(): Promise<number> {
    return this.events.deleteMany({ expires_at: { $lte: this.deps.clock.now() } });
  }
}
