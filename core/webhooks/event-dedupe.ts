import type { Clock } from '../kernel/clock.js';
import { DuplicateKeyError, type DocumentStore } from '../store/port.js';
import { WEBHOOK_EVENTS, type WebhookEventRecord } from './model.js';
import { apiError } from '../errors/catalogue.js';

/** A claim held by one request: settle it with the job it created, or release it on failure. */
export interface EventClaim {
  settle(jobId: number): Promise<void>;
  release(): Promise<void>;
}

export type ClaimOutcome = { claimed: true; claim: EventClaim } | { claimed: false; jobId: number };

/** A claim whose request has not created its job after this long is taken to be abandoned (crash). */
const ABANDONED_AFTER_MS = 30_000;
/** How long a repeat waits for the first request of its event id to finish. */
const WAIT_FOR_FIRST_MS = 2_000;
const POLL_MS = 25;

const inProgress = () => apiError('webhook_event_in_progress', { headers: { 'Retry-After': '1' } });

/**
 * Opt-in duplicate event-id protection. The unique insert of `{flow_id}:{event_id}` is the
 * claim, so of two hosts receiving the same event at once exactly one creates a job. The
 * claim records its job once created; a repeat inside the window answers that job. A
 * claim left without a job (the claimer crashed between claim and job) is taken over after
 * 30 s, so a provider's retry is never refused forever: at-least-once, never silently lost.
 */
export class EventDedupe {
  constructor(private readonly deps: { store: DocumentStore; clock: Clock }) {}

  private get events() {
    return this.deps.store.collection<WebhookEventRecord>(WEBHOOK_EVENTS);
  }

  async init(): Promise<void> {
    await this.events.createIndex({ fields: { key: 1 }, unique: true });
    await this.events.createIndex({ fields: { expires_at: 1 } });
  }

  async claim(flowId: number, eventId: string, windowSeconds: number): Promise<ClaimOutcome> {
    const key = `${flowId}:${eventId}`;
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const now = this.deps.clock.now();
      const fresh = { job_id: null, claimed_at: now, expires_at: new Date(now.getTime() + windowSeconds * 1000) };
      try {
        await this.events.insertOne({ key, flow_id: flowId, event_id: eventId, ...fresh });
        return { claimed: true, claim: this.claimOf(key, now) };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      const existing = await this.events.findOne({ key });
      if (!existing) continue; // purged or released between the two calls: claim again
      const expired = existing.expires_at.getTime() <= now.getTime();
      const abandoned = existing.job_id === null && now.getTime() - existing.claimed_at.getTime() > ABANDONED_AFTER_MS;
      if (expired || abandoned) {
        // Take over only the record as read: of two requests doing this, one wins.
        const taken = await this.events.updateOne({ key, claimed_at: existing.claimed_at }, { $set: fresh });
        if (taken.matchedCount === 1) return { claimed: true, claim: this.claimOf(key, now) };
        continue;
      }
      if (existing.job_id !== null) return { claimed: false, jobId: existing.job_id };
      if (Date.now() >= deadline) throw inProgress();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private claimOf(key: string, claimedAt: Date): EventClaim {
    return {
      settle: async (jobId) => void (await this.events.updateOne({ key, claimed_at: claimedAt }, { $set: { job_id: jobId } })),
      // Only a claim still without a job is ours to drop.
      release: async () => void (await this.events.deleteOne({ key, claimed_at: claimedAt, job_id: null })),
    };
  }

  /** Forgets event ids whose window has passed (hourly job). */
  async purgeExpired(): Promise<number> {
    return this.events.deleteMany({ expires_at: { $lte: this.deps.clock.now() } });
  }
}
