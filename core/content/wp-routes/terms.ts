/** wp/v2 term routes, one set per taxonomy at its rest_base. */
import type { TaxonomyDefinition } from '../../kernel/contributions.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { json, type RouteDefinition } from '../../kernel/routes.js';
import type { Term } from '../model.js';
import { LOCATION_HEADER, PAGING_HEADERS, pagingHeaders } from '../wp-paging.js';
import * as S from '../wp-schemas.js';
import { apiError } from '../../errors/catalogue.js';
import { WpShared } from './shared.js';
import { type Context, type Req, idList, publicMeta, stringList, termDescription, termName, wpErrors } from './params.js';

export class WpTermRoutes extends WpShared {
  /** Each taxonomy's routes at its rest_base. */
  routes(): RouteDefinition[] {
    return this.taxonomies.flatMap((taxonomy) => this.termRoutes(taxonomy));
  }

  /** A term as wp/v2 answers it (also embedded in posts as `wp:term`). */
  termView(taxonomy: TaxonomyDefinition, term: Term, count: number, context: Context): Record<string, unknown> {
    const link = `${this.deps.hostInfo.publicUrl()}/?taxonomy=${encodeURIComponent(taxonomy.name)}&term=${encodeURIComponent(term.slug)}`;
    const _links = {
      self: [{ href: `${this.base}/${taxonomy.rest_base}/${term.term_id}` }],
      collection: [{ href: `${this.base}/${taxonomy.rest_base}` }],
      about: [{ href: `${this.base}/taxonomies/${taxonomy.name}` }],
    };
    if (context === 'embed') return { id: term.term_id, link, name: term.name, slug: term.slug, taxonomy: taxonomy.name, _links };
    return {
      id: term.term_id,
      count,
      description: term.description,
      link,
      name: term.name,
      slug: term.slug,
      taxonomy: taxonomy.name,
      ...(taxonomy.hierarchical ? { parent: term.parent_id ?? 0 } : {}),
      meta: publicMeta(term.meta),
      _links,
    };
  }

  private async requireTerm(taxonomy: TaxonomyDefinition, id: number): Promise<Term> {
    const term = await this.deps.content.getTerm(taxonomy.name, id);
    if (!term) throw apiError('rest_term_invalid', { status: 404 });
    return term;
  }

  private async countOf(taxonomy: TaxonomyDefinition, term: Term): Promise<number> {
    return (await this.deps.content.termCounts(taxonomy.name, [term.term_id])).get(term.term_id) ?? 0;
  }

  private termContext(request: Req, taxonomy: TaxonomyDefinition): Context {
    const context = (request.query.context as Context | undefined) ?? 'view';
    if (context === 'edit' && !request.user?.can('manage_categories')) {
      throw apiError('rest_forbidden_context', {
        message: `Sorry, you are not allowed to edit terms in this taxonomy.`,
        user: request.user,
      });
    }
    if (taxonomy.public === false && !request.user?.can('manage_categories')) {
      throw apiError('rest_forbidden', { user: request.user });
    }
    return context;
  }

  private async checkParent(taxonomy: TaxonomyDefinition, parent: unknown): Promise<number | null | undefined> {
    if (!taxonomy.hierarchical || parent === undefined) return undefined;
    if (parent === 0) return null;
    if (!(await this.deps.content.getTerm(taxonomy.name, parent as number)))
      throw apiError('rest_term_invalid', { message: 'Parent term does not exist.', status: 400 });
    return parent as number;
  }

  private termRoutes(taxonomy: TaxonomyDefinition): RouteDefinition[] {
    return [this.listTermsRoute(taxonomy), ...this.termItemRoutes(taxonomy)];
  }

  /** GET /{rest_base}: a page of the taxonomy's terms (of one post with ?post=), as wp/v2 lists them. */
  private listTermsRoute(taxonomy: TaxonomyDefinition): RouteDefinition {
    const path = `/${taxonomy.rest_base}`;
    const item = S.termSchema(taxonomy);
    return {
      method: 'GET',
      path,
      permission: 'public',
      summary: `List ${taxonomy.label.toLowerCase()}`,
      schema: {
        query: S.termListQuery(taxonomy),
        responses: { 200: { type: 'array', items: item }, ...S.commonErrors },
        responseHeaders: { 200: PAGING_HEADERS },
      },
      handle: async (raw) => {
        const request = raw as Req;
        const q = request.query;
        const context = this.termContext(request, taxonomy);
        const perPage = q.per_page as number;
        const page = q.page as number;
        let include = idList(q, 'include');
        if (q.post !== undefined) {
          const post = await this.deps.content.getPost(q.post as number);
          const type = post ? this.types.find((t) => t.name === post.post_type) : undefined;
          if (!post || !type || !this.taxonomiesOf(type).includes(taxonomy)) throw apiError('rest_post_invalid_id', { status: 400 });
          if (!this.canRead(type, post, request.user))
            throw apiError('rest_forbidden_context', {
              message: 'Sorry, you are not allowed to view terms for this post.',
              user: request.user,
            });
          const ids = post.terms[taxonomy.name] ?? [];
          include = include ? include.filter((id) => ids.includes(id)) : ids;
        }
        const orderby = q.orderby as string;
        const offset = (q.offset as number | undefined) ?? (page - 1) * perPage;
        const found = await this.deps.content.findTerms(taxonomy.name, {
          ...(typeof q.search === 'string' && q.search !== '' ? { search: q.search } : {}),
          ...(q.parent !== undefined ? { parent_id: q.parent === 0 ? null : (q.parent as number) } : {}),
          ...(include ? { include } : {}),
          ...(q.exclude !== undefined ? { exclude: idList(q, 'exclude') } : {}),
          ...(q.slug !== undefined ? { slug: stringList(q, 'slug') } : {}),
          hide_empty: q.hide_empty === true,
          orderby: ({ id: 'term_id', name: 'name', slug: 'slug', count: 'count', include: 'term_id' } as const)[orderby] ?? 'name',
          order: q.order as 'asc' | 'desc',
          per_page: orderby === 'include' ? 100 : perPage,
          offset: orderby === 'include' ? 0 : offset,
        });
        let items = found.items;
        if (orderby === 'include' && include) {
          items = [...items].sort((a, b) => include!.indexOf(a.term_id) - include!.indexOf(b.term_id)).slice(offset, offset + perPage);
        }
        return json(
          200,
          items.map((t) => this.termView(taxonomy, t, t.count, context)),
          pagingHeaders(request, `${this.base}${path}`, found.total, perPage, page),
        );
      },
    };
  }

  /** One term of the taxonomy: read, create, update and delete. */
  private termItemRoutes(taxonomy: TaxonomyDefinition): RouteDefinition[] {
    const path = `/${taxonomy.rest_base}`;
    const item = S.termSchema(taxonomy);
    const invalid = errorBody('rest_term_invalid');
    const manage = { capability: 'manage_categories' } as const;

    const get: RouteDefinition = {
      method: 'GET',
      path: `${path}/{id}`,
      permission: 'public',
      summary: `One of the ${taxonomy.label.toLowerCase()}`,
      schema: { params: S.idParams, query: S.singleQuery, responses: { 200: item, 404: invalid, ...S.commonErrors } },
      handle: async (raw) => {
        const request = raw as Req;
        const context = this.termContext(request, taxonomy);
        const term = await this.requireTerm(taxonomy, request.params.id as number);
        return json(200, this.termView(taxonomy, term, await this.countOf(taxonomy, term), context));
      },
    };

    const create: RouteDefinition = {
      method: 'POST',
      path,
      permission: manage,
      summary: `Create a term of ${taxonomy.label.toLowerCase()}`,
      schema: { body: S.termBody(taxonomy, true), responses: { 201: item, ...S.commonErrors }, responseHeaders: { 201: LOCATION_HEADER } },
      handle: async (raw) => {
        const request = raw as Req;
        const body = request.body;
        const parent = await this.checkParent(taxonomy, body.parent);
        const term = await wpErrors(
          () =>
            this.deps.content.createTerm(taxonomy.name, {
              name: termName(body.name as string),
              ...(body.slug !== undefined ? { slug: body.slug as string } : {}),
              ...(body.description !== undefined ? { description: termDescription(body.description as string, request.user) } : {}),
              ...(parent !== undefined ? { parent_id: parent } : {}),
              ...(body.meta !== undefined
                ? { meta: Object.fromEntries(Object.entries(body.meta as object).filter(([, v]) => v !== null)) }
                : {}),
            }),
          { parent_id: 'parent' },
        );
        return json(201, this.termView(taxonomy, term, 0, 'edit'), { Location: `${this.base}${path}/${term.term_id}` });
      },
    };

    const update = (method: 'POST' | 'PUT' | 'PATCH'): RouteDefinition => ({
      method,
      path: `${path}/{id}`,
      permission: manage,
      summary: `Update a term of ${taxonomy.label.toLowerCase()}`,
      schema: { params: S.idParams, body: S.termBody(taxonomy, false), responses: { 200: item, 404: invalid, ...S.commonErrors } },
      handle: async (raw) => {
        const request = raw as Req;
        const body = request.body;
        const current = await this.requireTerm(taxonomy, request.params.id as number);
        const parent = await this.checkParent(taxonomy, body.parent);
        const term = await wpErrors(
          () =>
            this.deps.content.updateTerm(taxonomy.name, current.term_id, {
              ...(body.name !== undefined ? { name: termName(body.name as string) } : {}),
              ...(body.slug !== undefined ? { slug: body.slug as string } : {}),
              ...(body.description !== undefined ? { description: termDescription(body.description as string, request.user) } : {}),
              ...(parent !== undefined ? { parent_id: parent } : {}),
              ...(body.meta !== undefined ? { meta: body.meta as Record<string, unknown> } : {}),
            }),
          { parent_id: 'parent' },
        );
        return json(200, this.termView(taxonomy, term, await this.countOf(taxonomy, term), 'edit'));
      },
    });

    const remove: RouteDefinition = {
      method: 'DELETE',
      path: `${path}/{id}`,
      permission: manage,
      summary: `Delete a term of ${taxonomy.label.toLowerCase()} (force=true: terms have no trash)`,
      schema: {
        params: S.idParams,
        query: S.deleteQuery,
        body: S.deleteBody,
        responses: { 200: S.deletedSchema(item), 404: invalid, 501: errorBody('rest_trash_not_supported'), ...S.commonErrors },
      },
      handle: async (raw) => {
        const request = raw as Req;
        const term = await this.requireTerm(taxonomy, request.params.id as number);
        if (request.query.force !== true && request.body.force !== true) {
          throw apiError('rest_trash_not_supported', { message: "Terms do not support trashing. Set 'force=true' to delete." });
        }
        const previous = this.termView(taxonomy, term, await this.countOf(taxonomy, term), 'edit');
        await this.deps.content.deleteTerm(taxonomy.name, term.term_id);
        return json(200, { deleted: true, previous });
      },
    };

    return [get, create, update('POST'), update('PUT'), update('PATCH'), remove];
  }
}
