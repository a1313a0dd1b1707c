/**
 * wp/v2 users, read-only, as WP_REST_Users_Controller answers them: `/users/me`, the list
 * and one user, in the view, edit and embed contexts. Users are managed through the host's
 * own user routes; WordPress clients only read them (the logged-in user, post authors).
 *
 * Visibility is WordPress's: a caller without `list_users` sees only users who have
 * published posts of a public type (and always themselves), so author names shown on
 * public posts are public and nothing else about the user base is.
 */
import type { PostTypeDefinition } from '../kernel/contributions.js';
import type { JsonSchema } from '../kernel/json-schema.js';
import type { Principal } from '../kernel/principal.js';
import { errorBody } from '../kernel/response-schemas.js';
import { json, type RouteDefinition, type RouteRequest } from '../kernel/routes.js';
import type { UserView } from '../users/model.js';
import { roleCapabilities, isRole } from '../users/roles.js';
import type { UsersService } from '../users/service.js';
import type { ContentService } from './service.js';
import { PAGING_HEADERS, pagingHeaders } from './wp-paging.js';
import * as S from './wp-schemas.js';
import { apiError } from '../errors/catalogue.js';

type Context = 'view' | 'edit' | 'embed';
type Req = RouteRequest<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>>;

export interface WpUsersDeps {
  users: UsersService;
  content: ContentService;
  /** The public post types (authors of their published posts are public). */
  publicTypes: () => readonly PostTypeDefinition[];
  /** `{publicUrl}` and `{publicUrl}{prefix}/wp/v2`, read per request (behind a proxy they follow the client's origin). */
  siteUrl: () => string;
  apiBase: () => string;
}

const cannotList = (user: Principal | null, message = 'Sorry, you are not allowed to list users.') =>
  apiError('rest_user_cannot_view', { message, user });

/** WordPress's user_nicename: the login, lower-cased, with anything but [a-z0-9_-] turned into '-'. */
const slugOf = (login: string) => login.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');

/** WordPress's `c` date format (`2024-01-31T10:00:00+00:00`). */
const registeredDate = (iso: string) => `${iso.slice(0, 19)}+00:00`;

const links = { type: 'object', additionalProperties: true } as const;

export const userSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'slug', 'link'],
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    name: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    email: { type: 'string' },
    url: { type: 'string' },
    description: { type: 'string' },
    link: { type: 'string' },
    locale: { type: 'string' },
    nickname: { type: 'string' },
    slug: { type: 'string' },
    registered_date: { type: 'string' },
    roles: { type: 'array', items: { type: 'string' } },
    capabilities: { type: 'object', additionalProperties: { type: 'boolean' } },
    extra_capabilities: { type: 'object', additionalProperties: { type: 'boolean' } },
    meta: { type: 'object', additionalProperties: true },
    _links: links,
  },
};

const userListQuery: JsonSchema = {
  type: 'object',
  properties: {
    context: { type: 'string', enum: ['view', 'edit', 'embed'], default: 'view' },
    page: { type: 'integer', minimum: 1, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    search: { type: 'string', maxLength: 200 },
    exclude: S.listParam,
    include: S.listParam,
    offset: { type: 'integer', minimum: 0 },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
    orderby: {
      type: 'string',
      enum: ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'],
      default: 'name',
    },
    slug: S.listParam,
    roles: S.listParam,
    capabilities: S.listParam,
    who: { type: 'string', enum: ['authors'] },
    has_published_posts: { type: 'boolean' },
  },
};

const userErrors = {
  ...S.commonErrors,
  400: errorBody('rest_invalid_param', 'rest_post_invalid_page_number'),
  401: errorBody('rest_forbidden_context', 'rest_user_cannot_view', 'rest_forbidden_orderby', 'rest_forbidden_who', 'rest_not_logged_in'),
  403: errorBody('rest_forbidden_context', 'rest_user_cannot_view', 'rest_forbidden_orderby', 'rest_forbidden_who'),
  404: errorBody('rest_user_invalid_id'),
};

const listOf = (value: unknown): string[] =>
  (value === undefined ? [] : Array.isArray(value) ? value : [value])
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter(Boolean);

/** The user views and the visibility rule, shared by the routes and `_embed` (a post's author). */
export function createUserViews(deps: WpUsersDeps) {
  const capabilitiesOf = (user: UserView): Record<string, boolean> => {
    const granted = isRole(user.role) ? roleCapabilities[user.role] : [];
    return Object.fromEntries([user.role, ...granted, ...user.capabilities].map((c) => [c, true]));
  };

  const view = (user: UserView, context: Context): Record<string, unknown> => {
    const _links = { self: [{ href: `${deps.apiBase()}/users/${user.user_id}` }], collection: [{ href: `${deps.apiBase()}/users` }] };
    // This host stores a login and a role, no profile: the name is the login, the rest empty.
    const base = {
      id: user.user_id,
      name: user.login,
      url: '',
      description: '',
      link: `${deps.siteUrl()}/?author=${user.user_id}`,
      slug: slugOf(user.login),
    };
    if (context === 'embed') return { ...base, _links };
    const shown: Record<string, unknown> = { ...base, meta: {} };
    if (context === 'edit') {
      Object.assign(shown, {
        username: user.login,
        first_name: '',
        last_name: '',
        email: '',
        locale: 'en_US',
        nickname: user.login,
        registered_date: registeredDate(user.created_at),
        roles: [user.role],
        capabilities: capabilitiesOf(user),
        extra_capabilities: Object.fromEntries(
          [user.role, ...user.capabilities.filter((c) => !(isRole(user.role) && roleCapabilities[user.role].includes(c)))].map((c) => [
            c,
            true,
          ]),
        ),
      });
    }
    return { ...shown, _links };
  };

  /** Whether the user has published posts of a public type (count_user_posts > 0). */
  const hasPublished = async (userId: number): Promise<boolean> => {
    for (const type of deps.publicTypes()) {
      const found = await deps.content.findPosts({ post_type: type.name, status: 'publish', author: [userId], per_page: 1 });
      if (found.total > 0) return true;
    }
    return false;
  };

  /**
   * The author of a post as `_embed` shows it (WordPress embeds by requesting the link as
   * the caller): the embed view when the caller may see the user, else the error body.
   */
  const embedFor = async (userId: number, viewer: Principal | null): Promise<Record<string, unknown>> => {
    if (!(await deps.users.exists(userId))) return apiError('rest_user_invalid_id').toBody();
    if (viewer?.userId !== userId && !viewer?.can('list_users') && !(await hasPublished(userId))) return cannotList(viewer).toBody();
    return view(await deps.users.get(userId), 'embed');
  };

  return { view, hasPublished, capabilitiesOf, embedFor };
}

export function wpUserRoutes(deps: WpUsersDeps): RouteDefinition[] {
  const { view, hasPublished, capabilitiesOf } = createUserViews(deps);

  const contextOf = (request: Req): Context => (request.query.context as Context | undefined) ?? 'view';

  const me: RouteDefinition = {
    method: 'GET',
    path: '/users/me',
    permission: 'public',
    summary: 'The logged-in user (401 rest_not_logged_in for a stranger)',
    schema: { query: S.singleQuery, responses: { 200: userSchema, ...userErrors } },
    handle: async (raw) => {
      const request = raw as Req;
      // WordPress's get_current_item: being logged in is enough, in every context.
      if (!request.user) throw apiError('rest_not_logged_in');
      return json(200, view(await deps.users.get(request.user.userId), contextOf(request)));
    },
  };

  const one: RouteDefinition = {
    method: 'GET',
    path: '/users/{id}',
    permission: 'public',
    summary: 'One user (authors of published posts are public; others need list_users)',
    schema: { params: S.idParams, query: S.singleQuery, responses: { 200: userSchema, ...userErrors } },
    handle: async (raw) => {
      const request = raw as Req;
      const id = request.params.id as number;
      const context = contextOf(request);
      const invalid = () => apiError('rest_user_invalid_id');
      if (!(await deps.users.exists(id))) throw invalid();
      const user = await deps.users.get(id);
      const mayList = request.user?.can('list_users') === true;
      // get_item_permissions_check: oneself always; otherwise edit needs list_users, and
      // without it only an author of published posts is shown.
      if (request.user?.userId !== id) {
        if (context === 'edit' && !mayList) throw cannotList(request.user);
        if (!mayList && !(await hasPublished(id))) throw cannotList(request.user);
      }
      return json(200, view(user, context));
    },
  };

  const list: RouteDefinition = {
    method: 'GET',
    path: '/users',
    permission: 'public',
    summary: 'Users (without list_users: only those with published posts)',
    schema: {
      query: userListQuery,
      responses: { 200: { type: 'array', items: userSchema }, ...userErrors },
      responseHeaders: { 200: PAGING_HEADERS },
    },
    handle: async (raw) => {
      const request = raw as Req;
      const q = request.query;
      const user = request.user;
      const mayList = user?.can('list_users') === true;
      const context = contextOf(request);
      // get_items_permissions_check, in WordPress's order.
      if (q.roles !== undefined && !mayList) throw cannotList(user, 'Sorry, you are not allowed to filter users by role.');
      if (q.capabilities !== undefined && !mayList) throw cannotList(user, 'Sorry, you are not allowed to filter users by capability.');
      if (context === 'edit' && !mayList)
        throw apiError('rest_forbidden_context', { message: 'Sorry, you are not allowed to list users.', user });
      if (['email', 'registered_date'].includes(q.orderby as string) && !mayList) {
        throw apiError('rest_forbidden_orderby', { user });
      }
      if (q.who === 'authors' && !user?.can('edit_posts')) {
        throw apiError('rest_forbidden_who', { user });
      }
      let users = await deps.users.list();
      const include = listOf(q.include).map(Number);
      const exclude = listOf(q.exclude).map(Number);
      const slugs = listOf(q.slug);
      const roles = listOf(q.roles);
      const caps = listOf(q.capabilities);
      const search = typeof q.search === 'string' ? q.search.toLowerCase() : '';
      if (include.length) users = users.filter((u) => include.includes(u.user_id));
      if (exclude.length) users = users.filter((u) => !exclude.includes(u.user_id));
      if (slugs.length) users = users.filter((u) => slugs.includes(slugOf(u.login)));
      if (roles.length) users = users.filter((u) => roles.includes(u.role));
      if (caps.length) users = users.filter((u) => caps.every((c) => capabilitiesOf(u)[c] === true));
      if (search) users = users.filter((u) => u.login.toLowerCase().includes(search) || String(u.user_id) === search);
      if (q.who === 'authors') users = users.filter((u) => capabilitiesOf(u).edit_posts === true);
      // get_items: without list_users, has_published_posts is forced on.
      if (!mayList || q.has_published_posts === true) {
        const published = await Promise.all(users.map((u) => hasPublished(u.user_id)));
        users = users.filter((_, i) => published[i]);
      }
      const orderby = q.orderby as string;
      const key = (u: UserView): string | number =>
        orderby === 'id'
          ? u.user_id
          : orderby === 'registered_date'
            ? u.created_at
            : orderby === 'include'
              ? include.indexOf(u.user_id)
              : orderby === 'include_slugs'
                ? slugs.indexOf(slugOf(u.login))
                : orderby === 'slug'
                  ? slugOf(u.login)
                  : orderby === 'email' || orderby === 'url'
                    ? ''
                    : u.login.toLowerCase();
      const sign = q.order === 'desc' ? -1 : 1;
      users = [...users].sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        return (x < y ? -1 : x > y ? 1 : a.user_id - b.user_id) * sign;
      });
      const perPage = q.per_page as number;
      const page = q.page as number;
      const offset = (q.offset as number | undefined) ?? (page - 1) * perPage;
      const total = users.length;
      if (page > Math.ceil(total / perPage) && total > 0) {
        throw apiError('rest_post_invalid_page_number');
      }
      const items = users.slice(offset, offset + perPage).map((u) => view(u, context));
      return json(200, items, pagingHeaders(request, `${deps.apiBase()}/users`, total, perPage, page));
    },
  };

  // /users/me before /users/{id}: 'me' is not an id (the id schema refuses it anyway).
  return [me, list, one];
}
