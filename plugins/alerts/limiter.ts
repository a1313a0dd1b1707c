/**
 * What has been announced, in the store so every host sees the same: the last alert per
 * flow and channel (the rate limit) and whether a flow is announced as failing (so its
 * recovery is announced once). Each decision is one atomic write: two hosts handling two
 * failures of one flow at once never both send.
 */
import { DuplicateKeyError, type Collection } from '../../sdk/index.js';

export type SentDoc = { _id: string; flow_id: number; channel: string; last_at: number };
export type StateDoc = { _id: string; flow_id: number; failing: boolean; since: number };

export class AlertLimiter {
  constructor(
    private readonly sent: Collection<SentDoc>,
    private readonly state: Collection<StateDoc>,
  ) {}

  /** True when this caller may send on `channel` for `flowId` now (and it is recorded as sent). */
  async claimWindow(flowId: number, channel: string, now: number, windowMs: number): Promise<boolean> {
    const _id = `${flowId}:${channel}`;
    const res = await this.sent.updateOne({ _id, last_at: { $lte: now - windowMs } }, { $set: { last_at: now } });
    if (res.matchedCount === 1) return true;
    return this.insertOnce(this.sent, { _id, flow_id: flowId, channel, last_at: now });
  }

  /** True for the one caller that marks the flow as announced failing. */
  async markFailing(flowId: number, now: number): Promise<boolean> {
    const _id = String(flowId);
    const res = await this.state.updateOne({ _id, failing: false }, { $set: { failing: true, since: now } });
    if (res.matchedCount === 1) return true;
    return this.insertOnce(this.state, { _id, flow_id: flowId, failing: true, since: now });
  }

  /** True for the one caller that ends the flow's announced failure (its recovery is announced once). */
  async markRecovered(flowId: number, now: number): Promise<boolean> {
    const res = await this.state.updateOne({ _id: String(flowId), failing: true }, { $set: { failing: false, since: now } });
    return res.matchedCount === 1;
  }

  private async insertOnce<T extends { _id: string }>(collection: Collection<T>, doc: T): Promise<boolean> {
    try {
      await collection.insertOne(doc);
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }
}
