/**
 * Replays as their own records. Numbering is the event's `replays` count, raised by one
 * atomic `$inc` before the replay runs, so two replays at once get two numbers; the
 * event's own status and outcome are never touched. A crash between the `$inc` and the
 * record leaves a number unused, never two replays sharing one.
 */
import type { Clock } from '../../sdk/index.js';
import type { ReplayDoc } from './model.js';
import type { BillingCollections } from './repository.js';

/** How many replays of one event its detail lists (the newest; `replays` counts them all). */
export const LISTED_REPLAYS = 100;

export class ReplayLog {
  constructor(
    private readonly c: BillingCollections,
    private readonly clock: Clock,
  ) {}

  /** Numbers and records a replay about to run; null when the event does not exist. */
  async begin(eventId: string, type: string): Promise<ReplayDoc | null> {
    const event = await this.c.events.findOneAndUpdate({ _id: eventId }, { $inc: { replays: 1 } });
    if (!event) return null;
    const attempt = event.replays;
    return this.c.replays.insertOne({
      _id: `${eventId}:replay:${attempt}`,
      replay_of: eventId,
      type,
      attempt,
      status: 'running',
      outcome: null,
      error: null,
      started_at: this.clock.now().toISOString(),
      finished_at: null,
    });
  }

  async finished(id: string, outcome: string): Promise<ReplayDoc> {
    return (await this.c.replays.findOneAndUpdate(
      { _id: id },
      { $set: { status: 'processed', outcome, finished_at: this.clock.now().toISOString() } },
    ))!;
  }

  async failed(id: string, reason: string): Promise<void> {
    await this.c.replays.updateOne(
      { _id: id },
      { $set: { status: 'failed', error: reason.slice(0, 500), finished_at: this.clock.now().toISOString() } },
    );
  }

  /** The event's latest replays, oldest first. */
  async of(eventId: string): Promise<ReplayDoc[]> {
    return (await this.c.replays.find({ replay_of: eventId }, { sort: { attempt: -1 }, limit: LISTED_REPLAYS })).reverse();
  }
}
