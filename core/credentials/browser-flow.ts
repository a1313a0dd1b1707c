import { randomBytes } from 'node:crypto';
import type { AuthProviderDefinition } from '../kernel/contributions.js';
import type { Clock } from '../kernel/clock.js';
import type { ExtensionPointContributions } from '../kernel/extension-point.js';
import type { GuardedFetch } from '../security/guarded-fetch-types.js';
import type { Collection, DocumentStore } from '../store/port.js';
import type { Vault } from '../security/vault.js';
import { oauth1Header, oauth1Signer } from './oauth1.js';
import { authorizationRequest, exchangeCode, oauthErrorMessage } from './oauth2.js';
import type { CredentialsService } from './service.js';
import { apiError } from '../errors/catalogue.js';

export const OAUTH_STATES = 'oauth_states';
const STATE_TTL_MS = 15 * 60 * 1000;

interface OAuthStateRecord extends Record<string, unknown> {
  /** The request token (OAuth 1.0a) or the random state (OAuth 2). */
  state: string;
  provider: string;
  slug: string;
  /** The user who started it: only they may complete it (CSRF). */
  user_id: number;
  /** Sealed: the request token secret, or a PKCE verifier. */
  secret_sealed: string;
  expires_at: Date;
}

export type FlowResult = { kind: 'redirect'; location: string } | { kind: 'done'; ok: boolean; message: string };

const parseForm = (text: string) => Object.fromEntries(new URLSearchParams(text));

/**
 * The browser authorization of OAuth handlers (`/{auth_prefix}/{slug}/` in a popup): the
 * first visit redirects to the provider; its callback exchanges what it brought for the
 * account's tokens, stored sealed. A pending authorization is a single-use record bound
 * to the user who started it and expiring after 15 minutes.
 */
export class BrowserFlow {
  constructor(
    private readonly deps: {
      store: DocumentStore;
      vault: Vault;
      clock: Clock;
      fetch: GuardedFetch;
      /** The credentials domain's extension point (read once the host booted). */
      authProviders: ExtensionPointContributions<AuthProviderDefinition>;
      credentials: CredentialsService;
      insecure: boolean;
    },
  ) {}

  private get states(): Collection<OAuthStateRecord> {
    return this.deps.store.collection<OAuthStateRecord>(OAUTH_STATES);
  }

  async init(): Promise<void> {
    await this.states.createIndex({ fields: { state: 1 }, unique: true, name: 'oauth_states_state' });
  }

  private provider(key: string): AuthProviderDefinition {
    const provider = this.deps.authProviders.get(key);
    if (!provider)
      throw apiError('auth_provider_not_found', { message: `No auth provider '${key}' is registered for browser authorization` });
    return provider;
  }

  /** One step of the flow for `slug`, given the query the browser arrived with. */
  async step(slug: string, query: Record<string, string>, userId: number, callbackUrl: string): Promise<FlowResult> {
    const resolved = this.deps.credentials.resolve(slug);
    if (!resolved) return { kind: 'done', ok: false, message: `Handler '${slug}' needs no authorization.` };
    const provider = this.provider(resolved.provider);
    if (provider.oauth2) {
      if (query.code || query.error) return this.oauth2Callback(provider, query, userId, callbackUrl);
      return this.oauth2Start(provider, slug, userId, callbackUrl);
    }
    if (!provider.oauth1) return { kind: 'done', ok: false, message: `Provider '${provider.key}' has no browser authorization.` };
    if (query.denied || query.oauth_token) return this.oauth1Callback(provider, query, userId);
    return this.oauth1Start(provider, slug, userId, callbackUrl);
  }

  /** The provider's client id and secret: its first two credential fields (client_id/app_id...). */
  private async client(provider: AuthProviderDefinition): Promise<{ id: string; secret: string } | null> {
    const keys = await this.deps.credentials.applicationKeys(provider.key);
    const [idField, secretField] = provider.fields;
    const id = keys[idField ?? ''];
    const secret = keys[secretField ?? ''];
    return id && secret ? { id, secret } : null;
  }

  /** Takes the pending authorization `state` for this user, once; null when unknown, expired or someone else's. */
  private async takeState(state: string, provider: string, userId: number): Promise<OAuthStateRecord | null> {
    const pending = await this.states.findOneAndUpdate(
      { state, provider, user_id: userId },
      { $set: { expires_at: new Date(0) } },
      { returnDocument: 'before' },
    );
    if (pending) await this.states.deleteOne({ state });
    return pending && pending.expires_at.getTime() >= this.deps.clock.now().getTime() ? pending : null;
  }

  private async oauth2Start(provider: AuthProviderDefinition, slug: string, userId: number, callbackUrl: string): Promise<FlowResult> {
    const client = await this.client(provider);
    if (!client) return { kind: 'done', ok: false, message: `Save the ${provider.label} application keys first (PUT /auth/${slug}).` };
    const state = BrowserFlow.newState();
    const request = await authorizationRequest(provider.oauth2!(), client.id, callbackUrl, state);
    await this.states.insertOne({
      state,
      provider: provider.key,
      slug,
      user_id: userId,
      secret_sealed: this.deps.vault.encrypt(request.verifier, `oauth-state:${provider.key}`),
      expires_at: new Date(this.deps.clock.now().getTime() + STATE_TTL_MS),
    });
    return { kind: 'redirect', location: request.url };
  }

  private async oauth2Callback(
    provider: AuthProviderDefinition,
    query: Record<string, string>,
    userId: number,
    callbackUrl: string,
  ): Promise<FlowResult> {
    const pending = await this.takeState(query.state ?? '', provider.key, userId);
    if (!pending)
      return { kind: 'done', ok: false, message: 'This authorization is unknown, expired or was started by someone else; start it again.' };
    if (query.error) {
      const message =
        query.error === 'access_denied'
          ? `The authorization was denied at ${provider.label}.`
          : `${provider.label} answered: ${query.error}`;
      await this.deps.credentials.fail(
        provider.key,
        'oauth2',
        query.error === 'access_denied' ? 'access_denied' : 'authorization_failed',
        message,
      );
      return { kind: 'done', ok: false, message };
    }
    const client = await this.client(provider);
    try {
      const verifier = this.deps.vault.decrypt(pending.secret_sealed, `oauth-state:${provider.key}`);
      const tokens = await exchangeCode(
        provider.oauth2!(),
        client ?? { id: '', secret: '' },
        query,
        callbackUrl,
        verifier,
        this.deps.insecure,
      );
      const account = provider.account ? await provider.account(tokens.access_token, this.deps.fetch) : { username: '', id: '' };
      const expiresAt = tokens.expires_in ? new Date(this.deps.clock.now().getTime() + tokens.expires_in * 1000) : null;
      await this.deps.credentials.connect(
        provider.key,
        'oauth2',
        { access_token: tokens.access_token, ...(tokens.refresh_token ? { refresh_token: tokens.refresh_token } : {}) },
        account,
        expiresAt,
      );
      return { kind: 'done', ok: true, message: `Connected ${provider.label} account ${account.username}.` };
    } catch (error) {
      const reason = oauthErrorMessage(error);
      await this.deps.credentials.fail(
        provider.key,
        'oauth2',
        'access_token_failed',
        `${provider.label} refused the authorization code: ${reason}`,
      );
      return { kind: 'done', ok: false, message: `${provider.label} refused the authorization code: ${reason}` };
    }
  }

  private async oauth1Start(provider: AuthProviderDefinition, slug: string, userId: number, callbackUrl: string): Promise<FlowResult> {
    const keys = await this.deps.credentials.applicationKeys(provider.key);
    if (!keys.api_key || !keys.api_secret)
      return { kind: 'done', ok: false, message: `Save the ${provider.label} application keys first (PUT /auth/${slug}).` };
    const endpoints = provider.oauth1!();
    const signer = oauth1Signer(keys.api_key, keys.api_secret);
    const data = { oauth_callback: callbackUrl };
    const response = await this.deps.fetch(endpoints.requestTokenUrl, {
      method: 'POST',
      // oauth_* parameters travel in the Authorization header only (as the service expects).
      headers: { Authorization: oauth1Header(signer, { url: endpoints.requestTokenUrl, method: 'POST', data }) },
    });
    const text = await response.text();
    const token = parseForm(text);
    if (!response.ok || !token.oauth_token || !token.oauth_token_secret) {
      await this.deps.credentials.fail(
        provider.key,
        'oauth1',
        'request_token_failed',
        `${provider.label} refused the request token (HTTP ${response.status})`,
      );
      return { kind: 'done', ok: false, message: `${provider.label} refused the request token (HTTP ${response.status}).` };
    }
    await this.states.insertOne({
      state: token.oauth_token,
      provider: provider.key,
      slug,
      user_id: userId,
      secret_sealed: this.deps.vault.encrypt(token.oauth_token_secret, `oauth-state:${provider.key}`),
      expires_at: new Date(this.deps.clock.now().getTime() + STATE_TTL_MS),
    });
    const authorize = new URL(endpoints.authorizeUrl);
    authorize.searchParams.set('oauth_token', token.oauth_token);
    return { kind: 'redirect', location: authorize.toString() };
  }

  private async oauth1Callback(provider: AuthProviderDefinition, query: Record<string, string>, userId: number): Promise<FlowResult> {
    const token = query.oauth_token ?? query.denied ?? '';
    // Single use: the record goes whatever happens next.
    const pending = await this.takeState(token, provider.key, userId);
    if (!pending) {
      return { kind: 'done', ok: false, message: 'This authorization is unknown, expired or was started by someone else; start it again.' };
    }
    if (query.denied) {
      await this.deps.credentials.fail(provider.key, 'oauth1', 'access_denied', `The authorization was denied at ${provider.label}.`);
      return { kind: 'done', ok: false, message: `The authorization was denied at ${provider.label}.` };
    }
    const keys = await this.deps.credentials.applicationKeys(provider.key);
    const endpoints = provider.oauth1!();
    const signer = oauth1Signer(keys.api_key ?? '', keys.api_secret ?? '');
    const secret = this.deps.vault.decrypt(pending.secret_sealed, `oauth-state:${provider.key}`);
    const data = { oauth_verifier: query.oauth_verifier ?? '' };
    const response = await this.deps.fetch(endpoints.accessTokenUrl, {
      method: 'POST',
      headers: { Authorization: oauth1Header(signer, { url: endpoints.accessTokenUrl, method: 'POST', data }, { key: token, secret }) },
    });
    const tokens = parseForm(await response.text());
    if (!response.ok || !tokens.oauth_token || !tokens.oauth_token_secret) {
      await this.deps.credentials.fail(
        provider.key,
        'oauth1',
        'access_token_failed',
        `${provider.label} refused the access token (HTTP ${response.status})`,
      );
      return { kind: 'done', ok: false, message: `${provider.label} refused the access token (HTTP ${response.status}).` };
    }
    const account = provider.accountFrom?.(tokens) ?? { username: tokens.screen_name ?? '', id: tokens.user_id ?? '' };
    await this.deps.credentials.connect(
      provider.key,
      'oauth1',
      { oauth_token: tokens.oauth_token, oauth_token_secret: tokens.oauth_token_secret },
      account,
    );
    return { kind: 'done', ok: true, message: `Connected ${provider.label} account ${account.username}.` };
  }

  /** State records past their expiry (abandoned popups) are deleted. */
  async purgeExpired(): Promise<number> {
    return this.states.deleteMany({ expires_at: { $lt: this.deps.clock.now() } });
  }

  static newState(): string {
    return randomBytes(24).toString('base64url');
  }
}
