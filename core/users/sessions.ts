import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../kernel/clock.js';
import { safeEqual } from '../security/constant-time.js';
import type { SessionRecord } from './model.js';
import type { UsersRepository } from './repository.js';

/** How long a session lives: from sign-in (absolute) and since it was last used (idle). */
export interface SessionLimits {
  absoluteSeconds: number;
  idleSeconds: number;
}

/** A session just opened: the cookie's token (never stored) and the nonce sent with it. */
export interface OpenedSession {
  token: string;
  nonce: string;
  expiresAt: Date;
}

/**
 * A session's last use is written again only once it is this old (or a tenth of the idle
 * timeout, if that is shorter): a console making a request a second costs reads, not a
 * write each, and the idle timeout is kept to within a minute.
 */
const TOUCH_AFTER_MS = 60_000;

/**
 * Cookie sessions in the store (so every host sharing MongoDB sees the same), each tied to
 * what opened it: a session opened with an application password ends when that password
 * is revoked, and every session ends after `idleSeconds` without use.
 */
export class UserSessions {
  constructor(
    private readonly repo: UsersRepository,
    private readonly clock: Clock,
    private readonly limits: () => SessionLimits,
  ) {}

  async open(userId: number, appPasswordId: string | null): Promise<OpenedSession> {
    const token = randomBytes(32).toString('base64url');
    const nonce = randomBytes(16).toString('hex');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.limits().absoluteSeconds * 1000);
    const record: SessionRecord = {
      _id: sessionKey(token),
      user_id: userId,
      nonce,
      created_at: now,
      expires_at: expiresAt,
      last_seen_at: now,
    };
    if (appPasswordId) record.app_password_id = appPasswordId;
    await this.repo.sessions.insertOne(record);
    // Expired sessions are removed by query (the port promises no TTL indexes); idle ones
    // when they are next presented.
    await this.repo.sessions.deleteMany({ expires_at: { $lt: now } });
    return { token, nonce, expiresAt };
  }

  /** The live session of a cookie's token, or null: unknown, past its lifetime, idle too long, or its application password revoked. */
  async find(token: string): Promise<SessionRecord | null> {
    const key = sessionKey(token);
    const session = (await this.repo.sessions.findOne({ _id: key })) as SessionRecord | null;
    if (!session) return null;
    const now = this.clock.now().getTime();
    const lastSeen = (session.last_seen_at ?? session.created_at).getTime();
    const idle = now - lastSeen >= this.limits().idleSeconds * 1000;
    // A revoked password's sessions are deleted with it; this read also covers a sign-in
    // that raced the revocation (only sessions opened with an application password pay it).
    const revoked = !!session.app_password_id && (await this.repo.appPasswords.count({ _id: session.app_password_id })) === 0;
    if (session.expires_at.getTime() <= now || idle || revoked) {
      await this.repo.sessions.deleteOne({ _id: key });
      return null;
    }
    return session;
  }

  /** Marks the session used now (what the idle timeout counts from), at most once a minute. */
  async used(session: SessionRecord): Promise<void> {
    const now = this.clock.now();
    const lastSeen = (session.last_seen_at ?? session.created_at).getTime();
    const refreshAfter = Math.min(TOUCH_AFTER_MS, (this.limits().idleSeconds * 1000) / 10);
    if (now.getTime() - lastSeen < refreshAfter) return;
    await this.repo.sessions.updateOne({ _id: session._id }, { $set: { last_seen_at: now } });
  }

  nonceMatches(session: SessionRecord, nonce: string): boolean {
    return safeEqual(session.nonce, nonce);
  }

  async end(token: string): Promise<void> {
    await this.repo.sessions.deleteOne({ _id: sessionKey(token) });
  }

  /** Ends every session of the user but the one of `keepToken` (if given); answers how many ended. */
  endAll(userId: number, keepToken?: string): Promise<number> {
    return this.repo.sessions.deleteMany(keepToken ? { user_id: userId, _id: { $ne: sessionKey(keepToken) } } : { user_id: userId });
  }

  /** Ends the sessions an application password opened. */
  endOpenedBy(appPasswordId: string): Promise<number> {
    return this.repo.sessions.deleteMany({ app_password_id: appPasswordId });
  }
}

function sessionKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
