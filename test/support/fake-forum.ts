// A fake forum API (Reddit shape) on 127.0.0.1: OAuth 2.0 authorize and token endpoints
// (client authenticated with HTTP Basic, `duration=permanent` required), /api/v1/me and
// a paginated /r/{community}/new listing, each checking the bearer token.
import { createFakeServer, type FakeReply, type FakeServer } from '../../sdk/testing/index.js';

export interface FakeForum {
  server: FakeServer;
  readonly app: { id: string; secret: string };
  refusals: string[];
  listings: number;
}

export async function startFakeForum(): Promise<FakeForum> {
  const app = { id: 'forum-client', secret: 'forum-secret-abcdef' };
  const codes = new Map<string, string>();
  const token = 'forum-access-1';
  const state: FakeForum = { server: undefined as never, app, refusals: [], listings: 0 };
  const refuse = (reason: string, status = 400): FakeReply => (state.refusals.push(reason), { status, body: { error: reason } });
  const post = (id: string, title: string) => ({
    kind: 't3',
    data: {
      id,
      name: `t3_${id}`,
      title,
      selftext: `Body of ${title}`,
      url: `https://example.org/${id}`,
      permalink: `/r/news/comments/${id}/`,
      author: 'someone',
      created_utc: 1795400000,
    },
  });
  state.server = await createFakeServer((req): FakeReply => {
    const url = new URL(`${state.server.url}${req.url}`);
    if (req.method === 'GET' && url.pathname === '/api/v1/authorize') {
      const q = Object.fromEntries(url.searchParams);
      if (q.client_id !== app.id || q.response_type !== 'code' || q.duration !== 'permanent' || !q.state || !q.redirect_uri)
        return refuse(`authorize: bad request ${JSON.stringify(q)}`);
      const code = `fc-${codes.size + 1}`;
      codes.set(code, q.redirect_uri);
      const back = new URL(q.redirect_uri);
      back.searchParams.set('state', q.state);
      back.searchParams.set('code', code);
      return { status: 302, headers: { location: back.toString() }, body: '' };
    }
    if (req.method === 'POST' && url.pathname === '/api/v1/access_token') {
      // RFC 6749 2.3.1: id and secret form-encoded, then Basic; decoded as the service does.
      const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      if (!req.headers.authorization?.startsWith('Basic ') || id !== app.id || secret !== app.secret)
        return refuse('token: client not authenticated with HTTP Basic', 401);
      const form = Object.fromEntries(new URLSearchParams(req.body));
      if (form.grant_type !== 'authorization_code' || codes.get(form.code ?? '') !== form.redirect_uri) return refuse('token: bad code');
      codes.delete(form.code!);
      return {
        body: { access_token: token, token_type: 'bearer', expires_in: 86400, refresh_token: 'forum-refresh-1', scope: 'identity read' },
      };
    }
    if (req.headers.authorization !== `Bearer ${token}`) return refuse(`bad bearer on ${url.pathname}`, 401);
    if (url.pathname === '/api/v1/me') return { body: { name: 'ada_reads', id: 'u123' } };
    if (url.pathname === '/r/news/new') {
      state.listings += 1;
      const after = url.searchParams.get('after');
      if (!after) return { body: { kind: 'Listing', data: { after: 't3_b', children: [post('c', 'Third'), post('b', 'Second')] } } };
      if (after === 't3_b') return { body: { kind: 'Listing', data: { after: null, children: [post('a', 'First')] } } };
      return refuse(`listing: unexpected after ${after}`);
    }
    return { status: 404, body: { error: 404 } };
  });
  return state;
}
