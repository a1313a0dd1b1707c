import { fetchHonouringRetryAfter, oauth1Authorization, packetText, type DataPacket, type HandlerContext } from '../../sdk/index.js';
import { fitWeighted } from './text-weight.js';

export const TEXT_LIMIT = 280;

export interface MicroblogSettings {
  /** The API's base URL (configurable, for a proxy or a test double). */
  apiUrl: string;
}

/**
 * Publishes each packet as a post (`POST /2/tweets`, OAuth 1.0a user context; a JSON body
 * is not part of the signature). The packet comes back with the post's id and URL and
 * whether its text was shortened, for a later update step and the job's outcome.
 */
export async function publishPosts(ctx: HandlerContext, settings: MicroblogSettings, packets: DataPacket[]): Promise<DataPacket[]> {
  const credentials = ctx.credentials;
  if (!credentials?.tokens?.oauth_token || !credentials.fields.api_key)
    throw new Error('The microblog account is not connected: save its keys and authorize it (GET /auth/microblog/status)');
  const url = `${settings.apiUrl.replace(/\/+$/, '')}/2/tweets`;
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const { body, link } = packetText(packet);
    const { text, shortened } = fitWeighted(body, link, TEXT_LIMIT);
    // Built per attempt: a retry after a 429 needs a fresh nonce and timestamp.
    const request = () => ({
      method: 'POST',
      headers: {
        Authorization: oauth1Authorization(
          { key: credentials.fields.api_key!, secret: credentials.fields.api_secret ?? '' },
          { url, method: 'POST' },
          { key: credentials.tokens!.oauth_token!, secret: credentials.tokens!.oauth_token_secret ?? '' },
        ),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ text }),
    });
    const response = await fetchHonouringRetryAfter(ctx.fetch, url, request, 'The microblog service');
    let answer: { data?: { id?: string }; title?: string; detail?: string } = {};
    try {
      answer = response.json();
    } catch {
      // not JSON: the status says enough
    }
    if (response.status === 401 || response.status === 403) {
      const reason = answer.detail ?? answer.title ?? `HTTP ${response.status}`;
      if (response.status === 401)
        await credentials.markFailed('invalid_token', `The microblog service refused the account's tokens: ${reason}`);
      throw new Error(`The microblog service refused the post: ${reason}`);
    }
    if (!response.ok || !answer.data?.id)
      throw new Error(`The microblog service answered HTTP ${response.status}: ${answer.detail ?? answer.title ?? 'no post id'}`);
    const id = answer.data.id;
    const username = credentials.account?.username || 'i';
    out.push({
      ...packet,
      data: { ...packet.data, published_text: text },
      metadata: { ...packet.metadata, published_id: id, published_url: `https://x.com/${username}/status/${id}`, shortened },
    });
  }
  return out;
}
