// A fake GitHub REST API on 127.0.0.1 in the real shapes docsync reads: GET /repos/{o}/{r},
// /repos/{o}/{r}/git/trees/{sha}?recursive=1, /repos/{o}/{r}/git/blobs/{sha}, /user and
// /rate_limit, with rate-limit headers on every answer. It checks the Authorization header
// as GitHub does (401 "Bad credentials"), and can answer a repository with 404, a SAML SSO
// 403 (`x-github-sso`) or an exhausted rate limit. Blob and tree SHAs are git's own.
import { createHash } from 'node:crypto';
import { createFakeServer, type FakeServer, type RecordedRequest } from '../../sdk/testing/index.js';

export interface FakeRepo {
  owner: string;
  repo: string;
  branch: string;
  private: boolean;
  files: Map<string, string>;
  /** Answer every request for this repository this way. */
  fail?: 'sso' | 'rate_limit' | 'not_found';
}

export interface FakeGithub {
  server: FakeServer;
  url: string;
  repos: Map<string, FakeRepo>;
  addRepo(owner: string, repo: string, files: Record<string, string>, options?: { branch?: string; private?: boolean }): FakeRepo;
  /** Requests of a kind since the last reset: 'repo', 'tree', 'blob', 'user', 'rate_limit', 'other'. */
  count(kind: string): number;
  resetCounts(): void;
  /** Blob requests answered before the service starts failing them with 502 (null: no limit), to cut a sync short. */
  blobBudget: number | null;
  /** Blob requests wait for this before they are answered (null: at once), to hold a sync mid-way. */
  blobGate: Promise<void> | null;
  close(): Promise<void>;
}

const shaMemo = new Map<string, string>();
export const blobSha = (content: string): string => {
  const known = shaMemo.get(content);
  if (known) return known;
  const bytes = Buffer.from(content, 'utf8');
  const sha = createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');
  if (shaMemo.size < 100_000) shaMemo.set(content, sha);
  return sha;
};

function treeSha(files: Map<string, string>): string {
  const hash = createHash('sha1');
  for (const path of [...files.keys()].sort()) hash.update(`${path}\0${blobSha(files.get(path)!)}\n`);
  return hash.digest('hex');
}

/** Every folder and file of a repository as the recursive tree lists them, in path order. */
function treeEntries(files: Map<string, string>, repoUrl: string) {
  const dirs = new Set<string>();
  for (const path of files.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return [
    ...[...dirs].map((path) => ({
      path,
      mode: '040000',
      type: 'tree',
      sha: createHash('sha1').update(path).digest('hex'),
      url: `${repoUrl}/git/trees/x`,
    })),
    ...[...files].map(([path, content]) => ({
      path,
      mode: '100644',
      type: 'blob',
      sha: blobSha(content),
      size: Buffer.byteLength(content),
      url: `${repoUrl}/git/blobs/${blobSha(content)}`,
    })),
  ].sort((a, b) => a.path.localeCompare(b.path));
}

/** A repository set to fail: SAML SSO required, or the rate limit spent (null: it answers). */
function refusal(fail: FakeRepo['fail'], owner: string, rate: Record<string, string>) {
  if (fail === 'sso') {
    return {
      status: 403,
      headers: { ...rate, 'x-github-sso': `required; url=https://github.com/orgs/${owner}/sso?authorization_request=AbC123` },
      body: {
        message:
          'Resource protected by organization SAML enforcement. You must grant your Personal Access token access to this organization.',
        documentation_url: 'https://docs.github.com/articles/authenticating-to-a-github-organization-with-saml-single-sign-on/',
        status: '403',
      },
    };
  }
  if (fail === 'rate_limit') {
    return {
      status: 403,
      headers: { ...rate, 'x-ratelimit-remaining': '0' },
      body: {
        message: 'API rate limit exceeded for user ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting',
        status: '403',
      },
    };
  }
  return null;
}

export async function startFakeGithub(token: string): Promise<FakeGithub> {
  const repos = new Map<string, FakeRepo>();
  const counts = new Map<string, number>();
  const bump = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const rate = {
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4990',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'x-ratelimit-resource': 'core',
  };
  let base = '';
  const notFound = {
    status: 404,
    headers: rate,
    body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
  };

  const respond = async (req: RecordedRequest) => {
    const auth = req.headers.authorization ?? '';
    if (auth !== `token ${token}` && auth !== `Bearer ${token}`) {
      bump('unauthorized');
      return {
        status: 401,
        headers: rate,
        body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
      };
    }
    if (req.method !== 'GET') return { status: 404, headers: rate, body: { message: 'Not Found' } };
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/user') {
      bump('user');
      return { headers: { ...rate, 'x-oauth-scopes': 'repo, read:org' }, body: { login: 'docs-bot', id: 1, type: 'User' } };
    }
    if (url.pathname === '/rate_limit') {
      bump('rate_limit');
      const core = { limit: 5000, used: 10, remaining: 4990, reset: Number(rate['x-ratelimit-reset']) };
      return { headers: rate, body: { resources: { core, search: { ...core, limit: 30 } }, rate: core } };
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(?:\/git\/(trees|blobs)\/([^/]+))?$/.exec(url.pathname);
    if (!match) {
      bump('other');
      return notFound;
    }
    const [, owner, name, kind, ref] = match;
    bump(kind === 'trees' ? 'tree' : kind === 'blobs' ? 'blob' : 'repo');
    const repo = repos.get(`${owner}/${name}`);
    if (!repo || repo.fail === 'not_found') return notFound;
    const refused = refusal(repo.fail, owner!, rate);
    if (refused) return refused;
    const html = `${base}/web/${owner}/${name}`;
    if (!kind) {
      return {
        headers: rate,
        body: {
          id: 1,
          name,
          full_name: `${owner}/${name}`,
          private: repo.private,
          html_url: html,
          default_branch: repo.branch,
          owner: { login: owner },
        },
      };
    }
    if (kind === 'trees') {
      if (ref !== repo.branch && ref !== treeSha(repo.files)) return notFound;
      if (!url.searchParams.has('recursive')) throw new Error('the tree was asked for without recursive');
      const tree = treeEntries(repo.files, `${base}/repos/${owner}/${name}`);
      return {
        headers: rate,
        body: { sha: treeSha(repo.files), url: `${base}/repos/${owner}/${name}/git/trees/${treeSha(repo.files)}`, tree, truncated: false },
      };
    }
    if (fake.blobGate) await fake.blobGate;
    if (fake.blobBudget !== null) {
      if (fake.blobBudget <= 0) return { status: 502, headers: rate, body: { message: 'Server Error' } };
      fake.blobBudget--;
    }
    const content = [...repo.files.values()].find((c) => blobSha(c) === ref);
    if (content === undefined) return notFound;
    // GitHub wraps base64 at 60 characters.
    const encoded = Buffer.from(content, 'utf8')
      .toString('base64')
      .replace(/(.{60})/g, '$1\n');
    return {
      headers: rate,
      body: {
        sha: ref,
        node_id: 'B_1',
        size: Buffer.byteLength(content),
        url: `${base}/repos/${owner}/${name}/git/blobs/${ref}`,
        content: encoded,
        encoding: 'base64',
      },
    };
  };

  const server = await createFakeServer(respond);
  base = server.url;
  const fake: FakeGithub = {
    server,
    blobBudget: null,
    blobGate: null,
    url: server.url,
    repos,
    addRepo(owner, repo, files, options = {}) {
      const entry: FakeRepo = {
        owner,
        repo,
        branch: options.branch ?? 'main',
        private: options.private ?? false,
        files: new Map(Object.entries(files)),
      };
      repos.set(`${owner}/${repo}`, entry);
      return entry;
    },
    count: (kind) => counts.get(kind) ?? 0,
    resetCounts: () => counts.clear(),
    close: () => server.close(),
  };
  return fake;
}
