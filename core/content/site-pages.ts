/**
 * The site's public pages at the addresses wp/v2 hands out as `link`, WordPress's plain
 * permalinks: `/?p={id}` (any post type with wp/v2 routes), `/?taxonomy={name}&term={slug}`
 * and `/?author={id}`; `/` itself lists the newest posts. Every answer from `/` carries the
 * discovery header `Link: <{api}/>; rel="https://api.w.org/"` (GET and HEAD), so a client
 * given only the site's address finds the API.
 *
 * What a page shows follows wp/v2's read rights: a post opens for whoever may read it
 * (post-caps.ts); to anyone else a draft or private post is the same 404 as a missing one,
 * so a page never tells a stranger that something unpublished exists. Archives list
 * published posts only. Pages are server-rendered (site-templates.ts) under a CSP that runs
 * no script and loads nothing but images.
 */
import type { PostTypeDefinition, TaxonomyDefinition } from '../kernel/contributions.js';
import type { SiteHooks } from './site-hooks.js';
import type { HostInfo } from '../kernel/plugin.js';
import type { Principal } from '../kernel/principal.js';
import type { ContentTypes } from '../../sdk/contract/content-types.js';
import { page, type RouteDefinition, type RouteReply, type SurfaceDefinition } from '../kernel/routes.js';
import type { UsersService } from '../users/service.js';
import type { Post } from './model.js';
import { canReadPost } from './post-caps.js';
import { plainText, renderContent, renderExcerpt, renderTitle } from './render.js';
import type { ContentService } from './service.js';
import { renderArchive, renderNotFound, renderSingle, type ListedPost } from './site-templates.js';
import { defineRoute } from '../../sdk/define.js';

export const SITE_CSP =
  "default-src 'none'; img-src 'self' https: data:; style-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const SITE_NAME = 'Flowhost';
const PER_PAGE = 10;

export interface SitePagesDeps {
  hooks: SiteHooks;
  content: ContentService;
  contentTypes: ContentTypes;
  hostInfo: HostInfo;
  users: UsersService;
}

const text = { type: 'string', maxLength: 200 } as const;

/** A redirect's body: a page that still says where to go, for a client that does not follow. */
const movedPage = (to: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Moved</title></head><body><p><a href="${plainText(to)}">Continue</a></p></body></html>`;

export function sitePagesSurface(deps: SitePagesDeps): SurfaceDefinition {
  return { id: 'site-pages', mount: 'site-root', routes: [rootRoute(deps, siteKit(deps))] };
}

const idOf = (value: unknown): number | null => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : null);

/** What every page is built with: the site's addresses, the types it shows, and the answer's headers and frame. */
function siteKit(deps: SitePagesDeps) {
  const site = () => deps.hostInfo.publicUrl();
  const api = () => `${site()}${deps.hostInfo.apiPrefix}`;
  // Types with wp/v2 routes (a 'custom' controller, the media library, links to its files instead).
  const types = (): PostTypeDefinition[] => deps.contentTypes.postTypes().filter((t) => t.rest_controller !== 'custom');
  const taxonomies = (): readonly TaxonomyDefinition[] => deps.contentTypes.taxonomies();
  const postLink = (post: Post) => `${site()}/?p=${post.post_id}`;
  const termLink = (taxonomy: string, slug: string) => `${site()}/?${new URLSearchParams({ taxonomy, term: slug }).toString()}`;

  const answer = (status: number, html: string, extra: Record<string, string | string[]> = {}, shared = true): RouteReply =>
    page(status, html, {
      'Content-Security-Policy': SITE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      // A page only some may read must not be kept by a shared cache.
      'Cache-Control': shared ? 'no-cache' : 'private, no-store',
      ...extra,
      Link: [`<${api()}/>; rel="https://api.w.org/"`, ...((extra.Link as string[] | undefined) ?? [])],
    });
  const frame = (title: string, alternate?: string) => ({
    titleHtml: plainText(title),
    site: SITE_NAME,
    home: site(),
    api: `${api()}/`,
    ...(alternate ? { alternate } : {}),
  });
  const missing = () => answer(404, renderNotFound(frame('Not found')), {}, false);

  const listed = (post: Post): ListedPost => {
    const content = renderContent(post.content, post.meta.content_format);
    return {
      titleHtml: renderTitle(post.title),
      link: postLink(post),
      date: post.date.toISOString().slice(0, 19),
      excerptHtml: renderExcerpt(post.excerpt, content, post.meta.content_format),
    };
  };

  return { site, api, types, taxonomies, postLink, termLink, answer, frame, missing, listed };
}
type SiteKit = ReturnType<typeof siteKit>;

/** One page of published posts, newest first, with links to the neighbouring pages. */
const archiveOf =
  (deps: SitePagesDeps, { site, types, answer, frame, listed }: SiteKit) =>
  async (
    title: string,
    description: string,
    query: { post_type?: string; author?: number[]; term?: { taxonomy: string; term_id: number } },
    paged: number,
    here: URLSearchParams,
    /** False when the page differs by who asks: not for a shared cache. */
    shared = true,
  ) => {
    const found = await deps.content.findPosts({
      ...query,
      status: 'publish',
      order: 'desc',
      orderby: 'date',
      per_page: PER_PAGE,
      offset: (paged - 1) * PER_PAGE,
    });
    const publicTypes = new Set(
      types()
        .filter((t) => t.public !== false)
        .map((t) => t.name),
    );
    const at = (n: number) => {
      const params = new URLSearchParams(here);
      if (n === 1) params.delete('paged');
      else params.set('paged', String(n));
      const search = params.toString();
      return `${site()}/${search ? `?${search}` : ''}`;
    };
    const pages = Math.ceil(found.total / PER_PAGE);
    return answer(
      200,
      renderArchive(frame(title), {
        heading: title,
        description,
        posts: found.items.filter((p) => publicTypes.has(p.post_type)).map(listed),
        prev: paged > 1 ? at(paged - 1) : null,
        next: paged < pages ? at(paged + 1) : null,
      }),
      {},
      shared,
    );
  };

/** One post's page, for whoever may read it (to anyone else the same 404 as a missing post). */
const singleOf =
  (deps: SitePagesDeps, { site, api, types, taxonomies, termLink, answer, frame, missing }: SiteKit) =>
  async (id: number, user: Principal | null) => {
    const post = await deps.content.getPost(id);
    const type = post ? types().find((t) => t.name === post.post_type) : undefined;
    if (!post || !type) return missing();
    // wp/v2's check_read_permission: a type that is not public is for editors; then the post's own rights.
    if ((type.public === false && !user?.can('edit_posts')) || !canReadPost(post, user)) return missing();
    const author = post.author_id !== null && (await deps.users.exists(post.author_id)) ? await deps.users.get(post.author_id) : null;
    const terms: Array<{ name: string; link: string }> = [];
    for (const taxonomy of taxonomies()) {
      for (const termId of post.terms[taxonomy.name] ?? []) {
        const term = await deps.content.getTerm(taxonomy.name, termId);
        if (term) terms.push({ name: term.name, link: termLink(taxonomy.name, term.slug) });
      }
    }
    const html = renderSingle(frame(post.title, `${api()}/wp/v2/${type.rest_base}/${post.post_id}`), {
      titleHtml: renderTitle(post.title),
      date: post.date.toISOString().slice(0, 19),
      contentHtml: renderContent(post.content, post.meta.content_format),
      author: author ? { name: author.login, link: `${site()}/?author=${author.user_id}` } : null,
      terms,
    });
    // As WordPress's rest_output_link_header on a single post: where its JSON is.
    return answer(
      200,
      html,
      { Link: [`<${api()}/wp/v2/${type.rest_base}/${post.post_id}>; rel="alternate"; type="application/json"`] },
      post.status === 'publish',
    );
  };

/** `/`: the newest posts, one post, or a term's or an author's archive, by the query. */
function rootRoute(deps: SitePagesDeps, kit: SiteKit): RouteDefinition {
  const { taxonomies, missing } = kit;
  const archive = archiveOf(deps, kit);
  const single = singleOf(deps, kit);
  return defineRoute({
    method: 'GET',
    path: '/',
    permission: 'public',
    // A navigation: the session cookie counts without its nonce, so an author sees their
    // own draft. The route changes nothing.
    credentials: 'page',
    summary: 'The site: newest posts, or one post (?p=), a term archive (?taxonomy=&term=), an author archive (?author=)',
    schema: {
      query: { type: 'object', properties: { p: text, page_id: text, taxonomy: text, term: text, author: text, paged: text } },
      responses: {
        200: { type: 'string', contentMediaType: 'text/html' },
        302: { type: 'string', contentMediaType: 'text/html', description: 'A signed-in user whom a plugin sends elsewhere (the console)' },
        404: { type: 'string', contentMediaType: 'text/html' },
      },
    },
    handle: async (request) => {
      const q = request.query;
      const paged = idOf(q.paged ?? '1') ?? 0;
      if (paged < 1) return missing();
      if (q.p !== undefined || q.page_id !== undefined) {
        const id = idOf(q.p ?? q.page_id);
        return id === null ? missing() : single(id, request.user);
      }
      if (q.taxonomy !== undefined || q.term !== undefined) {
        const taxonomy = taxonomies().find((t) => t.name === q.taxonomy && t.public !== false);
        const term = taxonomy && q.term ? await deps.content.getTerm(taxonomy.name, q.term) : null;
        if (!taxonomy || !term) return missing();
        return archive(
          `${taxonomy.label}: ${term.name}`,
          term.description,
          { term: { taxonomy: taxonomy.name, term_id: term.term_id } },
          paged,
          new URLSearchParams({ taxonomy: taxonomy.name, term: term.slug }),
        );
      }
      if (q.author !== undefined) {
        const id = idOf(q.author);
        if (id === null || !(await deps.users.exists(id))) return missing();
        // WordPress answers an existing author's archive with 200, posts or not (the link
        // users/me hands out must open). The login is shown as wp/v2 shows the user: to
        // that user, to list_users, or to anyone once they have published posts; otherwise
        // the page names nobody, and is not kept by a shared cache.
        const published = await deps.content.findPosts({ author: [id], status: 'publish', per_page: 1 });
        const named = published.total > 0 || request.user?.userId === id || request.user?.can('list_users') === true;
        const title = named ? `Author: ${(await deps.users.get(id)).login}` : 'Author archive';
        return archive(title, '', { author: [id] }, paged, new URLSearchParams({ author: String(id) }), published.total > 0);
      }
      // The bare root for a user signed in with the browser session: where a plugin sends
      // them (the console), if one does. API clients (Basic, application passwords) keep
      // the site and its discovery header: a WordPress client finds the API here.
      if (request.user?.via === 'cookie' && Object.keys(q).length === 0) {
        const home = await deps.hooks.siteHome.promise(request.user);
        if (home) return page(302, movedPage(home), { Location: home, 'Cache-Control': 'no-store' });
      }
      return archive('Latest posts', '', { post_type: 'post' }, paged, new URLSearchParams());
    },
  });
}
