/**
 * The event log: every accepted event, keyed by the sender's event id. Claiming inserts
 * it (the unique `_id` is the dedupe across retries and hosts); the effect runs; the
 * event is then marked processed. Only the delivery whose insert succeeded (or that took
 * over a dead claim, below) applies the event: any other delivery meanwhile answers
 * `duplicate`, even while the first is still at work — a read of the status followed by
 * a write would let two concurrent deliveries both think they were first.
 *
 * A claim is a lease of CLAIM_LEASE_MS from `claimed_at`. A crash between claim and
 * processed leaves the event `received`; once the lease has run out, the sender's retry
 * or the resume job takes the claim over (one atomic conditional update, so only one of
 * them does) and runs the effect again — every effect is idempotent per event id. A
 * `failed` event (its effect threw) may be taken over at once.
 */
import type { Clock } from '../../sdk/index.js';
import type { EventDoc, EventSource } from './model.js';
import type { BillingCollections } from './repository.js';

export type Claim = 'new' | 'duplicate' | 'retry';

/** How long a claim is its holder's alone: after this, the request is taken for dead. */
export const CLAIM_LEASE_MS = 5 * 60_000;

export interface IncomingEvent {
  id: string;
  source: EventSource;
  type: string;
  created: number;
  subscription_id: string | null;
  payload: Record<string, unknown>;
}

export class EventLog {
  constructor(
    private readonly c: BillingCollections,
    private readonly clock: Clock,
    private readonly leaseMs = CLAIM_LEASE_MS,
  ) {}

  async claim(event: IncomingEvent): Promise<{ claim: Claim; doc: EventDoc }> {
    const now = this.clock.now().toISOString();
    const doc: EventDoc = {
      _id: event.id,
      source: event.source,
      type: event.type,
      created: event.created,
      subscription_id: event.subscription_id,
      status: 'received',
      outcome: null,
      error: null,
      payload: event.payload,
      received_at: now,
      claimed_at: now,
      processed_at: null,
      replays: 0,
    };
    try {
      return { claim: 'new', doc: await this.c.events.insertOne(doc) };
    } catch (error) {
      if ((error as Error).name !== 'DuplicateKeyError') throw error;
      const taken = await this.takeOver(event.id);
      if (taken) return { claim: 'retry', doc: taken };
      // Processed, or claimed by a delivery still within its lease: either way not ours.
      const existing = await this.c.events.findOne({ _id: event.id });
      if (!existing) throw error;
      return { claim: 'duplicate', doc: existing };
    }
  }

  /**
   * Claims an event whose previous claim is dead: failed, or `received` with its lease
   * run out (an event stored before leases has only `received_at`). Atomic: of two
   * callers at once, one gets the event, the other null.
   */
  takeOver(id: string): Promise<EventDoc | null> {
    const now = this.clock.now();
    return this.c.events.findOneAndUpdate(
      { _id: id, $or: this.deadClaim(now) },
      { $set: { status: 'received', error: null, claimed_at: now.toISOString() } },
    );
  }

  private deadClaim(now: Date) {
    const expired = new Date(now.getTime() - this.leaseMs).toISOString();
    return [
      { status: 'failed' },
      { status: 'received', claimed_at: { $lt: expired } },
      { status: 'received', claimed_at: { $exists: false }, received_at: { $lt: expired } },
    ];
  }

  get(id: string): Promise<EventDoc | null> {
    return this.c.events.findOne({ _id: id });
  }

  /** Forgets a claim whose event could not be handled yet (its subscription is unknown), so the sender's retry is processed. */
  async release(id: string): Promise<void> {
    await this.c.events.deleteOne({ _id: id, status: 'received' });
  }

  /**
   * Records the outcome of the claim's holder, once: should a holder slower than its lease
   * finish after the one that took its claim over, the first recorded outcome stays.
   * Replays never come here: they have their own records (replay-log.ts).
   */
  async processed(id: string, outcome: string): Promise<EventDoc | null> {
    return this.c.events.findOneAndUpdate(
      { _id: id, status: { $ne: 'processed' } },
      { $set: { status: 'processed', outcome, error: null, processed_at: this.clock.now().toISOString() } },
    );
  }

  async failed(id: string, reason: string): Promise<void> {
    await this.c.events.updateOne({ _id: id }, { $set: { status: 'failed', error: reason.slice(0, 500) } });
  }

  /** Events whose claim ran out before they were finished: their request died mid-way. */
  stranded(limit = 100): Promise<EventDoc[]> {
    const expired = new Date(this.clock.now().getTime() - this.leaseMs).toISOString();
    return this.c.events.find(
      {
        $or: [
          { status: 'received', claimed_at: { $lt: expired } },
          { status: 'received', claimed_at: { $exists: false }, received_at: { $lt: expired } },
        ],
      },
      { sort: { received_at: 1 }, limit },
    );
  }

  history(subscriptionId: string, limit = 200): Promise<EventDoc[]> {
    return this.c.events.find({ subscription_id: subscriptionId }, { sort: { received_at: 1 }, limit });
  }
}
