import type * as OAuth from 'oauth4webapi';
import type { OAuth2Endpoints } from '../kernel/contributions.js';

// oauth4webapi loads with the first OAuth step (a connect or a refresh), not with the host.
let library: typeof OAuth | undefined;
const load = async () => (library ??= await import('oauth4webapi'));

/**
 * OAuth 2.0 with `oauth4webapi` (authorization code + PKCE, refresh), endpoints given
 * explicitly (no discovery). `insecure`: plain-http endpoints are allowed, only when the
 * host allows private addresses (tests and local demos).
 */
export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
}

const clientAuth = (oauth: typeof OAuth, endpoints: OAuth2Endpoints, secret: string) =>
  endpoints.clientAuth === 'basic' ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret);

const server = (endpoints: OAuth2Endpoints): OAuth.AuthorizationServer => ({
  issuer: endpoints.issuer,
  authorization_endpoint: endpoints.authorizationUrl,
  token_endpoint: endpoints.tokenUrl,
});

export async function authorizationRequest(
  endpoints: OAuth2Endpoints,
  clientId: string,
  redirectUri: string,
  state: string,
): Promise<{ url: string; verifier: string }> {
  const oauth = await load();
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(endpoints.authorizationUrl);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  if (endpoints.scopes.length) url.searchParams.set('scope', endpoints.scopes.join(' '));
  url.searchParams.set('state', state);
  for (const [name, value] of Object.entries(endpoints.extraParams ?? {})) url.searchParams.set(name, value);
  if (endpoints.pkce !== false) {
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return { url: url.toString(), verifier };
}

/** The callback's code exchanged for tokens (the state was checked by the caller). */
export async function exchangeCode(
  endpoints: OAuth2Endpoints,
  client: { id: string; secret: string },
  query: Record<string, string>,
  redirectUri: string,
  verifier: string,
  insecure: boolean,
): Promise<TokenSet> {
  const oauth = await load();
  const as = server(endpoints);
  const c: OAuth.Client = { client_id: client.id };
  const params = oauth.validateAuthResponse(as, c, new URLSearchParams(query), oauth.skipStateCheck);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    c,
    clientAuth(oauth, endpoints, client.secret),
    params,
    redirectUri,
    endpoints.pkce === false ? oauth.nopkce : verifier,
    { [oauth.allowInsecureRequests]: insecure },
  );
  const result = await oauth.processAuthorizationCodeResponse(as, c, response);
  return { access_token: result.access_token, refresh_token: result.refresh_token, expires_in: result.expires_in };
}

export async function refreshTokens(
  endpoints: OAuth2Endpoints,
  client: { id: string; secret: string },
  refreshToken: string,
  insecure: boolean,
): Promise<TokenSet> {
  const oauth = await load();
  const as = server(endpoints);
  const c: OAuth.Client = { client_id: client.id };
  const response = await oauth.refreshTokenGrantRequest(as, c, clientAuth(oauth, endpoints, client.secret), refreshToken, {
    [oauth.allowInsecureRequests]: insecure,
  });
  const result = await oauth.processRefreshTokenResponse(as, c, response);
  return { access_token: result.access_token, refresh_token: result.refresh_token ?? refreshToken, expires_in: result.expires_in };
}

/** A readable reason from whatever oauth4webapi threw (a refused grant, a bad response). */
export function oauthErrorMessage(error: unknown): string {
  // Nothing oauth4webapi threw exists before it loaded.
  if (library && error instanceof library.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
