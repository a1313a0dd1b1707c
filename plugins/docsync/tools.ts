/**
 * The four agent abilities as chat tools: read one documentation post, search the published
 * ones, sync from the source service, and reset the documentation. Each does no more than
 * the calling user may.
 */
import {
  canReadPost,
  defineChatTool,
  renderContent,
  type ChatToolDefinition,
  type ContentStore,
  type ActingUser,
  type Post,
} from '../../sdk/index.js';
import type { DocsService } from './docs-service.js';
import type { SyncJobs } from './jobs.js';
import { META, POST_TYPE, TAXONOMY } from './model.js';
import type { Projects } from './projects.js';
import type { AccessToken } from './token.js';

const need = (user: ActingUser | null, capability: string, what: string) => {
  if (!user?.can(capability)) throw new Error(`${what} needs the ${capability} capability`);
};

/** What the tools read and write. */
type DocsyncToolDeps = {
  content: ContentStore;
  docs: DocsService;
  projects: Projects;
  jobs: SyncJobs;
  token: AccessToken;
  waitSeconds: number;
};

export function docsyncTools(deps: DocsyncToolDeps): ChatToolDefinition[] {
  return [getDocTool(deps), searchDocsTool(deps), syncTool(deps), resetTool(deps)];
}

function getDocTool({ content, docs, projects }: DocsyncToolDeps): ChatToolDefinition {
  return defineChatTool({
    name: 'docsync_get_doc',
    description:
      'Read one documentation post by id or slug. format: markdown (default, as written) or html (rendered and sanitized). Returns id, title, content, content_format, excerpt, link, project, project_type and meta.',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 1 },
        slug: { type: 'string', minLength: 1, maxLength: 200 },
        format: { type: 'string', enum: ['markdown', 'html'], default: 'markdown' },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      if (args.id === undefined && args.slug === undefined) throw new Error('docsync_get_doc needs id or slug');
      const post: Post | null =
        args.id !== undefined ? await docs.getDoc(args.id) : await content.getPostBySlug(POST_TYPE, String(args.slug));
      const what = args.id !== undefined ? `id ${String(args.id)}` : `slug '${String(args.slug)}'`;
      // The same answer for a draft and for nothing: a reader cannot probe for unpublished posts.
      // Unpublished ones are read as wp/v2 reads them for this user (WordPress's read_post).
      if (!post || !canReadPost(post, ctx.user))
        throw new Error(`There is no documentation post with the ${what} that this caller may read`);
      const view = docs.view(post, await projects.all(), true);
      const html = args.format === 'html';
      return {
        id: view.id,
        title: view.title,
        content: html ? renderContent(post.content, 'markdown') : post.content,
        content_format: html ? 'html' : 'markdown',
        excerpt: view.excerpt,
        link: view.link,
        project: view.project,
        project_type: view.project.project_type,
        meta: view.meta,
      };
    },
  });
}

function searchDocsTool({ content, docs, projects }: DocsyncToolDeps): ChatToolDefinition {
  return defineChatTool({
    name: 'docsync_search_docs',
    description:
      'Search published documentation posts (title or content contains the query), optionally within a project (slug or id). Returns items (id, title, excerpt, link, hierarchy_path), total and the query.',
    parameters: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 200 },
        project: { type: 'string', minLength: 1, maxLength: 200 },
        per_page: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      },
      additionalProperties: false,
    },
    async run(args) {
      const terms = await projects.all();
      let termIds: number[] | undefined;
      if (args.project !== undefined) {
        const key = String(args.project);
        const term = /^\d+$/.test(key) ? terms.get(Number(key)) : [...terms.values()].find((t) => t.slug === key);
        termIds = term ? projects.descendants(term.term_id, terms) : [];
      }
      const { items, total } = await content.findPosts({
        post_type: POST_TYPE,
        status: 'publish',
        search: String(args.query),
        ...(termIds ? { terms: [{ taxonomy: TAXONOMY, term_ids: termIds }] } : {}),
        per_page: args.per_page ?? 10,
      });
      return {
        items: items.map((p) => {
          const v = docs.view(p, terms, false);
          return { id: v.id, title: v.title, excerpt: v.excerpt, link: v.link, hierarchy_path: v.project.hierarchy_path };
        }),
        total,
        query: args.query,
      };
    },
  });
}

function syncTool(deps: DocsyncToolDeps): ChatToolDefinition {
  const { projects, jobs, token } = deps;
  return defineChatTool({
    name: 'docsync_sync',
    description:
      'Sync documentation from the source-hosting service: every project with a repository address, or one project (slug or id). force rewrites unchanged files. Returns success, counts and the added, updated and removed files, and errors per repository.',
    parameters: {
      type: 'object',
      properties: { project: { type: 'string', minLength: 1, maxLength: 200 }, force: { type: 'boolean', default: false } },
      additionalProperties: false,
    },
    enabled: async () => (await token.current()) !== '',
    async run(args, ctx) {
      need(ctx.user, 'manage_options', 'Syncing documentation');
      if ((await token.current()) === '') throw new Error('No access token is configured for the source-hosting service');
      let ids: number[] | null = null;
      if (args.project !== undefined) {
        const terms = await projects.all();
        const key = String(args.project);
        const term = /^\d+$/.test(key) ? terms.get(Number(key)) : [...terms.values()].find((t) => t.slug === key);
        if (!term) throw new Error(`No project '${key}'`);
        ids = [term.term_id];
      }
      const started = await jobs.start(ids, args.force === true);
      const job = (await jobs.wait(started._id, deps.waitSeconds * 1000)) ?? started;
      if (job.status === 'failed') throw new Error(`The sync failed: ${job.error ?? 'unknown error'}`);
      const r = job.result;
      if (job.status !== 'completed' || !r)
        return {
          success: true,
          complete: false,
          job_id: job._id,
          progress: job.progress,
          message: 'The sync is still running in the background.',
        };
      return {
        success: r.errors.length === 0,
        complete: true,
        job_id: job._id,
        repos_synced: r.repos_synced,
        added_count: r.total_added,
        updated_count: r.total_updated,
        removed_count: r.total_removed,
        added: r.added,
        updated: r.updated,
        removed: r.removed,
        errors: r.errors,
        message: r.message,
      };
    },
  });
}

function resetTool({ content, projects }: DocsyncToolDeps): ChatToolDefinition {
  return defineChatTool({
    name: 'docsync_reset_docs',
    description:
      'Delete every documentation post and every project term below the top level (and top-level terms without a repository address), keeping top-level projects with a repository address and clearing their sync state, so the next sync starts afresh. Needs confirm: true.',
    parameters: {
      type: 'object',
      required: ['confirm'],
      properties: { confirm: { type: 'boolean', const: true } },
      additionalProperties: false,
    },
    // Deletes every documentation post: chat runs it only when enabled and the user confirms.
    destructive: true,
    async run(args, ctx) {
      need(ctx.user, 'manage_options', 'Resetting documentation');
      if (args.confirm !== true) throw new Error('Resetting documentation needs confirm: true');
      // Posts first, then terms deepest first: a reset cut short leaves fewer posts, never a post on a deleted term.
      let postsDeleted = 0;
      for (;;) {
        const { items } = await content.findPosts({
          post_type: POST_TYPE,
          status: ['publish', 'draft', 'pending', 'private', 'trash'],
          per_page: 100,
          orderby: 'post_id',
          order: 'asc',
        });
        if (items.length === 0) break;
        for (const post of items) if (await content.deletePost(post.post_id)) postsDeleted++;
      }
      const terms = await projects.all();
      const depth = (id: number) => projects.ancestry(terms.get(id)!, terms).length;
      const children = [...terms.values()].filter((t) => t.parent_id !== null).sort((a, b) => depth(b.term_id) - depth(a.term_id));
      let childDeleted = 0;
      for (const term of children) if (await content.deleteTerm(TAXONOMY, term.term_id)) childDeleted++;
      let orphaned = 0;
      let resetCount = 0;
      for (const term of [...terms.values()].filter((t) => t.parent_id === null)) {
        const repo = term.meta[META.repository];
        if (typeof repo !== 'string' || repo === '') {
          if (await content.deleteTerm(TAXONOMY, term.term_id)) orphaned++;
        } else {
          await content.updateTerm(TAXONOMY, term.term_id, { meta: { [META.treeSha]: null, [META.lastSync]: null } });
          resetCount++;
        }
      }
      return {
        success: true,
        documentation_posts_deleted: postsDeleted,
        child_terms_deleted: childDeleted,
        orphaned_terms_deleted: orphaned,
        sync_metadata_reset: resetCount,
      };
    },
  });
}
