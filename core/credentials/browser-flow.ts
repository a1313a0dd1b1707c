import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { AuthProviderDefinition } from '../kernel/contributions.js';
import type { Clock } from '../kernel/clock.js';
import type { Registries } from '../kernel/registries.js';
import type { GuardedFetch } from '../security/guarded-fetch-types.js';
import type { Collection, DocumentStore } from '../store/port.js';
import type { Vault } from '../security/vault.js';
import { oauth1Header, oauth1Signer } from './oauth1.js';
import type { CredentialsService } from './service.js';

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
    private readonly deps: { store: DocumentStore; vault: Vault; clock: Clock; fetch: GuardedFetch; registries: Registries; credentials: CredentialsService },
  ) {}

  private get states(): Collection<OAuthStateRecord> {
    return this.deps.store.collection<OAuthStateRecord>(OAUTH_STATES);
  }

  async init(): Promise<void> {
    await this.states.createIndex({ fields: { state: 1 }, unique: true, name: 'oauth_states_state' });
  }

  private provider(key: string): AuthProviderDefinition {
    const provider = this.deps.registries.authProviders().find((p) => p.key === key);
    if (!provider) throw new ApiError('auth_provider_not_found', `No auth provider '${key}' is registered for browser authorization`, 404);
    return provider;
  }

  /** One step of the flow for `slug`, given the query the browser arrived with. */
  async step(slug: string, query: Record<string, string>, userId: number, callbackUrl: string): Promise<FlowResult> {
    const resolved = this.deps.credentials.resolve(slug);
    if (!resolved) return { kind: 'done', ok: false, message: `Handler '${slug}' needs no authorization.` };
    const provider = this.provider(resolved.provider);
    if (!provider.oauth1) return { kind: 'done', ok: false, message: `Provider '${provider.key}' has no browser authorization.` };
    if (query.denied || query.oauth_token) return this.oauth1Callback(provider, query, userId);
    return this.oauth1Start(provider, slug, userId, callbackUrl);
  }

  private async oauth1Start(provider: AuthProviderDefinition, slug: string, userId: number, callbackUrl: string): Promise<FlowResult> {
    const keys = await this.deps.credentials.applicationKeys(provider.key);
    if (!keys.api_key || !keys.api_secret) return { kind: 'done', ok: false, message: `Save the ${provider.label} application keys first (PUT /auth/${slug}).` };
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
      await this.deps.credentials.fail(provider.key, 'oauth1', 'request_token_failed', `${provider.label} refused the request token (HTTP ${response.status})`);
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
    const pending = await this.states.findOneAndUpdate({ state: token, provider: provider.key, user_id: userId }, { $set: { expires_at: new Date(0) } }, { returnDocument: 'before' });
    if (pending) await this.states.deleteOne({ state: token });
    if (!pending || pending.expires_at.getTime() < this.deps.clock.now().getTime()) {
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
      await this.deps.credentials.fail(provider.key, 'oauth1', 'access_token_failed', `${provider.label} refused the access token (HTTP ${response.status})`);
      return { kind: 'done', ok: false, message: `${provider.label} refused the access token (HTTP ${response.status}).` };
    }
    const account = provider.accountFrom?.(tokens) ?? { username: tokens.screen_name ?? '', id: tokens.user_id ?? '' };
    await this.deps.credentials.connect(provider.key, 'oauth1', { oauth_token: tokens.oauth_token, oauth_token_secret: tokens.oauth_token_secret }, account);
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
