import { randomUUID, createHash } from 'node:crypto';
import type { Clock } from '../kernel/clock.js';
import { DuplicateKeyError } from '../store/port.js';
import {
  generateApplicationPassword,
  hashPassword,
  normalizeApplicationPassword,
  verifyDummy,
  verifyPassword,
} from '../security/passwords.js';
import type { AppPasswordRecord, AppPasswordView, UserRecord, UserView } from './model.js';
import { UserPrincipal } from './principal.js';
import { type SessionLimits, UserSessions } from './sessions.js';
import type { UsersRepository } from './repository.js';
import { GRANTABLE_CAPABILITIES, isRole, roleCapabilities, type Role } from './roles.js';
import type { UsersApi } from '../../sdk/contract/users.js';
import { apiError } from '../errors/catalogue.js';
import { bearerToken, newTokenId, parseBearerToken } from './bearer-token.js';

export interface CreatedAppPassword extends AppPasswordView {
  /** Shown once; only its hash is stored. */
  password: string;
  /** The same password as a bearer token (`fh_…`, used without the login); shown once too. */
  token: string;
}

const LOGIN = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,59}$/;
/** How long a verified application password skips scrypt (it is still checked for revocation each time). */
const VERIFIED_TTL_MS = 5 * 60 * 1000;
const VERIFIED_MAX = 1000;

/** A sign-in's user, and the application password it used (null: the user's own password). */
export interface SignIn {
  user: UserRecord;
  appPasswordId: string | null;
}

/** Users, their application passwords and cookie sessions. */
export class UsersService implements UsersApi {
  /** sha256(login, password) or sha256(bearer token) → the application password it matched, while fresh. */
  private readonly verified = new Map<string, { id: string; until: number }>();
  /** The host sets them from its config (setSessionLimits); these are its defaults. */
  private sessionLimits: SessionLimits = { absoluteSeconds: 12 * 3600, idleSeconds: 30 * 60 };
  /** Cookie sessions (the host's authenticator and session routes use them). */
  readonly sessions: UserSessions;

  constructor(
    private readonly repo: UsersRepository,
    private readonly clock: Clock,
  ) {
    this.sessions = new UserSessions(repo, clock, () => this.sessionLimits);
  }

  setSessionLimits(limits: SessionLimits): void {
    this.sessionLimits = { ...limits };
  }

  init(): Promise<void> {
    return this.repo.ensureIndexes();
  }

  count(): Promise<number> {
    return this.repo.users.count({});
  }

  async list(): Promise<UserView[]> {
    const users = await this.repo.users.find({}, { sort: { user_id: 1 } });
    return users.map((u) => this.view(u as UserRecord));
  }

  async administrators(): Promise<UserView[]> {
    const users = await this.repo.users.find({ role: 'administrator' }, { sort: { user_id: 1 } });
    return users.map((u) => this.view(u as UserRecord));
  }

  /** Whether the user can log in at all (an application password or a login password). */
  async hasCredentials(userId: number): Promise<boolean> {
    const user = await this.require(userId);
    return Boolean(user.password_hash) || (await this.repo.appPasswords.count({ user_id: userId })) > 0;
  }

  async exists(userId: number): Promise<boolean> {
    return (await this.repo.users.count({ user_id: userId })) > 0;
  }

  async get(userId: number): Promise<UserView> {
    return this.view(await this.require(userId));
  }

  async findByLogin(login: string): Promise<UserView | null> {
    const user = await this.repo.byLogin(login);
    return user ? this.view(user) : null;
  }

  /**
   * Creates a user. Ordered for crash safety: the id is reserved first and the user
   * document is the last write, so a crash leaves at most an unused id.
   */
  async create(input: { login: string; role: string; password?: string; capabilities?: string[] }): Promise<UserView> {
    if (!LOGIN.test(input.login)) throw apiError('invalid_login');
    if (!isRole(input.role))
      throw apiError('invalid_role', { message: `Role must be one of: ${Object.keys(roleCapabilities).join(', ')}` });
    const extra = input.capabilities ?? [];
    const bad = extra.filter((c) => !GRANTABLE_CAPABILITIES.includes(c));
    if (bad.length)
      throw apiError('invalid_capability', { message: `Capabilities that can be granted: ${GRANTABLE_CAPABILITIES.join(', ')}` });
    if (await this.repo.byLogin(input.login))
      throw apiError('user_exists', { message: `A user with login '${input.login}' already exists` });
    const record: Omit<UserRecord, '_id'> & { _id?: string } = {
      user_id: await this.repo.nextUserId(),
      login: input.login,
      role: input.role,
      extra_capabilities: [...new Set(extra)],
      created_at: this.clock.now(),
    };
    if (input.password !== undefined) record.password_hash = await this.checkedHash(input.password);
    try {
      const saved = await this.repo.users.insertOne(record as UserRecord);
      return this.view(saved as UserRecord);
    } catch (error) {
      if (error instanceof DuplicateKeyError)
        throw apiError('user_exists', { message: `A user with login '${input.login}' already exists` });
      throw error;
    }
  }

  /**
   * Deletes a user: sessions and application passwords first, the user last, so a crash
   * midway leaves a user with fewer credentials, never credentials without a user.
   */
  async delete(userId: number): Promise<UserView> {
    const user = await this.require(userId);
    if (user.role === 'administrator') {
      const admins = await this.repo.users.count({ role: 'administrator' });
      if (admins <= 1) throw apiError('last_administrator');
    }
    await this.sessions.endAll(userId);
    await this.repo.appPasswords.deleteMany({ user_id: userId });
    await this.repo.users.deleteOne({ user_id: userId });
    return this.view(user);
  }

  /**
   * A new password ends every cookie session of that user but `keepToken`'s (the session
   * the user changed it from, which stays signed in).
   */
  async setPassword(userId: number, password: string, keepToken?: string): Promise<void> {
    await this.require(userId);
    const hash = await this.checkedHash(password);
    await this.repo.users.updateOne({ user_id: userId }, { $set: { password_hash: hash } });
    await this.sessions.endAll(userId, keepToken);
  }

  async createAppPassword(userId: number, name: string): Promise<CreatedAppPassword> {
    await this.require(userId);
    const cleanName = name.trim();
    if (!cleanName || cleanName.length > 100) throw apiError('invalid_name');
    const password = generateApplicationPassword();
    const record = {
      _id: randomUUID(),
      user_id: userId,
      name: cleanName,
      hash: await hashPassword(normalizeApplicationPassword(password)),
      token_id: newTokenId(),
      created_at: this.clock.now(),
      last_used_at: null,
    } satisfies AppPasswordRecord;
    await this.repo.appPasswords.insertOne(record);
    return { ...this.appPasswordView(record), password, token: bearerToken(record.token_id, password) };
  }

  async listAppPasswords(userId: number): Promise<AppPasswordView[]> {
    await this.require(userId);
    const rows = await this.repo.appPasswords.find({ user_id: userId }, { sort: { created_at: 1 } });
    return rows.map((r) => this.appPasswordView(r as AppPasswordRecord));
  }

  async revokeAppPassword(userId: number, uuid: string): Promise<AppPasswordView> {
    const row = await this.repo.appPasswords.findOne({ _id: uuid, user_id: userId });
    if (!row) throw apiError('application_password_not_found');
    await this.repo.appPasswords.deleteOne({ _id: uuid });
    // The sessions it opened end with it (a session opened in a race is refused when next presented).
    await this.sessions.endOpenedBy(uuid);
    return this.appPasswordView(row as AppPasswordRecord);
  }

  /**
   * Checks login + application password. Takes the same time whether the login exists
   * or not (a dummy verification runs for unknown logins), so failures reveal nothing.
   */
  async verifyAppPassword(login: string, password: string): Promise<UserPrincipal | null> {
    const match = await this.matchAppPassword(login, password);
    return match ? this.principal(match.user, 'app_password') : null;
  }

  /**
   * Checks a bearer token (an application password on its own, bearer-token.ts): one
   * indexed read by its lookup id, then the secret against that password's hash (scrypt,
   * compared in constant time). An unknown lookup id costs a dummy verification, so it
   * takes as long as a wrong secret; a malformed token is refused at once (its shape is public).
   */
  async verifyBearerToken(token: string): Promise<UserPrincipal | null> {
    const parsed = parseBearerToken(token);
    if (!parsed) return null;
    const row = (await this.repo.appPasswords.findOne({ token_id: parsed.tokenId })) as AppPasswordRecord | null;
    if (!row) {
      await verifyDummy(parsed.secret);
      return null;
    }
    // As for Basic: a token verified a moment ago skips scrypt, but its row was just read (a
    // revoked password fails at once) and must be the one it matched.
    // (A login never holds a colon, so this key is no Basic credential's.)
    const key = createHash('sha256').update(`:bearer\u0000${token}`).digest('hex');
    const hit = this.verified.get(key);
    if (!(hit && hit.id === row._id && hit.until > Date.now())) {
      if (!(await verifyPassword(parsed.secret, row.hash))) return null;
      this.remember(key, row._id);
    }
    const user = await this.repo.byId(row.user_id);
    if (!user) return null;
    await this.touchLastUsed(row);
    return this.principal(user, 'app_password');
  }

  private remember(key: string, id: string): void {
    if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
    this.verified.set(key, { id, until: Date.now() + VERIFIED_TTL_MS });
  }

  private async matchAppPassword(login: string, password: string): Promise<SignIn | null> {
    const user = await this.repo.byLogin(login);
    const candidate = normalizeApplicationPassword(password);
    // scrypt costs ~50 ms by design; a credential verified a moment ago skips it, but its
    // row must still exist (a revoked password fails at once) and belong to this user.
    const key = createHash('sha256').update(`${login}\u0000${candidate}`).digest('hex');
    const hit = this.verified.get(key);
    if (user && hit && hit.until > Date.now()) {
      const row = await this.repo.appPasswords.findOne({ _id: hit.id, user_id: user.user_id });
      if (row) {
        await this.touchLastUsed(row as AppPasswordRecord);
        return { user, appPasswordId: hit.id };
      }
      this.verified.delete(key);
    }
    if (!user) {
      await verifyDummy(candidate);
      return null;
    }
    const rows = (await this.repo.appPasswords.find({ user_id: user.user_id })) as AppPasswordRecord[];
    if (rows.length === 0) {
      await verifyDummy(candidate);
      return null;
    }
    for (const row of rows) {
      if (await verifyPassword(candidate, row.hash)) {
        this.remember(key, row._id);
        await this.touchLastUsed(row);
        return { user, appPasswordId: row._id };
      }
    }
    return null;
  }

  /** last_used_at, written at most once a minute per password (not on every request). */
  private async touchLastUsed(row: AppPasswordRecord): Promise<void> {
    const now = this.clock.now();
    if (row.last_used_at && now.getTime() - row.last_used_at.getTime() < 60_000) return;
    await this.repo.appPasswords.updateOne({ _id: row._id }, { $set: { last_used_at: now } });
  }

  /**
   * Checks login + user password (for cookie sessions), in equal time for unknown logins.
   * A user who has no password yet (the first administrator, a user an administrator
   * created) signs in once with one of their application passwords, so that a newcomer can
   * use the console with what the first start wrote; the session then asks for a password.
   * Once a password is set, only it opens a session (as WordPress: application passwords
   * are for API clients). The answer names the application password, so the session is tied to it.
   */
  async verifyUserPassword(login: string, password: string): Promise<SignIn | null> {
    const user = await this.repo.byLogin(login);
    if (user && !user.password_hash) return this.matchAppPassword(login, password);
    if (!user?.password_hash) {
      await verifyDummy(password);
      return null;
    }
    return (await verifyPassword(password, user.password_hash)) ? { user, appPasswordId: null } : null;
  }

  /** Whether the user has set a session password (false: signed in with an application password). */
  async hasPassword(userId: number): Promise<boolean> {
    return Boolean((await this.repo.byId(userId))?.password_hash);
  }

  /**
   * Whether `password` is the user's own password (the check before a user changes it;
   * the caller counts failures in the login throttle). False when none is set.
   */
  async checkPassword(userId: number, password: string): Promise<boolean> {
    const user = await this.require(userId);
    return Boolean(user.password_hash) && (await verifyPassword(password, user.password_hash!));
  }

  async principalFor(userId: number, via: UserPrincipal['via']): Promise<UserPrincipal | null> {
    const user = await this.repo.byId(userId);
    return user ? this.principal(user, via) : null;
  }

  // Views -------------------------------------------------------------------------

  private async require(userId: number): Promise<UserRecord> {
    const user = await this.repo.byId(userId);
    if (!user) throw apiError('user_not_found', { message: `No user with id ${userId}` });
    return user;
  }

  private async checkedHash(password: string): Promise<string> {
    if (typeof password !== 'string' || password.length < 8) throw apiError('weak_password');
    return hashPassword(password);
  }

  private principal(user: UserRecord, via: UserPrincipal['via']): UserPrincipal {
    return new UserPrincipal(user.user_id, user.login, user.role as Role, user.extra_capabilities ?? [], via);
  }

  private view(user: UserRecord): UserView {
    const principal = this.principal(user, 'test');
    return {
      user_id: user.user_id,
      login: user.login,
      role: user.role,
      capabilities: [...principal.capabilities].sort(),
      has_password: Boolean(user.password_hash),
      created_at: user.created_at.toISOString(),
    };
  }

  private appPasswordView(row: AppPasswordRecord): AppPasswordView {
    return {
      uuid: row._id,
      user_id: row.user_id,
      name: row.name,
      bearer: typeof row.token_id === 'string',
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    };
  }
}
