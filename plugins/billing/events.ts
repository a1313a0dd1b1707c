/**
 * The event log: every accepted event, keyed by the sender's event id. Claiming inserts
 * it (the unique `_id` is the dedupe across retries and hosts); the effect runs; the
 * event is then marked processed. A crash between leaves it `received`, and the sender's
 * retry (or a replay) runs the effect again — every effect is idempotent per event id.
 */
import type { Clock } from '../../sdk/index.js';
import type { EventDoc, EventSource } from './model.js';
import type { BillingCollections } from './repository.js';

export type Claim = 'new' | 'duplicate' | 'retry';

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
  ) {}

  async claim(event: IncomingEvent): Promise<{ claim: Claim; doc: EventDoc }> {
    const doc: EventDoc = {
      _id: event.id, source: event.source, type: event.type, created: event.created, subscription_id: event.subscription_id,
      status: 'received', outcome: null, error: null, payload: event.payload, received_at: this.clock.now().toISOString(), processed_at: null, replays: 0,
    };
    try {
      return { claim: 'new', doc: await this.c.events.insertOne(doc) };
    } catch (error) {
      if ((error as Error).name !== 'DuplicateKeyError') throw error;
      const existing = await this.c.events.findOne({ _id: event.id });
      if (!existing) throw error;
      return { claim: existing.status === 'processed' ? 'duplicate' : 'retry', doc: existing };
    }
  }

  get(id: string): Promise<EventDoc | null> {
    return this.c.events.findOne({ _id: id });
  }

  /** Forgets a claim whose event could not be handled yet (its subscription is unknown), so the sender's retry is processed. */
  async release(id: string): Promise<void> {
    await this.c.events.deleteOne({ _id: id, status: 'received' });
  }

  async processed(id: string, outcome: string, replay = false): Promise<EventDoc | null> {
    const update = { $set: { status: 'processed', outcome, error: null, processed_at: this.clock.now().toISOString() }, ...(replay ? { $inc: { replays: 1 } } : {}) };
    return this.c.events.findOneAndUpdate({ _id: id }, update);
  }

  async failed(id: string, reason: string): Promise<void> {
    await this.c.events.updateOne({ _id: id }, { $set: { status: 'failed', error: reason.slice(0, 500) } });
  }

  /** Events claimed before `before` (ISO) and never finished: their request died mid-way. */
  stranded(before: string, limit = 100): Promise<EventDoc[]> {
    return this.c.events.find({ status: 'received', received_at: { $lt: before } }, { sort: { received_at: 1 }, limit });
  }

  history(subscriptionId: string, limit = 200): Promise<EventDoc[]> {
    return this.c.events.find({ subscription_id: subscriptionId }, { sort: { received_at: 1 }, limit });
  }
}
