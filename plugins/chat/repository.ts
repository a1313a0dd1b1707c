/**
 * The plugin's `sessions` collection: ownership checks and the per-session lease that
 * keeps two requests (on this host or another one sharing the store) from running on one
 * session at once. The lease is a conditional update on the session document with an
 * expiry, renewed on every save, so a host that crashed mid-request frees it by itself.
 */
import { randomUUID } from 'node:crypto';
import type { Clock, Collection, PluginStore } from '../../sdk/index.js';
import type { SessionFields, SessionRecord } from './types.js';
import { chatError } from './errors.js';

/** How long a lease holds without a save (each turn saves, renewing it). */
export const LEASE_MS = 120_000;

export interface Lease {
  readonly token: string;
}

export class SessionsRepository {
  readonly sessions: Collection<SessionRecord>;

  constructor(
    store: PluginStore,
    private readonly clock: Clock,
  ) {
    this.sessions = store.collection<SessionRecord>('sessions');
  }

  async init(): Promise<void> {
    await this.sessions.createIndex({ fields: { user_id: 1, updated_at: -1 }, name: 'chat_sessions_user' });
  }

  /** The caller's session, or 404 / 403. */
  async own(sessionId: string, userId: number): Promise<SessionRecord> {
    const session = await this.sessions.findOne({ _id: sessionId });
    if (!session) throw chatError('session_not_found', { message: `No chat session ${sessionId}` });
    if (session.user_id !== userId)
      throw chatError('session_access_denied', { message: `Chat session ${sessionId} belongs to another user` });
    return session;
  }

  private leaseUntil = () => new Date(this.clock.now().getTime() + LEASE_MS);

  /** Stores a new session already leased to the caller. */
  async insertLeased(session: SessionRecord): Promise<Lease> {
    const token = randomUUID();
    await this.sessions.insertOne({ ...session, lease_owner: token, lease_until: this.leaseUntil() });
    return { token };
  }

  /**
   * Takes the lease on the caller's session (404 / 403 first), or 409 session_busy while
   * another request holds an unexpired one. Answers the session as stored.
   */
  async acquire(sessionId: string, userId: number): Promise<{ session: SessionRecord; lease: Lease }> {
    await this.own(sessionId, userId);
    const token = randomUUID();
    const now = this.clock.now();
    const taken = await this.sessions.findOneAndUpdate(
      { _id: sessionId, user_id: userId, $or: [{ lease_until: null }, { lease_until: { $lte: now } }] },
      { $set: { lease_owner: token, lease_until: this.leaseUntil() } },
    );
    if (!taken) {
      const current = await this.own(sessionId, userId);
      const until = current.lease_until instanceof Date ? current.lease_until.toISOString() : undefined;
      throw chatError('session_busy', {
        message: `Chat session ${sessionId} is answering another request; try again when it has finished`,
        data: { session_id: sessionId, ...(until ? { busy_until: until } : {}) },
      });
    }
    return { session: taken, lease: { token } };
  }

  /**
   * Writes the session's fields and renews the lease, only while this request holds it
   * (a request whose lease expired and was taken over must not overwrite the newer one).
   */
  async save(sessionId: string, lease: Lease, fields: SessionFields): Promise<boolean> {
    const result = await this.sessions.updateOne(
      { _id: sessionId, lease_owner: lease.token },
      { $set: { ...fields, lease_until: this.leaseUntil() } },
    );
    return result.matchedCount === 1;
  }

  async release(sessionId: string, lease: Lease): Promise<void> {
    await this.sessions.updateOne({ _id: sessionId, lease_owner: lease.token }, { $unset: { lease_owner: '', lease_until: '' } });
  }
}
