/** wp/v2 post routes, one set per post type at its rest_base, with embeds of terms, authors and media. */
import type { PostTypeDefinition } from '../../kernel/contributions.js';
import type { Principal } from '../../kernel/principal.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { json, type RouteDefinition } from '../../kernel/routes.js';
import { postTextFor, type PostText } from '../kses.js';
import type { Post, PostQuery, PostStatus, Term } from '../model.js';
import { canDeletePost, canEditPost, readsEverything } from '../post-caps.js';
import { renderContent, renderExcerpt, renderTitle } from '../render.js';
import { LOCATION_HEADER, PAGING_HEADERS, pagingHeaders } from '../wp-paging.js';
import * as S from '../wp-schemas.js';
import { createUserViews, type WpUsersDeps } from '../wp-users.js';
import { WpTermRoutes } from './terms.js';
import { AttachmentAccess } from '../../media/attachment-access.js';
import { ATTACHMENT, attachmentView } from '../../media/attachment.js';
import { apiError } from '../../errors/catalogue.js';
import { WpShared } from './shared.js';
import {
  type Context,
  ORDERBY,
  type Req,
  idList,
  invalidParam,
  parseDate,
  publicMeta,
  rawText,
  stringList,
  wpDate,
  wpErrors,
} from './params.js';

export class WpPostRoutes extends WpShared {
  /** Terms embedded in a post (`wp:term`) look as their own routes answer them. */
  private readonly terms = new WpTermRoutes(this.deps);

  /** Each post type's routes; a type whose plugin serves its own routes (the media library) is only listed. */
  routes(): RouteDefinition[] {
    return this.types.filter((type) => type.rest_controller !== 'custom').flatMap((type) => this.postRoutes(type));
  }

  /** What the wp/v2 user routes need (authors are embedded in posts). */
  users(): WpUsersDeps {
    return this.usersDeps;
  }

  private postView(type: PostTypeDefinition, post: Post, context: Context): Record<string, unknown> {
    const link = `${this.deps.hostInfo.publicUrl()}/?p=${post.post_id}`;
    const format = post.meta.content_format;
    const content = renderContent(post.content, format);
    const title = { rendered: renderTitle(post.title), ...(context === 'edit' ? { raw: post.title } : {}) };
    const excerpt = {
      rendered: renderExcerpt(post.excerpt, content, format),
      protected: false,
      ...(context === 'edit' ? { raw: post.excerpt } : {}),
    };
    const author = post.author_id ?? 0;
    const featured = Number(post.meta._thumbnail_id ?? 0) || 0;
    const _links = this.postLinks(type, post);
    if (context === 'embed') {
      return {
        id: post.post_id,
        date: wpDate(post.date),
        slug: post.slug,
        type: post.post_type,
        link,
        title,
        author,
        excerpt,
        featured_media: featured,
        _links,
      };
    }
    const view: Record<string, unknown> = {
      id: post.post_id,
      date: wpDate(post.date),
      date_gmt: wpDate(post.date),
      guid: { rendered: link, ...(context === 'edit' ? { raw: link } : {}) },
      modified: wpDate(post.updated_at),
      modified_gmt: wpDate(post.updated_at),
      slug: post.slug,
      status: post.status,
      type: post.post_type,
      link,
      title,
      content: { rendered: content, protected: false, ...(context === 'edit' ? { raw: post.content } : {}) },
      excerpt,
      author,
      featured_media: featured,
      comment_status: 'closed',
      ping_status: 'closed',
      meta: publicMeta(post.meta),
    };
    if (type.name === 'post') Object.assign(view, { format: 'standard', sticky: false });
    if (type.hierarchical) view.parent = post.parent_id ?? 0;
    for (const taxonomy of this.taxonomiesOf(type)) view[taxonomy.rest_base] = post.terms[taxonomy.name] ?? [];
    view._links = _links;
    return view;
  }

  /** WP_REST_Posts_Controller::prepare_links: the embeddable ones are what `_embed` follows. */
  private postLinks(type: PostTypeDefinition, post: Post): Record<string, Array<Record<string, unknown>>> {
    const links: Record<string, Array<Record<string, unknown>>> = {
      self: [{ href: `${this.base}/${type.rest_base}/${post.post_id}` }],
      collection: [{ href: `${this.base}/${type.rest_base}` }],
      about: [{ href: `${this.base}/types/${type.name}` }],
    };
    if (post.author_id !== null) links.author = [{ embeddable: true, href: `${this.base}/users/${post.author_id}` }];
    const featured = Number(post.meta._thumbnail_id ?? 0) || 0;
    if (featured) links['wp:featuredmedia'] = [{ embeddable: true, href: `${this.base}/media/${featured}` }];
    const taxonomies = this.taxonomiesOf(type);
    if (taxonomies.length)
      links['wp:term'] = taxonomies.map((t) => ({
        taxonomy: t.name,
        embeddable: true,
        href: `${this.base}/${t.rest_base}?post=${post.post_id}`,
      }));
    return links;
  }

  /**
   * `_embed` (all, or `_embed=author,wp:term`): what WordPress embeds by requesting each
   * embeddable link as the caller — the author (or the error the caller would get), the
   * post's terms per taxonomy, the featured image if the caller may read it.
   */
  private async embed(type: PostTypeDefinition, post: Post, view: Record<string, unknown>, request: Req): Promise<Record<string, unknown>> {
    const at = request.url.indexOf('?');
    const query = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
    if (!query.has('_embed')) return view;
    const asked = query
      .getAll('_embed')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v && v !== '1' && v !== 'true');
    const wants = (rel: string) => asked.length === 0 || asked.includes(rel);
    const embedded: Record<string, unknown> = {};
    if (wants('author') && post.author_id !== null)
      embedded.author = [await createUserViews(this.usersDeps).embedFor(post.author_id, request.user)];
    const featured = Number(post.meta._thumbnail_id ?? 0) || 0;
    if (wants('wp:featuredmedia') && featured) embedded['wp:featuredmedia'] = [await this.mediaEmbed(featured, request.user)];
    const taxonomies = this.taxonomiesOf(type);
    if (wants('wp:term') && taxonomies.length) {
      embedded['wp:term'] = await Promise.all(
        taxonomies.map(async (taxonomy) => {
          const terms = await Promise.all((post.terms[taxonomy.name] ?? []).map((id) => this.deps.content.getTerm(taxonomy.name, id)));
          return terms.filter((term): term is Term => term !== null).map((term) => this.terms.termView(taxonomy, term, 0, 'embed'));
        }),
      );
    }
    return Object.keys(embedded).length ? { ...view, _embedded: embedded } : view;
  }

  /** A media item in the embed context, or the error its own route would answer the caller. */
  private async mediaEmbed(id: number, user: Principal | null): Promise<Record<string, unknown>> {
    const item = await this.deps.content.getPost(id);
    if (!item || item.post_type !== ATTACHMENT) return apiError('rest_post_invalid_id', { status: 404 }).toBody();
    if (!(await new AttachmentAccess(this.deps.content).canRead(item, user))) return apiError('rest_forbidden', { user }).toBody();
    return {
      ...attachmentView(item, this.deps.hostInfo.publicUrl(), 'embed'),
      _links: { self: [{ href: `${this.base}/media/${id}` }] },
    };
  }

  private context(request: Req, what: string): Context {
    const context = (request.query.context as Context | undefined) ?? 'view';
    if (context === 'edit' && !request.user?.can('edit_posts')) {
      throw apiError('rest_forbidden_context', { message: `Sorry, you are not allowed to edit ${what}.`, user: request.user });
    }
    return context;
  }

  private async requirePost(type: PostTypeDefinition, id: number): Promise<Post> {
    const post = await this.deps.content.getPost(id);
    if (!post || post.post_type !== type.name) throw apiError('rest_post_invalid_id', { status: 404 });
    return post;
  }

  private async checkTerms(type: PostTypeDefinition, body: Record<string, unknown>): Promise<Record<string, number[]> | undefined> {
    let terms: Record<string, number[]> | undefined;
    for (const taxonomy of this.taxonomiesOf(type)) {
      const ids = body[taxonomy.rest_base] as number[] | undefined;
      if (ids === undefined) continue;
      const unique = [...new Set(ids)];
      const found = unique.length ? (await this.deps.content.findTerms(taxonomy.name, { include: unique, per_page: 100 })).total : 0;
      if (found !== unique.length) throw invalidParam(taxonomy.rest_base, `Invalid term ID(s) in ${taxonomy.rest_base}.`);
      (terms ??= {})[taxonomy.name] = unique;
    }
    return terms;
  }

  /** The fields of a create or update body, as the content service takes them. */
  private async postFields(type: PostTypeDefinition, request: Req, current: Post | null) {
    const body = request.body;
    const fields: Record<string, unknown> = {};
    // WordPress's kses for users without unfiltered_html (authors, contributors): what
    // they store is what may be shown, in the admin's editor too.
    const text: PostText = {};
    for (const key of ['title', 'content', 'excerpt'] as const) {
      const value = rawText(body[key]);
      if (value !== undefined) text[key] = value;
    }
    Object.assign(fields, postTextFor(text, request.user?.can('unfiltered_html') === true));
    if (body.status !== undefined) fields.status = this.checkStatus(body.status as PostStatus, request.user);
    if (body.slug !== undefined) fields.slug = body.slug;
    if (body.date_gmt !== undefined && body.date_gmt !== null) fields.date = parseDate(body.date_gmt, 'date_gmt');
    else if (body.date !== undefined && body.date !== null) fields.date = parseDate(body.date, 'date');
    if (body.author !== undefined && body.author !== (current?.author_id ?? request.user?.userId)) {
      // Writing as someone else is an editor's right (WordPress: edit_others_posts).
      if (body.author !== request.user?.userId && !request.user?.can('edit_others_posts')) {
        const verb = current ? 'update' : 'create';
        throw apiError('rest_cannot_edit_others', {
          message: `Sorry, you are not allowed to ${verb} posts as this user.`,
          user: request.user,
        });
      }
      fields.author_id = body.author;
    }
    if (type.hierarchical && body.parent !== undefined) {
      const parent = body.parent as number;
      if (parent !== 0) {
        const invalid = () => apiError('rest_post_invalid_parent', { data: { params: { parent: 'Invalid post parent ID.' } } });
        const found = await this.deps.content.getPost(parent);
        if (!found || found.post_type !== type.name) throw invalid();
        // No cycles: the post may not become a descendant of itself.
        let ancestor: Post | null = found;
        for (let hops = 0; ancestor && hops < 100; hops++) {
          if (current && ancestor.post_id === current.post_id) throw invalid();
          ancestor = ancestor.parent_id === null ? null : await this.deps.content.getPost(ancestor.parent_id);
        }
      }
      fields.parent_id = parent === 0 ? null : parent;
    }
    const meta: Record<string, unknown> = { ...((body.meta as Record<string, unknown> | undefined) ?? {}) };
    if (body.featured_media !== undefined) meta._thumbnail_id = body.featured_media === 0 ? null : body.featured_media;
    if (Object.keys(meta).length) {
      // A new post has nothing to remove: null values are simply left out.
      fields.meta = current ? meta : Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== null));
    }
    const terms = await this.checkTerms(type, body);
    if (terms) fields.terms = terms;
    return fields;
  }

  /** WordPress's handle_status_param: publishing, privately too, needs publish_posts. */
  private checkStatus(status: PostStatus, user: Principal | null): PostStatus {
    if ((status === 'publish' || status === 'private') && !user?.can('publish_posts')) {
      const what = status === 'private' ? 'create private posts' : 'publish posts';
      throw apiError('rest_cannot_publish', { message: `Sorry, you are not allowed to ${what} in this post type.`, user });
    }
    return status;
  }

  private postRoutes(type: PostTypeDefinition): RouteDefinition[] {
    const shape = postShape(type, this.taxonomiesOf(type), this.base);
    return [this.listPostsRoute(type, shape), ...this.postItemRoutes(type, shape)];
  }

  /** GET /{rest_base}: a page of the type's posts, as wp/v2 lists them. */
  private listPostsRoute(type: PostTypeDefinition, { taxonomies, path, item, label }: PostShape): RouteDefinition {
    return {
      method: 'GET',
      path,
      permission: 'public',
      summary: `List ${label} (published ones unless an editor asks for other statuses)`,
      schema: {
        query: S.postListQuery(taxonomies),
        responses: { 200: { type: 'array', items: item }, ...S.commonErrors },
        responseHeaders: { 200: PAGING_HEADERS },
      },
      handle: async (raw) => {
        const request = raw as Req;
        const q = request.query;
        const context = this.context(request, label);
        if (type.public === false && !request.user?.can('edit_posts')) throw apiError('rest_forbidden', { user: request.user });
        let statuses = stringList(q, 'status');
        if (statuses.length === 0) statuses = ['publish'];
        for (const status of statuses) {
          if (!(S.LIST_STATUSES as readonly string[]).includes(status))
            throw invalidParam('status', `status[${status}] is not one of ${S.LIST_STATUSES.join(', ')}.`);
        }
        if (statuses.some((s) => s !== 'publish') && !request.user?.can('edit_posts')) throw invalidParam('status', 'Status is forbidden.');
        // 'any' is every status but trash, as in WordPress.
        const status = statuses.includes('any') ? (['publish', 'draft', 'pending', 'private'] as PostStatus[]) : (statuses as PostStatus[]);
        const page = q.page as number;
        const perPage = q.per_page as number;
        const orderby = q.orderby as string;
        const include = idList(q, 'include');
        if (orderby === 'include' && !include) throw apiError('rest_orderby_include_missing_include');
        const author = idList(q, 'author');
        const authorExclude = idList(q, 'author_exclude');
        const query: PostQuery = {
          post_type: type.name,
          status,
          order: q.order as 'asc' | 'desc',
          orderby: ORDERBY[orderby as keyof typeof ORDERBY] ?? 'date',
          per_page: perPage,
          offset: (q.offset as number | undefined) ?? (page - 1) * perPage,
        };
        if (typeof q.search === 'string' && q.search !== '') query.search = q.search;
        if (include) query.include = include;
        const exclude = idList(q, 'exclude');
        if (exclude) query.exclude = exclude;
        if (author) query.author = author;
        if (q.slug !== undefined) query.slug = stringList(q, 'slug');
        if (q.after !== undefined) query.after = parseDate(q.after, 'after');
        if (q.before !== undefined) query.before = parseDate(q.before, 'before');
        const terms: NonNullable<PostQuery['terms']> = [];
        for (const taxonomy of taxonomies) {
          const ids = idList(q, taxonomy.rest_base);
          if (ids) terms.push({ taxonomy: taxonomy.name, term_ids: ids });
        }
        if (terms.length) query.terms = terms;
        let { items, total } = await this.deps.content.findPosts(query);
        // Others' drafts and private posts are left out for those who may not read them
        // (WordPress skips them item by item; here the totals leave them out too).
        const readCheck = status.some((s) => s !== 'publish') && !readsEverything(request.user);
        if (readCheck || authorExclude?.length || q.modified_after !== undefined || q.modified_before !== undefined) {
          // Filters the store query does not carry: applied to a whole read.
          const after = q.modified_after !== undefined ? parseDate(q.modified_after, 'modified_after') : null;
          const before = q.modified_before !== undefined ? parseDate(q.modified_before, 'modified_before') : null;
          const keep = (p: Post) =>
            !(authorExclude ?? []).includes(p.author_id ?? 0) &&
            (!after || p.updated_at > after) &&
            (!before || p.updated_at < before) &&
            (!readCheck || this.canRead(type, p, request.user));
          const all: Post[] = [];
          for (let offset = 0; ; offset += 100) {
            const chunk = await this.deps.content.findPosts({ ...query, per_page: 100, offset });
            all.push(...chunk.items.filter(keep));
            if (chunk.items.length < 100 || offset > 10_000) break;
          }
          if (orderby === 'include' && include) all.sort((a, b) => include.indexOf(a.post_id) - include.indexOf(b.post_id));
          total = all.length;
          items = all.slice(query.offset, (query.offset ?? 0) + perPage);
        } else if (orderby === 'include' && include) {
          const all = (await this.deps.content.findPosts({ ...query, per_page: 100, offset: 0 })).items;
          all.sort((a, b) => include.indexOf(a.post_id) - include.indexOf(b.post_id));
          items = all.slice(query.offset, (query.offset ?? 0) + perPage);
        }
        const totalPages = Math.ceil(total / perPage);
        if (page > totalPages && total > 0) {
          throw apiError('rest_post_invalid_page_number');
        }
        const views = await Promise.all(items.map((post) => this.embed(type, post, this.postView(type, post, context), request)));
        return json(200, views, pagingHeaders(request, `${this.base}${path}`, total, perPage, page));
      },
    };
  }

  /** One post of the type: read, create, update (POST, PUT, PATCH) and delete. */
  private postItemRoutes(type: PostTypeDefinition, { path, item, body, label, invalidId, location }: PostShape): RouteDefinition[] {
    const get: RouteDefinition = {
      method: 'GET',
      path: `${path}/{id}`,
      permission: 'public',
      summary: `One ${label.replace(/s$/, '')}`,
      schema: { params: S.idParams, query: S.singleQuery, responses: { 200: item, 404: invalidId, ...S.commonErrors } },
      handle: async (raw) => {
        const request = raw as Req;
        // As WordPress: the post must exist first (404), then `context=edit` needs the right
        // to edit this post ("...to edit this post.", not the list's "...to edit posts.").
        const context = (request.query.context as Context | undefined) ?? 'view';
        const post = await this.requirePost(type, request.params.id as number);
        if (context === 'edit' && !canEditPost(post, request.user)) {
          throw apiError('rest_forbidden_context', { user: request.user });
        }
        if (!this.canRead(type, post, request.user)) throw apiError('rest_forbidden', { user: request.user });
        return json(200, await this.embed(type, post, this.postView(type, post, context), request));
      },
    };

    const create: RouteDefinition = {
      method: 'POST',
      path,
      permission: { capability: 'edit_posts' },
      summary: `Create a ${label.replace(/s$/, '')}`,
      schema: { body, responses: { 201: item, ...S.commonErrors }, responseHeaders: { 201: LOCATION_HEADER } },
      handle: async (raw) => {
        const request = raw as Req;
        const fields = await this.postFields(type, request, null);
        if (!fields.title && !fields.content && !fields.excerpt) {
          throw apiError('empty_content');
        }
        const post = await wpErrors(
          () =>
            this.deps.content.createPost({ title: '', author_id: request.user?.userId ?? null, ...fields, post_type: type.name } as never),
          { author_id: 'author', parent_id: 'parent', date: 'date' },
        );
        return json(201, this.postView(type, post, 'edit'), location(post));
      },
    };

    const update = (method: 'POST' | 'PUT' | 'PATCH'): RouteDefinition => ({
      method,
      path: `${path}/{id}`,
      permission: { capability: 'edit_posts' },
      summary: `Update a ${label.replace(/s$/, '')}`,
      schema: { params: S.idParams, body, responses: { 200: item, 404: invalidId, ...S.commonErrors } },
      handle: async (raw) => {
        const request = raw as Req;
        const current = await this.requirePost(type, request.params.id as number);
        if (!canEditPost(current, request.user)) throw apiError('rest_cannot_edit', { user: request.user });
        const fields = await this.postFields(type, request, current);
        const post = Object.keys(fields).length
          ? await wpErrors(() => this.deps.content.updatePost(current.post_id, fields as never), {
              author_id: 'author',
              parent_id: 'parent',
            })
          : current;
        return json(200, this.postView(type, post, 'edit'));
      },
    });

    const remove: RouteDefinition = {
      method: 'DELETE',
      path: `${path}/{id}`,
      permission: { capability: 'delete_posts' },
      summary: `Move a ${label.replace(/s$/, '')} to the trash, or delete it for good with force=true`,
      schema: {
        params: S.idParams,
        query: S.deleteQuery,
        body: S.deleteBody,
        responses: {
          200: { anyOf: [item, S.deletedSchema(item)] },
          404: invalidId,
          410: errorBody('rest_already_trashed'),
          ...S.commonErrors,
        },
      },
      handle: async (raw) => {
        const request = raw as Req;
        const post = await this.requirePost(type, request.params.id as number);
        if (!canDeletePost(post, request.user)) throw apiError('rest_cannot_delete', { user: request.user });
        const force = request.query.force === true || request.body.force === true;
        if (force) {
          const previous = this.postView(type, post, 'edit');
          await this.deps.content.deletePost(post.post_id);
          return json(200, { deleted: true, previous });
        }
        if (post.status === 'trash') throw apiError('rest_already_trashed');
        // The status before the trash is kept (as WordPress does) so a restore can use it.
        const trashed = await this.deps.content.updatePost(post.post_id, { status: 'trash', meta: { _wp_trash_meta_status: post.status } });
        return json(200, this.postView(type, trashed, 'edit'));
      },
    };

    return [get, create, update('POST'), update('PUT'), update('PATCH'), remove];
  }

  // ---- terms ----
}

/** What a post type's routes share: its taxonomies, path, schemas and label. */
// The taxonomies' type as the schemas take it (no import line of its own: other work edits those).
function postShape(type: PostTypeDefinition, taxonomies: Parameters<typeof S.postSchema>[1], base: string) {
  const path = `/${type.rest_base}`;
  const item = S.postSchema(type, taxonomies);
  const body = S.postBody(type, taxonomies);
  const label = type.label.toLowerCase();
  const invalidId = errorBody('rest_post_invalid_id');
  const location = (post: Post) => ({ Location: `${base}${path}/${post.post_id}` });
  return { taxonomies, path, item, body, label, invalidId, location };
}
type PostShape = ReturnType<typeof postShape>;
