/** /sync/setup and /sync/status: the category and project terms a pusher writes under, and what is there. */
import { Type } from '../../sdk/index.js';
import { canReadPost, defineRoute, errorBody, successBody, type RouteDefinition } from '../../sdk/index.js';
import { docsyncError } from './errors.js';
import { ALL_STATUSES, POST_META, POST_TYPE } from './model.js';
import { int, slugPattern, str, type SyncRouteDeps } from './sync-route-pieces.js';
import { segment } from './schemas.js';

export function syncSetupRoutes(deps: SyncRouteDeps): RouteDefinition[] {
  return [syncSetupRoute(deps), syncStatusRoute(deps)];
}

function syncSetupRoute({ projects }: SyncRouteDeps): RouteDefinition {
  return defineRoute({
    method: 'POST',
    path: '/sync/setup',
    permission: { capability: 'manage_categories' },
    summary: 'Ensure a category term and a project term under it',
    schema: {
      body: Type.Object({ project_slug: slugPattern, project_name: segment, category_slug: slugPattern, category_name: segment }),
      responses: {
        200: successBody({ category_term_id: int, category_slug: str, project_term_id: int, project_slug: str }),
        400: errorBody('docsync_term_slug_taken', 'invalid_term', 'term_exists'),
      },
    },
    async handle(request) {
      const b = request.body;
      const category = (await projects.ensureNamed(null, b.category_slug, b.category_name, 'category')).term;
      const project = (await projects.ensureNamed(category, b.project_slug, b.project_name, 'project')).term;
      return {
        category_term_id: category.term_id,
        category_slug: category.slug,
        project_term_id: project.term_id,
        project_slug: project.slug,
      };
    },
  });
}

function syncStatusRoute(deps: SyncRouteDeps): RouteDefinition {
  const { projects } = deps;
  return defineRoute({
    method: 'GET',
    path: '/sync/status',
    permission: { capability: 'edit_posts' },
    summary: 'The synced documentation of a project (its term and the terms below it)',
    schema: {
      query: Type.Object({ project: slugPattern }),
      responses: {
        200: successBody({
          total_docs: int,
          synced_docs: int,
          project_slug: str,
          project_term: int,
          docs: {
            type: 'array',
            items: {
              type: 'object',
              required: ['post_id', 'title', 'source_file', 'sync_filesize', 'sync_timestamp', 'status'],
              properties: { post_id: int, title: str, source_file: str, sync_filesize: str, sync_timestamp: str, status: str },
            },
          },
        }),
        404: errorBody('not_found'),
      },
    },
    async handle(request) {
      const slug = request.query.project;
      const terms = await projects.all();
      const term = [...terms.values()].find((t) => t.slug === slug);
      if (!term)
        throw docsyncError('not_found', {
          message: `No project term with the slug '${slug.slice(0, 200)}'`,
          data: { project: slug.slice(0, 200) },
        });
      const ids = projects.descendants(term.term_id, terms);
      const entries = [];
      for (let offset = 0; ; offset += 100) {
        const page = await deps.content.findPosts({
          post_type: POST_TYPE,
          status: ALL_STATUSES.filter((s) => s !== 'trash'),
          terms: [{ taxonomy: 'project', term_ids: ids }],
          per_page: 100,
          offset,
          orderby: 'post_id',
          order: 'asc',
        });
        for (const post of page.items) {
          // Others' drafts and private documentation are not listed to those who may not read them.
          if (!canReadPost(post, request.user)) continue;
          const source = String(post.meta[POST_META.sourceFile] ?? '');
          entries.push({
            post_id: post.post_id,
            title: post.title,
            source_file: source,
            sync_filesize: String(post.meta[POST_META.filesize] ?? ''),
            sync_timestamp: String(post.meta[POST_META.timestamp] ?? ''),
            status: source ? 'synced' : 'manual',
          });
        }
        if (offset + 100 >= page.total || page.items.length === 0) break;
      }
      return {
        total_docs: entries.length,
        synced_docs: entries.filter((e) => e.status === 'synced').length,
        project_slug: term.slug,
        project_term: term.term_id,
        docs: entries,
      };
    },
  });
}
