/** /docs: documentation posts (list, create, read, update, trash or delete). */
import type { Static } from 'typebox';
import { Type } from '../../sdk/index.js';
import {
  defineRoute,
  errorBody,
  findReadablePosts,
  ksesPost,
  ksesTitle,
  reply,
  successBody,
  type ContentStore,
  type PostStatus,
  type Principal,
  type RouteDefinition,
} from '../../sdk/index.js';
import {
  requireCapability,
  requireDeletable,
  requireEditable,
  requirePublishRight,
  requireReadable,
  requireTermCreation,
} from './access.js';
import type { DocsService } from './docs-service.js';
import { POST_TYPE, TAXONOMY } from './model.js';
import type { Projects } from './projects.js';
import { MAX_CONTENT, docProperties, docSchema, metaInput, segment } from './schemas.js';
import { docsyncError } from './errors.js';

const idParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const notFound = (id: number) => docsyncError('not_found', { message: `Documentation post ${id} not found`, data: { id } });
const title = Type.String({ minLength: 1, maxLength: 1000 });
const text = Type.String({ maxLength: MAX_CONTENT });

/** PUT's body: every field optional. POST requires the title and the content. */
const updateBody = Type.Object({
  title: Type.Optional(title),
  content: Type.Optional(text),
  excerpt: Type.Optional(Type.String({ maxLength: 10_000 })),
  status: Type.Optional(Type.Enum(['publish', 'draft', 'pending', 'private'], { type: 'string' })),
  project_path: Type.Optional(Type.Array(segment, { minItems: 1, maxItems: 10 })),
  meta: Type.Optional(metaInput),
});
// The spread keeps the properties' order; title and content become required.
const createBody = Type.Object({ ...updateBody.properties, title, content: text });
type DocBody = Static<typeof updateBody>;

// The host applies the query's defaults before the handler runs; the fields stay optional
// in the schema (a client may leave them out), so the handler falls back to the same values.
const PER_PAGE = 10;
const listQuery = Type.Object({
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PER_PAGE })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  project: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(Type.Enum(['publish', 'draft', 'pending', 'private', 'trash', 'any'], { type: 'string', default: 'publish' })),
  search: Type.Optional(Type.String({ maxLength: 200 })),
});

/**
 * The title, content and excerpt as stored: WordPress's kses for users without
 * unfiltered_html (authors, contributors), as wp/v2 filters the same posts. Markdown with
 * nothing to strip is kept as written.
 */
function filteredText(body: DocBody, user: Principal | null): Pick<DocBody, 'title' | 'content' | 'excerpt'> {
  const trusted = user?.can('unfiltered_html') === true;
  const text = (value: string | undefined, filter: (html: string) => string) => (value === undefined || trusted ? value : filter(value));
  const out: Pick<DocBody, 'title' | 'content' | 'excerpt'> = {};
  const title = text(body.title, ksesTitle);
  const content = text(body.content, ksesPost);
  const excerpt = text(body.excerpt, ksesPost);
  if (title !== undefined) out.title = title;
  if (content !== undefined) out.content = content;
  if (excerpt !== undefined) out.excerpt = excerpt;
  return out;
}

const perPostErrors = {
  401: errorBody('rest_cannot_edit', 'rest_cannot_publish', 'rest_forbidden'),
  403: errorBody('rest_cannot_edit', 'rest_cannot_publish', 'rest_forbidden'),
};

export function docsRoutes(content: ContentStore, docs: DocsService, projects: Projects): RouteDefinition[] {
  const ctx = docsContext(content, docs, projects);
  return [listDocsRoute(ctx), createDocRoute(ctx), getDocRoute(ctx), updateDocRoute(ctx), deleteDocRoute(ctx)];
}

/** What the /docs routes share: the stores, and reading a project path and one post. */
function docsContext(content: ContentStore, docs: DocsService, projects: Projects) {
  /** `project_path` as a leaf term; a missing term is created only for manage_categories (docsync's one rule). */
  const termOf = async (path: string[] | undefined, user: Principal | null) =>
    path ? (await projects.resolve(path, true, {}, (segment) => requireTermCreation(user, segment)))!.leaf.term_id : undefined;
  const single = async (id: number) => {
    const post = await docs.getDoc(id);
    if (!post) throw notFound(id);
    return docs.view(post, await projects.all(), true);
  };

  return { content, docs, projects, termOf, single };
}
type DocsContext = ReturnType<typeof docsContext>;

function listDocsRoute({ content, docs, projects }: DocsContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/docs',
    permission: 'public',
    summary: 'Documentation posts, newest first (without content)',
    schema: {
      query: listQuery,
      responses: {
        200: successBody({
          items: { type: 'array', items: docSchema(false) },
          total: { type: 'integer' },
          pages: { type: 'integer' },
          current_page: { type: 'integer' },
        }),
        401: errorBody('rest_forbidden'),
        403: errorBody('rest_forbidden'),
      },
    },
    async handle(request) {
      const q = { ...request.query, per_page: request.query.per_page ?? PER_PAGE, page: request.query.page ?? 1 };
      const wanted = request.query.status ?? 'publish';
      if (wanted !== 'publish') requireCapability(request.user, 'edit_posts', 'list documentation that is not published');
      const terms = await projects.all();
      let termIds: number[] | undefined;
      if (q.project !== undefined) {
        const key = q.project.trim();
        const term = /^\d+$/.test(key) ? terms.get(Number(key)) : [...terms.values()].find((t) => t.slug === key);
        // Posts of the term and of every term below it, as a hierarchical taxonomy query does.
        termIds = term ? projects.descendants(term.term_id, terms) : [];
      }
      const status: PostStatus | PostStatus[] = wanted === 'any' ? ['publish', 'draft', 'pending', 'private'] : wanted;
      // Others' drafts and private documentation are left out for those who may not read
      // them (WordPress's read_post, as wp/v2 lists them), with a total that agrees.
      const { items, total } = await findReadablePosts(
        content,
        {
          post_type: POST_TYPE,
          status,
          ...(q.search ? { search: q.search } : {}),
          ...(termIds ? { terms: [{ taxonomy: TAXONOMY, term_ids: termIds }] } : {}),
          per_page: q.per_page,
          offset: (q.page - 1) * q.per_page,
          orderby: 'date',
          order: 'desc',
        },
        request.user,
      );
      return { items: items.map((p) => docs.view(p, terms, false)), total, pages: Math.ceil(total / q.per_page), current_page: q.page };
    },
  });
}

function createDocRoute({ content, docs, projects, termOf }: DocsContext): RouteDefinition {
  return defineRoute({
    method: 'POST',
    path: '/docs',
    permission: { capability: 'edit_posts' },
    summary: 'Create a documentation post (project_path resolves or creates the taxonomy path)',
    schema: {
      body: createBody,
      responses: {
        201: successBody({
          id: { type: 'integer' },
          title: { type: 'string' },
          status: { type: 'string' },
          project: docProperties(false).project!,
        }),
        400: errorBody('invalid_post', 'docsync_term_slug_taken', 'invalid_term', 'term_exists'),
        ...perPostErrors,
      },
    },
    async handle(request) {
      const body = request.body;
      const status = body.status ?? 'publish';
      requirePublishRight(request.user, status);
      const text = filteredText(body, request.user);
      const termId = await termOf(body.project_path, request.user);
      const post = await content.createPost({
        post_type: POST_TYPE,
        title: text.title!,
        content: text.content!,
        excerpt: text.excerpt ?? '',
        status,
        meta: { content_format: 'markdown', ...(body.meta ?? {}) },
        terms: termId ? { [TAXONOMY]: [termId] } : {},
        author_id: request.user?.userId ?? null,
      });
      const view = docs.view(post, await projects.all(), false);
      return reply(201, { id: view.id, title: view.title, status: view.status, project: view.project });
    },
  });
}

function getDocRoute({ docs, projects }: DocsContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/docs/{id}',
    permission: 'public',
    summary: 'One documentation post with its content (unpublished: its author and editors, as wp/v2)',
    schema: {
      params: idParams,
      responses: {
        200: successBody(docProperties(true)),
        401: errorBody('rest_forbidden'),
        403: errorBody('rest_forbidden'),
        404: errorBody('not_found'),
      },
    },
    async handle(request) {
      const id = request.params.id;
      const post = await docs.getDoc(id);
      if (!post) throw notFound(id);
      requireReadable(request.user, post);
      return docs.view(post, await projects.all(), true) as unknown as Record<string, unknown>;
    },
  });
}

function updateDocRoute({ content, docs, termOf, single }: DocsContext): RouteDefinition {
  return defineRoute({
    method: 'PUT',
    path: '/docs/{id}',
    permission: { capability: 'edit_posts' },
    summary: 'Update a documentation post (every field optional)',
    schema: {
      params: idParams,
      body: updateBody,
      responses: {
        200: successBody(docProperties(true)),
        400: errorBody('invalid_post', 'docsync_term_slug_taken', 'invalid_term', 'term_exists'),
        404: errorBody('not_found'),
        ...perPostErrors,
      },
    },
    async handle(request) {
      const id = request.params.id;
      const body = request.body;
      const current = await docs.getDoc(id);
      if (!current) throw notFound(id);
      // WordPress's edit_post, then its status rule: an author changes only their own.
      requireEditable(request.user, current);
      requirePublishRight(request.user, body.status);
      const text = filteredText(body, request.user);
      const termId = await termOf(body.project_path, request.user);
      await content.updatePost(id, {
        ...(text.title !== undefined ? { title: text.title } : {}),
        ...(text.content !== undefined ? { content: text.content } : {}),
        ...(text.excerpt !== undefined ? { excerpt: text.excerpt } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
        ...(body.meta !== undefined ? { meta: body.meta } : {}),
        ...(termId !== undefined ? { terms: { [TAXONOMY]: [termId] } } : {}),
      });
      return (await single(id)) as unknown as Record<string, unknown>;
    },
  });
}

function deleteDocRoute({ content, docs }: DocsContext): RouteDefinition {
  return defineRoute({
    method: 'DELETE',
    path: '/docs/{id}',
    // The spec's `delete_posts`, then WordPress's per-post `delete_post` as wp/v2 applies
    // it to the same post: one's own (published: delete_published_posts), or anyone's
    // with delete_others_posts.
    permission: { capability: 'delete_posts' },
    summary: 'Trash a documentation post, or delete it for good with force=true (authors: their own)',
    schema: {
      params: idParams,
      query: Type.Object({ force: Type.Optional(Type.Boolean({ default: false })) }),
      responses: {
        200: successBody({ id: { type: 'integer' }, deleted: { type: 'boolean' }, trashed: { type: 'boolean' } }),
        404: errorBody('not_found'),
        401: errorBody('rest_cannot_delete'),
        403: errorBody('rest_cannot_delete'),
      },
    },
    async handle(request) {
      const id = request.params.id;
      const post = await docs.getDoc(id);
      if (!post) throw notFound(id);
      requireDeletable(request.user, post);
      if (request.query.force) {
        await content.deletePost(id);
        return { id, deleted: true, trashed: false };
      }
      if (post.status !== 'trash') await docs.trash(post);
      return { id, deleted: false, trashed: true };
    },
  });
}
