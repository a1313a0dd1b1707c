import type { Clock } from '../kernel/clock.js';
import type { AuthProviderDefinition, HandlerCredentials, HandlerDefinition } from '../kernel/contributions.js';
import type { HostInfo } from '../kernel/plugin.js';
import type { HandlerCatalogue } from '../../sdk/contract/handler-catalogue.js';
import type { ExtensionPointContributions } from '../kernel/extension-point.js';
import { maskSecret } from '../security/mask.js';
import type { Vault } from '../security/vault.js';
import type { Collection, DocumentStore } from '../store/port.js';
import { oauthErrorMessage, refreshTokens } from './oauth2.js';
import { APPLICATION_KEYS, AUTH_ACCOUNTS, type ApplicationKeyRecord, type AuthAccountRecord } from './model.js';
import type { CredentialsApi } from '../../sdk/contract/credentials.js';
import { apiError } from '../errors/catalogue.js';

/** Where OAuth popups land: `/{auth_prefix}/{handler_slug}/` on the site root (spec: Auth). */
export const DEFAULT_AUTH_PREFIX = 'flowhost-auth';

interface Resolved {
  slug: string;
  handler: HandlerDefinition<object>;
  /** The provider key whose credentials the handler uses. */
  provider: string;
}

const authProviderNotFound = (slug: string) =>
  apiError('auth_provider_not_found', { message: `No handler or auth provider '${slug}' is registered` });

/**
 * Credentials: OAuth client credentials as application keys (one per provider key) and
 * connected accounts or app-password credentials as account records, every secret sealed
 * by the vault under a context naming its provider and field, masked in every answer.
 */
/**
 * The name an app-password account goes by: its `handle` (or `username`) field. Never any
 * other field: a handler whose only field is `api_token` would show its token in clear as
 * `account_details.username`; such an account has no name ('').
 */
export function appPasswordAccountName(fields: Record<string, string>): string {
  return fields.handle ?? fields.username ?? '';
}

export class CredentialsService implements CredentialsApi {
  constructor(
    private readonly deps: {
      store: DocumentStore;
      vault: Vault;
      clock: Clock;
      catalogue: HandlerCatalogue;
      /** The domain's extension point, read at call time (sealed once every setup ran). */
      authProviders: ExtensionPointContributions<AuthProviderDefinition>;
      info: HostInfo;
      authPrefix?: string;
    },
  ) {}

  private get keys(): Collection<ApplicationKeyRecord> {
    return this.deps.store.collection<ApplicationKeyRecord>(APPLICATION_KEYS);
  }

  private get accounts(): Collection<AuthAccountRecord> {
    return this.deps.store.collection<AuthAccountRecord>(AUTH_ACCOUNTS);
  }

  async init(): Promise<void> {
    await this.keys.createIndex({ fields: { provider: 1 }, unique: true, name: 'application_keys_provider' });
    await this.accounts.createIndex({ fields: { provider: 1 }, unique: true, name: 'auth_accounts_provider' });
  }

  /** The handler a path slug names and its provider key; null when it needs no auth. */
  resolve(slug: string): Resolved | null {
    const handler = this.deps.catalogue.handler(slug);
    if (!handler) throw authProviderNotFound(slug);
    if (!handler.auth) return null;
    return { slug, handler, provider: handler.auth.provider ?? handler.slug };
  }

  private seal(provider: string, field: string, value: string): string {
    return this.deps.vault.encrypt(value, `credentials:${provider}:${field}`);
  }

  private open(provider: string, field: string, sealed: string): string {
    return this.deps.vault.decrypt(sealed, `credentials:${provider}:${field}`);
  }

  private openAll(provider: string, sealed: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(sealed).map(([field, value]) => [field, this.open(provider, field, value)]));
  }

  /** The saved credential fields, decrypted: application keys, or an app-password account's fields. */
  private async savedFields(resolved: Resolved): Promise<Record<string, string>> {
    if (resolved.handler.auth!.type === 'app_password') {
      const account = await this.accounts.findOne({ provider: resolved.provider });
      return account ? this.openAll(resolved.provider, account.tokens) : {};
    }
    const keys = await this.keys.findOne({ provider: resolved.provider });
    return keys ? this.openAll(resolved.provider, keys.fields) : {};
  }

  private configStatus(resolved: Resolved, fields: Record<string, string>): Record<string, string> {
    return Object.fromEntries(resolved.handler.auth!.fields.map((field) => [field, maskSecret(fields[field])]));
  }

  /** GET /auth/{slug}/status: the spec's Authentication status (+ `oauth_url` for the admin client). */
  async status(slug: string): Promise<Record<string, unknown>> {
    const resolved = this.resolve(slug);
    if (!resolved) return { handler_slug: slug, requires_auth: false, authenticated: false, config_status: {} };
    const auth = resolved.handler.auth!;
    const account = await this.accounts.findOne({ provider: resolved.provider });
    const out: Record<string, unknown> = { handler_slug: slug, requires_auth: true, authenticated: account?.status === 'authenticated' };
    if (account?.status === 'authenticated') out.account_details = this.shownAccount(auth.type, account);
    else if (account?.status === 'error')
      Object.assign(out, { error: true, error_code: account.error_code, error_message: account.error_message });
    else out.error = false;
    out.config_status = this.configStatus(resolved, await this.savedFields(resolved));
    if (auth.type === 'oauth1' || auth.type === 'oauth2') out.oauth_url = this.authorizationUrl(slug);
    return out;
  }

  /** `/{auth_prefix}/{slug}/` on the site root, where the browser authorization starts. */
  authorizationUrl(slug: string): string {
    return `${this.deps.info.publicUrl()}/${this.deps.authPrefix ?? DEFAULT_AUTH_PREFIX}/${slug}/`;
  }

  /**
   * PUT /auth/{slug}: every field is required, under its listing name or an alias (the
   * spec's PUT names); equal values change nothing. App-password credentials are the
   * account itself: they are used directly, with no authorization step.
   */
  async save(
    slug: string,
    body: Record<string, unknown>,
  ): Promise<{ message: string; config_status: Record<string, string>; changed: boolean }> {
    const resolved = this.resolve(slug);
    if (!resolved) return { message: `Handler '${slug}' needs no credentials.`, config_status: {}, changed: false };
    const auth = resolved.handler.auth!;
    const aliasesOf = (field: string) =>
      Object.entries(auth.aliases ?? {})
        .filter(([, target]) => target === field)
        .map(([alias]) => alias);
    const given: Record<string, string> = {};
    for (const field of auth.fields) {
      const name = [field, ...aliasesOf(field)].find((n) => typeof body[n] === 'string' && (body[n] as string).trim() !== '');
      if (!name) {
        const names = [...aliasesOf(field), field];
        throw apiError('required_field_missing', {
          message: `Missing required field: ${names.join(' (or ') + (names.length > 1 ? ')' : '')}`,
          data: { field: names[0] },
        });
      }
      given[field] = (body[name] as string).trim();
    }
    const saved = await this.savedFields(resolved);
    const config_status = this.configStatus(resolved, given);
    if (auth.fields.every((field) => saved[field] === given[field])) {
      return { message: 'Configuration is already up to date.', config_status, changed: false };
    }
    const now = this.deps.clock.now();
    const sealed = Object.fromEntries(Object.entries(given).map(([field, value]) => [field, this.seal(resolved.provider, field, value)]));
    if (auth.type === 'app_password') {
      const username = appPasswordAccountName(given);
      await this.accounts.updateOne(
        { provider: resolved.provider },
        {
          $set: {
            provider: resolved.provider,
            auth_type: auth.type,
            status: 'authenticated',
            tokens: sealed,
            account_details: { username, id: username },
            expires_at: null,
            error_code: null,
            error_message: null,
            updated_at: now,
          },
        },
        { upsert: true },
      );
    } else {
      await this.keys.updateOne(
        { provider: resolved.provider },
        { $set: { provider: resolved.provider, auth_type: auth.type, fields: sealed, updated_at: now } },
        { upsert: true },
      );
    }
    return { message: 'Configuration saved successfully', config_status, changed: true };
  }

  /** DELETE /auth/{slug}: the connected account goes (application keys stay for reconnecting). */
  async disconnect(slug: string): Promise<string> {
    const resolved = this.resolve(slug);
    if (!resolved) return `Handler '${slug}' needs no credentials; nothing to disconnect.`;
    let account: AuthAccountRecord | null;
    try {
      account = await this.accounts.findOne({ provider: resolved.provider });
      if (account) await this.accounts.deleteOne({ provider: resolved.provider });
    } catch (error) {
      throw apiError('disconnect_failed', { message: `The account could not be disconnected: ${(error as Error).message}` });
    }
    if (!account) return `No account of '${slug}' was connected.`;
    const name = this.shownAccount(resolved.handler.auth!.type, account).username;
    return `Disconnected ${name ? `account ${name}` : 'the account'} from '${slug}'.`;
  }

  /** A provider's application keys, decrypted (for the browser authorization). */
  async applicationKeys(provider: string): Promise<Record<string, string>> {
    const keys = await this.keys.findOne({ provider });
    return keys ? this.openAll(provider, keys.fields) : {};
  }

  /** Whether the handler's provider has an authenticated account, with its details (for GET /handlers). */
  async connection(
    handler: HandlerDefinition<object>,
  ): Promise<{ authenticated: boolean; account_details?: { username: string; id: string } }> {
    if (!handler.auth) return { authenticated: false };
    const account = await this.accounts.findOne({ provider: handler.auth.provider ?? handler.slug });
    return account?.status === 'authenticated'
      ? { authenticated: true, account_details: this.shownAccount(handler.auth.type, account) }
      : { authenticated: false };
  }

  /**
   * The account's details as answers show them. An app-password account is named by its
   * own fields (see appPasswordAccountName), worked out again on every read: accounts saved
   * before that rule kept their first field, possibly a token, as the name.
   */
  private shownAccount(type: AuthAccountRecord['auth_type'], account: AuthAccountRecord): { username: string; id: string } {
    if (type !== 'app_password') return account.account_details ?? { username: '', id: '' };
    const username = appPasswordAccountName(this.openAll(account.provider, account.tokens ?? {}));
    return { username, id: username };
  }

  /** Stores tokens of a completed browser authorization (OAuth); the account is connected. */
  async connect(
    provider: string,
    authType: ApplicationKeyRecord['auth_type'],
    tokens: Record<string, string>,
    account: { username: string; id: string },
    expiresAt: Date | null = null,
  ): Promise<void> {
    const sealed = Object.fromEntries(Object.entries(tokens).map(([field, value]) => [field, this.seal(provider, field, value)]));
    await this.accounts.updateOne(
      { provider },
      {
        $set: {
          provider,
          auth_type: authType,
          status: 'authenticated',
          tokens: sealed,
          account_details: account,
          expires_at: expiresAt,
          error_code: null,
          error_message: null,
          updated_at: this.deps.clock.now(),
        },
      },
      { upsert: true },
    );
  }

  /** A denied or failed authorization, or credentials a service refused: the status shows it. */
  async fail(provider: string, authType: ApplicationKeyRecord['auth_type'], code: string, message: string): Promise<void> {
    await this.accounts.updateOne(
      { provider },
      {
        $set: {
          provider,
          auth_type: authType,
          status: 'error',
          error_code: code,
          error_message: message,
          updated_at: this.deps.clock.now(),
        },
        $setOnInsert: { tokens: {}, account_details: null, expires_at: null },
      },
      { upsert: true },
    );
  }

  /**
   * OAuth 2 tokens about to expire (within a minute) are refreshed before a run uses them;
   * a refused refresh marks the account not authenticated with the reason.
   */
  private async refreshIfDue(provider: string, account: AuthAccountRecord | null): Promise<AuthAccountRecord | null> {
    if (account?.status !== 'authenticated' || account.auth_type !== 'oauth2' || !account.expires_at) return account;
    if (account.expires_at.getTime() - this.deps.clock.now().getTime() > 60_000) return account;
    const definition = this.deps.authProviders.get(provider);
    const tokens = this.openAll(provider, account.tokens);
    if (!definition?.oauth2 || !tokens.refresh_token) return account;
    const keys = await this.applicationKeys(provider);
    try {
      const fresh = await refreshTokens(
        definition.oauth2(),
        { id: keys[definition.fields[0] ?? ''] ?? '', secret: keys[definition.fields[1] ?? ''] ?? '' },
        tokens.refresh_token,
        this.deps.info.allowsPrivateUrls,
      );
      const expiresAt = fresh.expires_in ? new Date(this.deps.clock.now().getTime() + fresh.expires_in * 1000) : null;
      await this.connect(
        provider,
        'oauth2',
        { access_token: fresh.access_token, refresh_token: fresh.refresh_token ?? tokens.refresh_token },
        account.account_details ?? { username: '', id: '' },
        expiresAt,
      );
    } catch (error) {
      await this.fail(
        provider,
        'oauth2',
        'refresh_failed',
        `The ${definition.label} token could not be refreshed: ${oauthErrorMessage(error)}`,
      );
    }
    return this.accounts.findOne({ provider });
  }

  /** The credentials a handler's run gets through its context; null for handlers without auth. */
  async forRun(handler: HandlerDefinition<object>): Promise<HandlerCredentials | null> {
    if (!handler.auth) return null;
    const auth = handler.auth;
    const provider = auth.provider ?? handler.slug;
    const resolved: Resolved = { slug: handler.slug, handler, provider };
    const fields = await this.savedFields(resolved);
    const account = await this.refreshIfDue(provider, await this.accounts.findOne({ provider }));
    const connected = account?.status === 'authenticated';
    return Object.freeze({
      provider,
      fields: Object.freeze(fields),
      tokens: connected ? Object.freeze(this.openAll(provider, account!.tokens)) : null,
      account: connected ? this.shownAccount(auth.type, account!) : null,
      markFailed: (code: string, message: string) => this.fail(provider, auth.type, code, message),
      saveTokens: async (tokens: Record<string, string>, expiresAt: Date | null = null) => {
        await this.connect(
          provider,
          auth.type,
          { ...(connected ? this.openAll(provider, account!.tokens) : {}), ...tokens },
          account?.account_details ?? { username: '', id: '' },
          expiresAt,
        );
      },
    });
  }
}
