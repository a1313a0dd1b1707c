// Fakes on 127.0.0.1 for the review step's process tests (issue 55): feeds at
// /feeds/<name>.xml (three items each, guids <name>-1..3; one request can be held) and a remote at POST /posts that
// records what it receives. A post is created when the remote answers it; a post it holds
// (`hold`) is answered only on release, and one whose client went away first (a killed
// host) is recorded as abandoned and never created, as a remote that commits with its
// answer does.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rssXml } from './feed-server.js';

export interface RemotePost {
  job_id: number;
  guid: string;
  title: string;
  id: string;
}

export interface ReviewRemote {
  /** http://127.0.0.1:<port>/feeds/<name>.xml */
  feedUrl(name: string): string;
  /** http://127.0.0.1:<port>/posts */
  readonly postsUrl: string;
  /** Posts created (answered 201), in order. */
  readonly created: RemotePost[];
  /** Every POST /posts received, answered or not, by guid. */
  readonly received: string[];
  /** Posts whose client went away before the answer. */
  readonly abandoned: string[];
  /** The guid whose next POST is held unanswered; `heldNow` is set once one is. */
  hold: string | null;
  heldNow: string | null;
  /** The feed whose next GET is held unanswered (a fetch step that does not end); `feedHeld` is set once one is. */
  holdFeed: string | null;
  feedHeld: string | null;
  close(): Promise<void>;
}

export async function startReviewRemote(): Promise<ReviewRemote> {
  let count = 0;
  const state = { created: [] as RemotePost[], received: [] as string[], abandoned: [] as string[] };
  const remote = { ...state, hold: null, heldNow: null, holdFeed: null, feedHeld: null } as unknown as ReviewRemote;
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    // Separate calls: restify (when loaded) patches writeHead to return nothing.
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const feed = /^\/feeds\/([a-z0-9]+)\.xml$/.exec(req.url ?? '');
    if (req.method === 'GET' && feed) {
      const name = feed[1]!;
      if (remote.holdFeed === name) {
        remote.holdFeed = null;
        remote.feedHeld = name;
        return;
      }
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(rssXml([1, 2, 3].map((n) => ({ guid: `${name}-${n}`, title: `Story ${name} ${n}` }))));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/posts') return answer(res, 404, { error: 'not found' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<RemotePost, 'id'>;
      remote.received.push(body.guid);
      const create = () => {
        const post = { ...body, id: `remote-${++count}` };
        remote.created.push(post);
        answer(res, 201, { id: post.id });
      };
      if (remote.hold !== body.guid) return create();
      remote.hold = null;
      remote.heldNow = body.guid;
      // Held: never answered while the client is there; its going away leaves no post.
      res.on('close', () => {
        if (!res.writableEnded) remote.abandoned.push(body.guid);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(remote, {
    feedUrl: (name: string) => `${base}/feeds/${name}.xml`,
    postsUrl: `${base}/posts`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  });
  return remote;
}
