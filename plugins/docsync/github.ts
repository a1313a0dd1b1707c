/**
 * The source-hosting service: GitHub's REST API through @octokit/rest, at a configurable
 * base URL. Only what a sync needs: the repository (default branch), its tree at that
 * branch, blobs, and the token's own diagnostics. Failures become SourceErrors carrying
 * what a report shows (owner, repo, an SSO address, the rate-limit reset).
 */
import type { Octokit } from '@octokit/rest';

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface RepoInfo extends RepoRef {
  full_name: string;
  default_branch: string;
  html_url: string;
  private: boolean;
}

export interface TreeFile {
  path: string;
  sha: string;
  size: number;
}

export interface RepoTree {
  sha: string;
  truncated: boolean;
  files: TreeFile[];
}

export type SourceErrorKind = 'not_found' | 'sso_required' | 'rate_limited' | 'unauthorized' | 'forbidden' | 'upstream';

export class SourceError extends Error {
  constructor(
    readonly kind: SourceErrorKind,
    message: string,
    readonly details: { owner?: string; repo?: string; sso_url?: string; rate_limit_reset?: string; upstream_status?: number } = {},
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/** `https://github.com/o/r(.git)`, `git@github.com:o/r.git`, or `o/r`; null when none of these. */
export function parseRepoUrl(text: string): RepoRef | null {
  const value = text.trim();
  const patterns = [
    /^https?:\/\/[^/\s]+\/([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100}?)(?:\.git)?\/?(?:[#?].*)?$/,
    /^git@[^:\s]+:([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100}?)(?:\.git)?$/,
    /^([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100}?)(?:\.git)?$/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(value);
    if (match && !['.', '..'].includes(match[1]!) && !['.', '..'].includes(match[2]!)) return { owner: match[1]!, repo: match[2]! };
  }
  return null;
}

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface HttpFailure {
  status?: number;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
  message?: string;
}

export class SourceClient {
  private octokit: Promise<Octokit> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timeoutMs = 30_000,
  ) {}

  /** Octokit and its REST plugins load with the first request to the service, not with the host. */
  private client(): Promise<Octokit> {
    return (this.octokit ??= import('@octokit/rest').then(
      ({ Octokit }) =>
        new Octokit({
          auth: this.token || undefined,
          baseUrl: this.baseUrl.replace(/\/+$/, ''),
          userAgent: 'flowhost-docsync',
          log: quiet,
          request: { fetch: (url: string, init: RequestInit) => fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) }) },
        }),
    ));
  }

  async repository(ref: RepoRef): Promise<RepoInfo> {
    const { data } = await this.call(ref, (octokit) => octokit.rest.repos.get({ owner: ref.owner, repo: ref.repo }));
    return {
      owner: ref.owner,
      repo: ref.repo,
      full_name: data.full_name,
      default_branch: data.default_branch,
      html_url: data.html_url,
      private: data.private,
    };
  }

  async tree(ref: RepoRef, branch: string): Promise<RepoTree> {
    const { data } = await this.call(ref, (octokit) =>
      octokit.rest.git.getTree({ owner: ref.owner, repo: ref.repo, tree_sha: branch, recursive: 'true' }),
    );
    const files = data.tree
      .filter((entry) => entry.type === 'blob' && typeof entry.path === 'string' && typeof entry.sha === 'string')
      .map((entry) => ({ path: entry.path!, sha: entry.sha!, size: entry.size ?? 0 }));
    return { sha: data.sha, truncated: data.truncated, files };
  }

  async blob(ref: RepoRef, sha: string): Promise<string> {
    const { data } = await this.call(ref, (octokit) => octokit.rest.git.getBlob({ owner: ref.owner, repo: ref.repo, file_sha: sha }));
    return data.encoding === 'base64' ? Buffer.from(data.content, 'base64').toString('utf8') : data.content;
  }

  /** Who the token is, its scopes (`x-oauth-scopes`) and the core rate limit. */
  async tokenInfo(): Promise<{ login: string; scopes: string[]; rate_limit: { limit: number; remaining: number; reset: string } }> {
    const user = await this.call({ owner: '', repo: '' }, (octokit) => octokit.rest.users.getAuthenticated());
    const rate = await this.call({ owner: '', repo: '' }, (octokit) => octokit.rest.rateLimit.get());
    const scopes = String(user.headers['x-oauth-scopes'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const core = rate.data.resources.core;
    return {
      login: user.data.login,
      scopes,
      rate_limit: { limit: core.limit, remaining: core.remaining, reset: new Date(core.reset * 1000).toISOString() },
    };
  }

  private async call<T>(ref: RepoRef, run: (octokit: Octokit) => Promise<T>): Promise<T> {
    const octokit = await this.client();
    try {
      return await run(octokit);
    } catch (error) {
      throw toSourceError(error as HttpFailure, ref);
    }
  }
}

function toSourceError(error: HttpFailure, ref: RepoRef): SourceError {
  const where = ref.owner ? { owner: ref.owner, repo: ref.repo } : {};
  const name = ref.owner ? `${ref.owner}/${ref.repo}` : 'the source-hosting service';
  const status = typeof error.status === 'number' ? error.status : 0;
  const headers = error.response?.headers ?? {};
  const header = (key: string) => (headers[key] === undefined ? undefined : String(headers[key]));
  if (status === 0) return new SourceError('upstream', `Could not reach the source-hosting service for ${name}`, where);
  const sso = header('x-github-sso');
  if (status === 403 && sso) {
    // `required; url=https://github.com/orgs/acme/sso?authorization_request=...`
    const url = /url=(\S+)/.exec(sso)?.[1];
    return new SourceError('sso_required', `The token must be authorized for single sign-on to read ${name}`, {
      ...where,
      ...(url ? { sso_url: url } : {}),
    });
  }
  if ((status === 403 || status === 429) && (header('x-ratelimit-remaining') === '0' || header('retry-after') !== undefined)) {
    const reset = Number(header('x-ratelimit-reset'));
    return new SourceError('rate_limited', `The source-hosting service's rate limit is exhausted (reading ${name})`, {
      ...where,
      ...(Number.isFinite(reset) && reset > 0 ? { rate_limit_reset: new Date(reset * 1000).toISOString() } : {}),
    });
  }
  if (status === 404) return new SourceError('not_found', `Repository ${name} was not found, or the token may not read it`, where);
  if (status === 401) return new SourceError('unauthorized', 'The source-hosting service refused the access token (401)', where);
  if (status === 403) return new SourceError('forbidden', `The source-hosting service refused access to ${name} (403)`, where);
  return new SourceError('upstream', `The source-hosting service answered ${status} for ${name}`, { ...where, upstream_status: status });
}
