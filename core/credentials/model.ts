import type { AuthType } from '../kernel/contributions.js';

export const APPLICATION_KEYS = 'application_keys';
export const AUTH_ACCOUNTS = 'auth_accounts';

/** OAuth client credentials (application keys), one record per provider key; values sealed. */
export interface ApplicationKeyRecord extends Record<string, unknown> {
  provider: string;
  auth_type: AuthType;
  /** Field name (listing name) → sealed value. */
  fields: Record<string, string>;
  updated_at: Date;
}

/** A connected account (tokens) or an app-password account, one per provider key; secrets sealed. */
export interface AuthAccountRecord extends Record<string, unknown> {
  provider: string;
  auth_type: AuthType;
  status: 'authenticated' | 'error';
  /** Sealed token values (access_token, refresh_token, oauth_token_secret...). */
  tokens: Record<string, string>;
  account_details: { username: string; id: string } | null;
  expires_at: Date | null;
  error_code: string | null;
  error_message: string | null;
  updated_at: Date;
}
