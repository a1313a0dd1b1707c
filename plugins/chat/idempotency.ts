/**
 * X-Request-ID idempotency for POST /chat and POST /chat/continue. The first request with
 * an id claims it (a document keyed by user and id, so a unique insert decides the race,
 * across hosts); when it succeeds its answer is stored and a retry gets that answer back
 * without calling the model or any tool again. A failed request frees its id, so a retry
 * after an error runs again. Expiry is a time field plus a query (the store has no TTL
 * index): answers are kept DONE_MS, a claim of a request still running RUNNING_MS (then a
 * crashed host's claim is ignored).
 */
import { createHash } from 'node:crypto';
import { DuplicateKeyError, type Clock, type Collection, type PluginStore } from '../../sdk/index.js';
import { stableJson } from '../../sdk/index.js';
import { chatError } from './errors.js';

export const DONE_MS = 24 * 60 * 60 * 1000;
export const RUNNING_MS = 10 * 60 * 1000;
/** Printable ASCII without spaces, quotes or backslashes; 1–128 characters (UUIDs and ULIDs fit). */
export const REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

interface RequestRecord extends Record<string, unknown> {
  _id: string;
  user_id: number;
  request_id: string;
  /** Which route and body the id was first used with. */
  fingerprint: string;
  state: 'running' | 'done';
  /** The stored answer as JSON text (its keys are the tools' own, not the store's concern). */
  answer?: string;
  created_at: Date;
  expires_at: Date;
}

export type Claim =
  | { replay: Record<string, unknown> }
  | { finish(answer: Record<string, unknown>): Promise<void>; abandon(): Promise<void> }
  | null;

export class RequestIds {
  private readonly requests: Collection<RequestRecord>;

  constructor(
    store: PluginStore,
    private readonly clock: Clock,
  ) {
    this.requests = store.collection<RequestRecord>('requests');
  }

  async init(): Promise<void> {
    await this.requests.createIndex({ fields: { expires_at: 1 }, name: 'chat_requests_expiry' });
  }

  private later = (ms: number) => new Date(this.clock.now().getTime() + ms);

  /**
   * Null without a header; the first answer to replay; or a claim the caller finishes with
   * its answer (or abandons on error). 400 for a malformed id, 409 request_in_progress while
   * the first is running, 422 request_id_reused for the same id with another route or body.
   */
  async claim(header: string | undefined, userId: number, route: string, body: unknown): Promise<Claim> {
    if (header === undefined) return null;
    const requestId = header.trim();
    if (!REQUEST_ID.test(requestId)) throw chatError('invalid_request_id');
    const _id = `${userId}:${requestId}`;
    const fingerprint = createHash('sha256')
      .update(`${route}\u0000${stableJson(body)}`)
      .digest('hex');
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      try {
        await this.requests.insertOne({
          _id,
          user_id: userId,
          request_id: requestId,
          fingerprint,
          state: 'running',
          created_at: now,
          expires_at: this.later(RUNNING_MS),
        });
        // Expired ids are swept when a new one is claimed: no scheduler job needed.
        await this.requests.deleteMany({ expires_at: { $lt: now } });
        return {
          finish: async (answer) =>
            void (await this.requests.updateOne(
              { _id, fingerprint },
              { $set: { state: 'done', answer: JSON.stringify(answer), expires_at: this.later(DONE_MS) } },
            )),
          abandon: async () => void (await this.requests.deleteOne({ _id, fingerprint, state: 'running' })),
        };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
      const found = await this.requests.findOne({ _id });
      if (!found) continue;
      if (found.expires_at.getTime() <= now.getTime()) {
        await this.requests.deleteOne({ _id, expires_at: found.expires_at });
        continue;
      }
      if (found.fingerprint !== fingerprint)
        throw chatError('request_id_reused', {
          message: `X-Request-ID ${requestId} was already used for a different request; send a new id for a new request`,
        });
      if (found.state === 'running')
        throw chatError('request_in_progress', {
          message: `The request with X-Request-ID ${requestId} is still running; retry once it has finished to get its answer`,
        });
      return { replay: JSON.parse(found.answer ?? '{}') as Record<string, unknown> };
    }
    throw chatError('request_in_progress', {
      message: `The request with X-Request-ID ${requestId} is still running; retry once it has finished to get its answer`,
    });
  }
}
