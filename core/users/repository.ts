import type { Collection, DocumentStore } from '../store/port.js';
import { APP_PASSWORDS, SESSIONS, USERS, type AppPasswordRecord, type SessionRecord, type UserRecord } from './model.js';

/** Storage of users, application passwords and sessions on the DocumentStore port. */
export class UsersRepository {
  readonly users: Collection<UserRecord>;
  readonly appPasswords: Collection<AppPasswordRecord>;
  readonly sessions: Collection<SessionRecord>;

  constructor(private readonly store: DocumentStore) {
    this.users = store.collection<UserRecord>(USERS);
    this.appPasswords = store.collection<AppPasswordRecord>(APP_PASSWORDS);
    this.sessions = store.collection<SessionRecord>(SESSIONS);
  }

  async ensureIndexes(): Promise<void> {
    await this.users.createIndex({ fields: { login: 1 }, unique: true });
    await this.users.createIndex({ fields: { user_id: 1 }, unique: true });
    await this.appPasswords.createIndex({ fields: { user_id: 1 } });
    // Sparse: passwords from before bearer tokens have no lookup id, and need no migration.
    await this.appPasswords.createIndex({ fields: { token_id: 1 }, unique: true, sparse: true });
    await this.sessions.createIndex({ fields: { expires_at: 1 } });
    await this.sessions.createIndex({ fields: { user_id: 1 } });
    await this.sessions.createIndex({ fields: { app_password_id: 1 } });
  }

  nextUserId(): Promise<number> {
    return this.store.nextId('users');
  }

  byLogin(login: string): Promise<UserRecord | null> {
    return this.users.findOne({ login }) as Promise<UserRecord | null>;
  }

  byId(userId: number): Promise<UserRecord | null> {
    return this.users.findOne({ user_id: userId }) as Promise<UserRecord | null>;
  }
}
