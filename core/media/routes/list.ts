/** GET wp/v2/media: a page of the attachments the caller may read, newest first. */
import { readsEverything } from '../../content/post-caps.js';
import type { Post, PostQuery } from '../../content/model.js';
import { PAGING_HEADERS, pagingHeaders } from '../../content/wp-paging.js';
import type { Principal } from '../../kernel/principal.js';
import { json, type RouteDefinition } from '../../kernel/routes.js';
import { apiError } from '../../errors/catalogue.js';
import { ATTACHMENT, attachmentSchema, attachmentView } from '../attachment.js';
import { listParam } from '../../content/wp-schemas.js';
import { ORDERBY, idList } from '../../content/wp-routes/params.js';
import type { MediaContext } from './context.js';
import { common, contextQuery, readRefusals } from './shared.js';
import { defineRoute } from '../../../sdk/define.js';

/** The most attachments a filtered list reads to answer one page (see readableAttachments). */
const LIST_SCAN = 10_000;
const PER_PAGE_MAX = 100;
const MEDIA_TYPES = ['image', 'video', 'audio', 'application', 'text'] as const;

/**
 * A page of attachments the caller may read, and their total. Those who read every post
 * get the store's page; others' pages leave out attachments of posts they may not read
 * (WordPress drops them item by item): with one parent asked for, that parent decides;
 * otherwise the matches are read whole (at most LIST_SCAN) and filtered.
 */
async function readableAttachments(ctx: MediaContext, query: PostQuery, user: Principal | null): Promise<{ items: Post[]; total: number }> {
  const { library, access } = ctx;
  if (readsEverything(user) || query.parent_id === null) return library.content.findPosts(query);
  if (query.parent_id !== undefined) {
    return (await access.canReadParent(query.parent_id, user)) ? library.content.findPosts(query) : { items: [], total: 0 };
  }
  const cache = new Map<number, boolean>();
  const all: Post[] = [];
  for (let offset = 0; offset < LIST_SCAN; offset += 100) {
    const chunk = await library.content.findPosts({ ...query, per_page: 100, offset });
    for (const post of chunk.items) if (await access.canRead(post, user, cache)) all.push(post);
    if (chunk.items.length < 100) break;
  }
  const start = query.offset ?? 0;
  return { items: all.slice(start, start + (query.per_page ?? 10)), total: all.length };
}

/** `orderby=include`: every match (include holds at most 100 ids) in the order the ids were given, then the page. */
async function inIncludeOrder(
  ctx: MediaContext,
  query: PostQuery,
  include: number[],
  user: Principal | null,
): Promise<{ items: Post[]; total: number }> {
  const all = (await readableAttachments(ctx, { ...query, per_page: 100, offset: 0 }, user)).items;
  all.sort((a, b) => include.indexOf(a.post_id) - include.indexOf(b.post_id));
  const start = query.offset ?? 0;
  return { items: all.slice(start, start + (query.per_page ?? 10)), total: all.length };
}

export function listRoute(ctx: MediaContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/media',
    permission: 'public',
    summary: 'The media library, newest first',
    schema: {
      query: {
        type: 'object',
        properties: {
          page: { type: 'integer', minimum: 1, default: 1 },
          per_page: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: 10 },
          search: { type: 'string', maxLength: 200 },
          media_type: { enum: [...MEDIA_TYPES] },
          mime_type: { type: 'string', maxLength: 200 },
          parent: { type: 'integer', minimum: 0 },
          context: contextQuery.properties.context,
          // WordPress's list parameters (Gutenberg's gallery asks for `include`).
          include: listParam,
          exclude: listParam,
          author: listParam,
          offset: { type: 'integer', minimum: 0 },
          order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
          orderby: { type: 'string', enum: ['date', 'id', 'title', 'slug', 'modified', 'include'], default: 'date' },
        },
      },
      responses: { ...common, ...readRefusals, 200: { type: 'array', items: attachmentSchema } },
      responseHeaders: { 200: PAGING_HEADERS },
    },
    async handle(request) {
      const q = request.query;
      if (q.context === 'edit' && !request.user?.can('edit_posts'))
        throw apiError('rest_forbidden_context', {
          message: 'Sorry, you are not allowed to edit posts in this post type.',
          user: request.user,
        });
      const include = idList(q, 'include');
      if (q.orderby === 'include' && !include) throw apiError('rest_orderby_include_missing_include');
      const exclude = idList(q, 'exclude');
      const author = idList(q, 'author');
      const meta: Record<string, string> = {};
      if (q.media_type) meta.media_kind = q.media_type;
      if (q.mime_type) meta.mime_type = q.mime_type.toLowerCase();
      const query: PostQuery = {
        post_type: ATTACHMENT,
        status: 'publish',
        ...(q.search ? { search: q.search } : {}),
        ...(Object.keys(meta).length ? { meta } : {}),
        ...(q.parent !== undefined ? { parent_id: q.parent === 0 ? null : q.parent } : {}),
        ...(include ? { include } : {}),
        ...(exclude ? { exclude } : {}),
        ...(author ? { author } : {}),
        order: q.order,
        orderby: ORDERBY[q.orderby],
        per_page: q.per_page,
        offset: q.offset ?? Math.min((q.page - 1) * q.per_page, Number.MAX_SAFE_INTEGER),
      };
      const { items, total } =
        q.orderby === 'include' && include
          ? await inIncludeOrder(ctx, query, include, request.user)
          : await readableAttachments(ctx, query, request.user);
      const pages = Math.ceil(total / q.per_page);
      if (q.page > 1 && q.page > pages) {
        throw apiError('rest_post_invalid_page_number');
      }
      return json(
        200,
        items.map((post) => attachmentView(post, ctx.site(), q.context)),
        pagingHeaders(request, `${ctx.site()}${ctx.info.apiPrefix}/wp/v2/media`, total, q.per_page, q.page),
      );
    },
  });
}
