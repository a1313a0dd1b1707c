/**
 * The `cms-api` fetch handler: posts of another site's WordPress REST API (a WordPress
 * site at `/wp-json/wp/v2`, or another Flowhost at `/api/wp/v2`), newest first, page by
 * page. Identity is the remote post id, so each post is processed once per flow step.
 */
import { fetchHonouringRetryAfter, type DataPacket, type HandlerContext, type JsonSchema } from '../../sdk/index.js';

export type RemoteApiSettings = {
  /** The wp/v2 root, e.g. https://example.com/wp-json/wp/v2. */
  api_url: string;
  /** Path segment of the post type under wp/v2 (posts, pages, docs...). */
  rest_base: string;
  status: 'publish' | 'draft' | 'pending' | 'private' | 'any';
  search: string;
  /** Comma-separated category ids. */
  categories: string;
  per_page: number;
  /** At most this many pages are read per run. */
  pages: number;
  /** With app_password: an application password login (needed for drafts and private posts). */
  username: string;
  app_password: string;
  max_items: number;
};

export const remoteApiSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['api_url'],
  properties: {
    api_url: {
      type: 'string',
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2000,
      title: 'REST API URL',
      description: "The site's wp/v2 root, e.g. https://example.com/wp-json/wp/v2 (a Flowhost: https://host/api/wp/v2)",
    },
    rest_base: {
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9_-]{0,39}$',
      default: 'posts',
      title: 'Post type path',
      description: "posts, pages, or a custom type's rest_base",
    },
    status: {
      type: 'string',
      enum: ['publish', 'draft', 'pending', 'private', 'any'],
      default: 'publish',
      title: 'Status',
      description: 'Anything but publish needs a login',
    },
    search: { type: 'string', maxLength: 200, default: '', title: 'Search' },
    categories: {
      type: 'string',
      pattern: '^[0-9, ]*$',
      maxLength: 200,
      default: '',
      title: 'Category ids',
      description: 'Comma-separated; empty for all',
    },
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20, title: 'Posts per page' },
    pages: { type: 'integer', minimum: 1, maximum: 20, default: 1, title: 'Pages per run' },
    username: {
      type: 'string',
      maxLength: 200,
      default: '',
      title: 'Username',
      description: 'For an application password; empty reads anonymously',
    },
    app_password: { type: 'string', maxLength: 200, default: '', title: 'Application password', writeOnly: true },
    max_items: { type: 'integer', minimum: 1, maximum: 100, default: 5, title: 'Items per run' },
  },
};

export function readRemoteApiSettings(raw: Partial<RemoteApiSettings>): RemoteApiSettings {
  return {
    api_url: String(raw.api_url ?? '').replace(/\/+$/, ''),
    rest_base: raw.rest_base ?? 'posts',
    status: raw.status ?? 'publish',
    search: raw.search ?? '',
    categories: raw.categories ?? '',
    per_page: raw.per_page ?? 20,
    pages: raw.pages ?? 1,
    username: raw.username ?? '',
    app_password: raw.app_password ?? '',
    max_items: raw.max_items ?? 5,
  };
}

interface RemotePost {
  id?: unknown;
  date_gmt?: unknown;
  modified_gmt?: unknown;
  slug?: unknown;
  status?: unknown;
  type?: unknown;
  link?: unknown;
  title?: { rendered?: unknown; raw?: unknown };
  content?: { rendered?: unknown; raw?: unknown };
  excerpt?: { rendered?: unknown; raw?: unknown };
  categories?: unknown;
  tags?: unknown;
  featured_media?: unknown;
}

export async function fetchRemotePosts(ctx: HandlerContext, settings: RemoteApiSettings): Promise<DataPacket[]> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const loggedIn = settings.username !== '' && settings.app_password !== '';
  // WordPress shows application passwords with spaces; it accepts them either way.
  if (loggedIn) headers.Authorization = `Basic ${Buffer.from(`${settings.username}:${settings.app_password}`).toString('base64')}`;
  if (settings.status !== 'publish' && !loggedIn)
    throw new Error(`Reading ${settings.status} posts needs a login: set username and app_password`);

  const out: DataPacket[] = [];
  for (let page = 1; page <= settings.pages; page++) {
    const url = new URL(`${settings.api_url}/${settings.rest_base}`);
    url.searchParams.set('page', String(page));
    url.searchParams.set('per_page', String(settings.per_page));
    url.searchParams.set('orderby', 'date');
    url.searchParams.set('order', 'desc');
    url.searchParams.set('status', settings.status);
    if (loggedIn) url.searchParams.set('context', 'edit');
    if (settings.search) url.searchParams.set('search', settings.search);
    const categories = settings.categories
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    if (categories.length) url.searchParams.set('categories', categories.join(','));

    const response = await fetchHonouringRetryAfter(ctx.fetch, url.toString(), { headers }, 'The site');
    const body = response.text();
    // WordPress answers a page past the last with this error instead of an empty list.
    if (response.status === 400 && body.includes('rest_post_invalid_page_number')) break;
    if (response.status === 401 || response.status === 403)
      throw new Error(`The site refused the request (HTTP ${response.status}): ${errorMessage(body)}`);
    if (!response.ok) throw new Error(`The site answered HTTP ${response.status}${errorMessage(body) ? `: ${errorMessage(body)}` : ''}`);
    let posts: unknown;
    try {
      posts = JSON.parse(body);
    } catch {
      throw new Error(`The site's answer at ${url.pathname} is not JSON; is ${settings.api_url} its wp/v2 root?`);
    }
    if (!Array.isArray(posts))
      throw new Error(`The site's answer at ${url.pathname} is not a list of posts; is ${settings.api_url} its wp/v2 root?`);
    for (const post of posts as RemotePost[]) {
      const packet = toPacket(post, settings.api_url);
      if (packet) out.push(packet);
    }
    const totalPages = Number(response.headers['x-wp-totalpages']);
    if (posts.length < settings.per_page || (Number.isFinite(totalPages) && page >= totalPages)) break;
  }
  return out;
}

function toPacket(post: RemotePost, apiUrl: string): DataPacket | null {
  if (typeof post.id !== 'number' || !Number.isSafeInteger(post.id)) return null;
  const text = (field: { rendered?: unknown; raw?: unknown } | undefined) => String(field?.raw ?? field?.rendered ?? '');
  const link = typeof post.link === 'string' ? post.link : '';
  return {
    type: 'cms_api_post',
    data: {
      remote_id: post.id,
      title: decodeEntities(String(post.title?.raw ?? post.title?.rendered ?? '')),
      content: text(post.content),
      excerpt: text(post.excerpt),
      link,
      slug: String(post.slug ?? ''),
      status: String(post.status ?? ''),
      date_gmt: String(post.date_gmt ?? ''),
      categories: Array.isArray(post.categories) ? post.categories : [],
      tags: Array.isArray(post.tags) ? post.tags : [],
    },
    metadata: { item_id: String(post.id), source_url: link || `${apiUrl}/posts/${post.id}`, remote_id: post.id },
  };
}

function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message.slice(0, 300) : '';
  } catch {
    return '';
  }
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** WordPress renders titles with entities (`&#8217;`); a packet's title is plain text. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
