import { oauth1Authorization, type DataPacket, type HandlerContext } from '../../sdk/index.js';
import { fitText } from './text-weight.js';

export const TEXT_LIMIT = 280;

export interface MicroblogSettings {
  /** The API's base URL (configurable, for a proxy or a test double). */
  apiUrl: string;
}

const stripHtml = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/\s+/g, ' ').trim();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The longest Retry-After honoured by waiting; a longer one fails the step saying when to retry. */
const MAX_WAIT_SECONDS = 30;

/** The text of one packet: its content (or title) as plain text, then its link. */
export function postText(packet: DataPacket): { body: string; link: string | null } {
  const data = packet.data as Record<string, unknown>;
  const body = stripHtml(String(data.content ?? data.title ?? ''));
  const link = typeof data.link === 'string' ? data.link : typeof packet.metadata.source_url === 'string' ? packet.metadata.source_url : null;
  return { body, link };
}

/**
 * Publishes each packet as a post (`POST /2/tweets`, OAuth 1.0a user context; a JSON body
 * is not part of the signature). The packet comes back with the post's id and URL and
 * whether its text was shortened, for a later update step and the job's outcome.
 */
export async function publishPosts(ctx: HandlerContext, settings: MicroblogSettings, packets: DataPacket[]): Promise<DataPacket[]> {
  const credentials = ctx.credentials;
  if (!credentials?.tokens?.oauth_token || !credentials.fields.api_key) throw new Error('The microblog account is not connected: save its keys and authorize it (GET /auth/microblog/status)');
  const url = `${settings.apiUrl.replace(/\/+$/, '')}/2/tweets`;
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const { body, link } = postText(packet);
    const { text, shortened } = fitText(body, link, TEXT_LIMIT);
    const send = () =>
      ctx.fetch(url, {
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
    let response = await send();
    if (response.status === 429) {
      const wait = Number(response.headers['retry-after'] ?? NaN);
      if (!(wait >= 0 && wait <= MAX_WAIT_SECONDS)) throw new Error(`The microblog service is rate limiting; retry after ${Number.isFinite(wait) ? `${wait} s` : 'a while'}`);
      await sleep(wait * 1000);
      response = await send();
    }
    let answer: { data?: { id?: string }; title?: string; detail?: string } = {};
    try {
      answer = response.json();
    } catch {
      // not JSON: the status says enough
    }
    if (response.status === 401 || response.status === 403) {
      const reason = answer.detail ?? answer.title ?? `HTTP ${response.status}`;
      if (response.status === 401) await credentials.markFailed('invalid_token', `The microblog service refused the account's tokens: ${reason}`);
      throw new Error(`The microblog service refused the post: ${reason}`);
    }
    if (!response.ok || !answer.data?.id) throw new Error(`The microblog service answered HTTP ${response.status}: ${answer.detail ?? answer.title ?? 'no post id'}`);
    const id = answer.data.id;
    const username = credentials.account?.username || 'i';
    out.push({ ...packet, data: { ...packet.data, published_text: text }, metadata: { ...packet.metadata, published_id: id, published_url: `https://x.com/${username}/status/${id}`, shortened } });
  }
  return out;
}
