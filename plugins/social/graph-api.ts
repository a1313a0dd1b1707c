import { fetchHonouringRetryAfter, type GuardedFetch, type HandlerContext } from '../../sdk/index.js';

/** The connected account's access token, or a clear failure. */
export function accessToken(ctx: HandlerContext, service: string): string {
  const token = ctx.credentials?.tokens?.access_token;
  if (!token)
    throw new Error(
      `The ${service} account is not connected: save its app keys and authorize it (GET /auth/${ctx.credentials?.provider ?? 'social'}/status)`,
    );
  return token;
}

/**
 * One Graph-API call (form-encoded POST, token as a parameter). An expired or invalid token
 * (HTTP 401, or error code 190) marks the account not authenticated; other errors fail the
 * step with the service's message.
 */
export async function graphPost(
  ctx: HandlerContext,
  url: string,
  params: Record<string, string>,
  service: string,
): Promise<{ id: string }> {
  const response = await fetchHonouringRetryAfter(
    ctx.fetch,
    url,
    { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() },
    service,
  );
  let answer: { id?: string; error?: { message?: string; code?: number } } = {};
  try {
    answer = response.json();
  } catch {
    // not JSON: the status says enough
  }
  if (response.status === 401 || answer.error?.code === 190) {
    await ctx.credentials?.markFailed(
      'invalid_token',
      `${service} refused the access token: ${answer.error?.message ?? `HTTP ${response.status}`}`,
    );
  }
  if (!response.ok || !answer.id) throw new Error(`${service} answered HTTP ${response.status}: ${answer.error?.message ?? 'no id'}`);
  return { id: answer.id };
}

/** The account behind an access token: GET {graph}/me?fields=id,name. */
export async function graphAccount(graphUrl: string, token: string, fetch: GuardedFetch): Promise<{ username: string; id: string }> {
  const response = await fetch(`${graphUrl}/me?fields=id,name&access_token=${encodeURIComponent(token)}`);
  const me = response.json<{ id?: string; name?: string }>();
  return { username: me.name ?? '', id: me.id ?? '' };
}
