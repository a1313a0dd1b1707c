/** /sync/token, /sync/test-token and /sync/test-repo: the source-hosting token, and what it can read. */
import { Type } from '../../sdk/index.js';
import { type ApiError, defineRoute, errorBody, maskSecret, successBody, type RouteDefinition } from '../../sdk/index.js';
import { docsyncError } from './errors.js';
import { SourceClient, SourceError, parseRepoUrl } from './github.js';
import { int, str, strings, type SyncRouteDeps } from './sync-route-pieces.js';

/** A source-hosting failure as the API's error: the spec lets its data carry owner, repo and sso_url. */
function sourceFailure(error: SourceError): ApiError {
  // One declared code per kind: the catalogue (errors.ts) holds each kind's status.
  return docsyncError(`docsync_${error.kind}`, { message: error.message, data: { ...error.details } });
}

export function syncSourceRoutes(deps: SyncRouteDeps): RouteDefinition[] {
  const { token, settings } = deps;
  const baseUrl = settings.github_base_url.replace(/\/+$/, '');
  const client = async () => new SourceClient(baseUrl, await token.current());
  return [tokenReadRoute(token, baseUrl), tokenSaveRoute(token, baseUrl), testTokenRoute(token, client), testRepoRoute(client)];
}

type Token = SyncRouteDeps['token'];
type Client = () => Promise<SourceClient>;

function tokenReadRoute(token: Token, baseUrl: string): RouteDefinition {
  return {
    method: 'GET',
    path: '/sync/token',
    permission: { capability: 'manage_options' },
    summary: 'Whether a source-hosting access token is configured (masked)',
    schema: { responses: { 200: successBody({ configured: { type: 'boolean' }, token: str, base_url: str }) } },
    async handle() {
      const current = await token.current();
      return { configured: current !== '', token: maskSecret(current), base_url: baseUrl };
    },
  };
}

function tokenSaveRoute(token: Token, baseUrl: string): RouteDefinition {
  return defineRoute({
    method: 'PUT',
    path: '/sync/token',
    permission: { capability: 'manage_options' },
    summary: "Save the source-hosting access token (sealed; '' removes it, the masked value keeps it)",
    schema: {
      body: Type.Object({ token: Type.String({ maxLength: 4096 }) }, { additionalProperties: false }),
      responses: { 200: successBody({ configured: { type: 'boolean' }, token: str, base_url: str }) },
    },
    async handle(request) {
      await token.save(request.body.token);
      const current = await token.current();
      return { configured: current !== '', token: maskSecret(current), base_url: baseUrl };
    },
  });
}

function testTokenRoute(token: Token, client: Client): RouteDefinition {
  return {
    method: 'GET',
    path: '/sync/test-token',
    permission: { capability: 'manage_options' },
    summary: "The configured token's account, scopes and rate limit (never the token)",
    schema: {
      responses: {
        200: successBody({
          configured: { type: 'boolean' },
          valid: { type: 'boolean' },
          login: str,
          scopes: strings,
          rate_limit: {
            type: 'object',
            required: ['limit', 'remaining', 'reset'],
            properties: { limit: int, remaining: int, reset: str },
          },
          token: str,
        }),
        400: errorBody('docsync_token_missing', 'docsync_unauthorized', 'docsync_rate_limited', 'docsync_upstream'),
        403: errorBody('docsync_forbidden', 'docsync_sso_required'),
        404: errorBody('docsync_not_found'),
      },
    },
    async handle() {
      const current = await token.current();
      if (!current) throw docsyncError('docsync_token_missing');
      try {
        const info = await (await client()).tokenInfo();
        return { configured: true, valid: true, ...info, token: maskSecret(current) };
      } catch (error) {
        if (error instanceof SourceError) throw sourceFailure(error);
        throw error;
      }
    },
  };
}

function testRepoRoute(client: Client): RouteDefinition {
  return defineRoute({
    method: 'POST',
    path: '/sync/test-repo',
    permission: { capability: 'manage_options' },
    summary: 'Whether the repository can be read, its default branch and markdown files',
    schema: {
      body: Type.Object({ repo_url: Type.String({ minLength: 1, maxLength: 500 }) }),
      responses: {
        200: successBody({
          owner: str,
          repo: str,
          full_name: str,
          default_branch: str,
          private: { type: 'boolean' },
          html_url: str,
          markdown_files: int,
          tree_truncated: { type: 'boolean' },
        }),
        400: errorBody('docsync_invalid_repo_url', 'docsync_unauthorized', 'docsync_rate_limited', 'docsync_upstream'),
        403: errorBody('docsync_forbidden', 'docsync_sso_required'),
        404: errorBody('docsync_not_found'),
      },
    },
    async handle(request) {
      const url = request.body.repo_url;
      const ref = parseRepoUrl(url);
      if (!ref)
        throw docsyncError('docsync_invalid_repo_url', {
          message: `'${url.slice(0, 200)}' is not a repository address (https://host/owner/repo or owner/repo)`,
        });
      try {
        const source = await client();
        const repo = await source.repository(ref);
        const tree = await source.tree(ref, repo.default_branch);
        const markdown = tree.files.filter((f) => /\.(md|markdown|mdx)$/i.test(f.path)).length;
        return {
          owner: ref.owner,
          repo: ref.repo,
          full_name: repo.full_name,
          default_branch: repo.default_branch,
          private: repo.private,
          html_url: repo.html_url,
          markdown_files: markdown,
          tree_truncated: tree.truncated,
        };
      } catch (error) {
        if (error instanceof SourceError) throw sourceFailure(error);
        throw error;
      }
    },
  });
}
