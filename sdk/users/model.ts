import type { Role } from './roles.js';

export interface UserRecord extends Record<string, unknown> {
  _id: string;
  user_id: number;
  login: string;
  role: Role;
  /** Capabilities granted beyond the role (e.g. view_logs). */
  extra_capabilities: string[];
  /** scrypt hash of the login password (cookie sessions); absent until set. */
  password_hash?: string;
  created_at: Date;
}

export interface AppPasswordRecord extends Record<string, unknown> {
  /** The application password's uuid. */
  _id: string;
  user_id: number;
  name: string;
  hash: string;
  /**
   * The bearer token's lookup id (unique, indexed): the token names the password by it.
   * Absent on application passwords created before bearer tokens: they work with Basic only.
   */
  token_id?: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface SessionRecord extends Record<string, unknown> {
  /** sha256 of the cookie token: a stolen database does not yield live cookies. */
  _id: string;
  user_id: number;
  nonce: string;
  created_at: Date;
  /** The absolute end of the session (sign-in + the session lifetime). */
  expires_at: Date;
  /** Last use, to within a minute: the idle timeout counts from it (absent on sessions older than it: created_at). */
  last_seen_at?: Date;
  /** The application password the session was opened with (a first sign-in); revoking it ends the session. */
  app_password_id?: string;
}

/** What the API and CLI show of a user (never hashes). */
export interface UserView {
  user_id: number;
  login: string;
  role: Role;
  capabilities: string[];
  has_password: boolean;
  created_at: string;
}

export interface AppPasswordView {
  uuid: string;
  user_id: number;
  name: string;
  /** Whether it can be used as a bearer token (false: created before them; Basic only). */
  bearer: boolean;
  created_at: string;
  last_used_at: string | null;
}

export const USERS = 'users';
export const APP_PASSWORDS = 'app_passwords';
export const SESSIONS = 'sessions';
