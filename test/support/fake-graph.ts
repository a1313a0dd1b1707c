// A fake Graph-API service on 127.0.0.1: the OAuth 2.0 dialog and token endpoint (code
// and refresh grants, client secret checked), /me, page feed posts and the threads
// container + publish endpoints, each checking the bearer of a current access token.
import { createFakeServer, type FakeReply, type FakeServer } from '../../sdk/testing/index.js';

export interface FakeGraph {
  server: FakeServer;
  readonly app: { id: string; secret: string };
  feedPosts: Array<{ page: string; message: string; link?: string }>;
  threads: Array<{ text: string }>;
  refreshes: number;
  refusals: string[];
  denyNext: boolean;
}

const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;

export async function startFakeGraph(): Promise<FakeGraph> {
  const app = { id: 'app-123', secret: 'app-secret-value-xyz' };
  const codes = new Map<string, string>(); // code -> redirect_uri
  let current = '';
  let refreshToken = '';
  let issued = 0;
  const containers = new Map<string, string>();
  const state: FakeGraph = { server: undefined as never, app, feedPosts: [], threads: [], refreshes: 0, refusals: [], denyNext: false };
  const refuse = (reason: string, status = 400): FakeReply => (
    state.refusals.push(reason), { status, body: { error: { message: reason, type: 'OAuthException', code: status === 401 ? 190 : 100 } } }
  );
  const issue = () => {
    issued += 1;
    current = `tok-${issued}`;
    refreshToken = `refresh-${issued}`;
    return { access_token: current, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken };
  };
  state.server = await createFakeServer((req): FakeReply => {
    const url = new URL(`${state.server.url}${req.url}`);
    const params = req.method === 'POST' ? form(req.body) : Object.fromEntries(url.searchParams);
    if (req.method === 'GET' && url.pathname === '/dialog/oauth') {
      if (params.client_id !== app.id || params.response_type !== 'code' || !params.redirect_uri || !params.state)
        return refuse('dialog: bad request');
      const back = new URL(params.redirect_uri);
      back.searchParams.set('state', params.state);
      if (state.denyNext) {
        state.denyNext = false;
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = `code-${codes.size + 1}`;
        codes.set(code, params.redirect_uri);
        back.searchParams.set('code', code);
      }
      return { status: 302, headers: { location: back.toString() }, body: '' };
    }
    if (req.method === 'POST' && url.pathname === '/oauth/access_token') {
      if (params.client_id !== app.id || params.client_secret !== app.secret) return refuse('token: bad client credentials', 401);
      if (params.grant_type === 'authorization_code') {
        const redirect = codes.get(params.code ?? '');
        if (!redirect || redirect !== params.redirect_uri) return refuse('token: bad code or redirect_uri');
        codes.delete(params.code!);
        return { body: issue() };
      }
      if (params.grant_type === 'refresh_token') {
        if (params.refresh_token !== refreshToken) return refuse('token: bad refresh token');
        state.refreshes += 1;
        return { body: issue() };
      }
      return refuse('token: unsupported grant');
    }
    const token = params.access_token;
    if (!token || token !== current) return refuse(`bad access token on ${url.pathname}`, 401);
    if (req.method === 'GET' && url.pathname === '/me') return { body: { id: '77', name: 'Ada Page Admin' } };
    const feed = /^\/([^/]+)\/feed$/.exec(url.pathname);
    if (req.method === 'POST' && feed) {
      if (!params.message) return refuse('feed: message required');
      state.feedPosts.push({ page: feed[1]!, message: params.message, link: params.link });
      return { body: { id: `${feed[1]}_${state.feedPosts.length}` } };
    }
    if (req.method === 'POST' && url.pathname === '/threads/me/threads') {
      if (params.media_type !== 'TEXT' || !params.text) return refuse('threads: TEXT with text required');
      if (graphemes(params.text) > 500) return refuse('threads: text over 500 characters');
      const id = `container-${containers.size + 1}`;
      containers.set(id, params.text);
      return { body: { id } };
    }
    if (req.method === 'POST' && url.pathname === '/threads/me/threads_publish') {
      const text = containers.get(params.creation_id ?? '');
      if (text === undefined) return refuse('threads_publish: unknown container');
      containers.delete(params.creation_id!);
      state.threads.push({ text });
      return { body: { id: `thread-${state.threads.length}` } };
    }
    return { status: 404, body: { error: { message: 'unknown path' } } };
  });
  return state;
}
