/**
 * Service-account authorization (the key file a cloud console hands out): an RS256 JWT
 * assertion signed with the key file's private key, exchanged at the key file's
 * `token_uri` for an access token (RFC 7523, grant type jwt-bearer). The token is kept in
 * this process until a minute before it expires: it is short-lived, a host fetches one
 * per hour at most, and keeping it out of the store means it never needs sealing.
 */
// jose loads on the first token exchange (or key check), not at start-up.
let joseModule: Promise<typeof import('jose')> | null = null;
const loadJose = () => (joseModule ??= import('jose'));
import type { Clock, GuardedFetch } from '../index.js';

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  token_uri: string;
  private_key_id?: string;
}

/** Parses and checks a key file's JSON; throws an Error whose message says what is wrong (never the key). */
export async function parseServiceAccount(text: string): Promise<ServiceAccountKey> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('service_account is not JSON: give the key file as downloaded');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('service_account must be a JSON object (the key file)');
  const key = value as Record<string, unknown>;
  for (const field of ['client_email', 'private_key', 'token_uri'] as const) {
    if (typeof key[field] !== 'string' || key[field] === '') throw new Error(`service_account lacks ${field}`);
  }
  if (key.type !== undefined && key.type !== 'service_account') throw new Error("service_account's type must be 'service_account'");
  if (!/^https?:\/\/[^\s]+$/.test(key.token_uri as string)) throw new Error("service_account's token_uri must be an http(s) URL");
  try {
    const { importPKCS8 } = await loadJose();
    await importPKCS8(key.private_key as string, 'RS256');
  } catch {
    throw new Error("service_account's private_key is not an RSA private key in PKCS#8 PEM");
  }
  return {
    client_email: key.client_email as string,
    private_key: key.private_key as string,
    token_uri: key.token_uri as string,
    ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}),
  };
}

/** Why the token endpoint refused, in words that name no secret. */
export class TokenExchangeError extends Error {
  constructor(
    message: string,
    readonly remoteStatus: number | null,
  ) {
    super(message);
  }
}

interface CachedToken {
  token: string;
  expiresAtMs: number;
}

export class ServiceAccountTokens {
  private readonly cache = new Map<string, CachedToken>();

  constructor(private readonly clock: Clock) {}

  async accessToken(key: ServiceAccountKey, scope: string, fetch: GuardedFetch): Promise<string> {
    const cacheKey = `${key.client_email}\n${key.private_key_id ?? ''}\n${key.token_uri}\n${scope}`;
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAtMs - 60_000 > nowMs) return cached.token;

    const iat = Math.floor(nowMs / 1000);
    const { SignJWT, importPKCS8 } = await loadJose();
    const assertion = await new SignJWT({ scope })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) })
      .setIssuer(key.client_email)
      .setAudience(key.token_uri)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(await importPKCS8(key.private_key, 'RS256'));
    const res = await fetch(key.token_uri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      timeoutMs: 15_000,
      maxBytes: 64 * 1024,
    });
    let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      body = res.json();
    } catch {
      // handled below
    }
    if (!res.ok || typeof body.access_token !== 'string' || body.access_token === '') {
      const reason =
        typeof body.error_description === 'string'
          ? body.error_description
          : typeof body.error === 'string'
            ? body.error
            : `HTTP ${res.status}`;
      throw new TokenExchangeError(
        `The service account's token endpoint refused the key (HTTP ${res.status}): ${reason.slice(0, 200)}`,
        res.status,
      );
    }
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    this.cache.set(cacheKey, { token: body.access_token, expiresAtMs: nowMs + lifetime * 1000 });
    return body.access_token;
  }
}
