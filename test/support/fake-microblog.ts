// A fake microblog service on 127.0.0.1 speaking its wire format: the OAuth 1.0a
// three-legged endpoints and POST /2/tweets, each request's signature checked by an
// independent verifier, refusing (401) what the real service would refuse.
import { createFakeServer, type FakeReply, type FakeServer } from '../../sdk/testing/index.js';
import { verifyOAuth1 } from './oauth1-verify.js';
import { weightedLength } from '../../plugins/microblog/text-weight.js';

export interface FakeMicroblog {
  server: FakeServer;
  readonly consumer: { key: string; secret: string };
  /** What the fake accepted: posts and the problems it refused requests for. */
  posts: Array<{ text: string; id: string }>;
  refusals: string[];
  /** The next authorize visit is denied by the "user". */
  denyNext: boolean;
  /** Answers for the next POST /2/tweets calls, before any real handling (429s, 401s). */
  nextTweetAnswers: FakeReply[];
}

export async function startFakeMicroblog(): Promise<FakeMicroblog> {
  const consumer = { key: 'ck-fake-consumer', secret: 'cs-fake-consumer-secret' };
  const requestTokens = new Map<string, { secret: string; callback: string; verifier: string }>();
  const accessToken = { key: 'at-42-ada', secret: 'ats-ada-secret-value' };
  const state: FakeMicroblog = { server: undefined as never, consumer, posts: [], refusals: [], denyNext: false, nextTweetAnswers: [] };
  const refuse = (reason: string) => (state.refusals.push(reason), { status: 401, body: { title: 'Unauthorized', detail: reason } });
  state.server = await createFakeServer((req): FakeReply => {
    const url = `${state.server.url}${req.url}`;
    const path = new URL(url).pathname;
    const form = req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(req.body))
      : {};
    if (req.method === 'POST' && path === '/oauth/request_token') {
      const check = verifyOAuth1({ method: 'POST', url, header: req.headers.authorization, form, consumerSecret: consumer.secret });
      if (!check.ok || check.params.oauth_consumer_key !== consumer.key)
        return refuse(`request_token: ${check.reason ?? 'unknown consumer'}`);
      const callback = check.params.oauth_callback ?? form.oauth_callback;
      if (!callback) return refuse('request_token: no oauth_callback');
      const token = `rt-${requestTokens.size + 1}`;
      requestTokens.set(token, { secret: `rts-${token}-secret`, callback, verifier: `v-${token}` });
      return {
        body: `oauth_token=${token}&oauth_token_secret=rts-${token}-secret&oauth_callback_confirmed=true`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
    }
    if (req.method === 'GET' && path === '/oauth/authorize') {
      const token = new URL(url).searchParams.get('oauth_token') ?? '';
      const pending = requestTokens.get(token);
      if (!pending) return { status: 400, body: 'unknown request token' };
      const back = new URL(pending.callback);
      if (state.denyNext) {
        state.denyNext = false;
        back.searchParams.set('denied', token);
      } else {
        back.searchParams.set('oauth_token', token);
        back.searchParams.set('oauth_verifier', pending.verifier);
      }
      return { status: 302, headers: { location: back.toString() }, body: '' };
    }
    if (req.method === 'POST' && path === '/oauth/access_token') {
      const token = /oauth_token="([^"]+)"/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const pending = requestTokens.get(decodeURIComponent(token));
      if (!pending) return refuse('access_token: unknown request token');
      const check = verifyOAuth1({
        method: 'POST',
        url,
        header: req.headers.authorization,
        form,
        consumerSecret: consumer.secret,
        tokenSecret: pending.secret,
      });
      if (!check.ok) return refuse(`access_token: ${check.reason}`);
      if ((form.oauth_verifier ?? check.params.oauth_verifier) !== pending.verifier) return refuse('access_token: wrong verifier');
      requestTokens.delete(decodeURIComponent(token));
      return {
        body: `oauth_token=${accessToken.key}&oauth_token_secret=${accessToken.secret}&user_id=42&screen_name=ada`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
    }
    if (req.method === 'POST' && path === '/2/tweets') {
      const scripted = state.nextTweetAnswers.shift();
      if (scripted) return scripted;
      const check = verifyOAuth1({
        method: 'POST',
        url,
        header: req.headers.authorization,
        consumerSecret: consumer.secret,
        tokenSecret: accessToken.secret,
      });
      if (!check.ok || check.params.oauth_token !== accessToken.key) return refuse(`tweets: ${check.reason ?? 'unknown token'}`);
      if (!req.headers['content-type']?.startsWith('application/json'))
        return { status: 400, body: { title: 'Invalid Request', detail: 'JSON body expected' } };
      const { text } = req.json<{ text?: string }>();
      if (typeof text !== 'string' || text.length === 0)
        return { status: 400, body: { title: 'Invalid Request', detail: 'text is required' } };
      if (weightedLength(text) > 280) return { status: 403, body: { title: 'Forbidden', detail: 'Your Tweet text is too long.' } };
      const id = String(1_800_000_000_000_000_000n + BigInt(state.posts.length + 1));
      state.posts.push({ text, id });
      return { status: 201, body: { data: { id, text, edit_history_tweet_ids: [id] } } };
    }
    return { status: 404, body: { title: 'Not Found' } };
  });
  return state;
}
