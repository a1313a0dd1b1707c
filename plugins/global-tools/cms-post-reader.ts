/**
 * cms_post_reader: one post of this site, by id or by its link or slug, as plain text
 * with its excerpt, status, date and terms, if the caller may read it as wp/v2 decides it
 * (post-view.ts: a draft is for whoever may edit it, a private post for its author and
 * editors; a non-public type needs edit_posts).
 */
import {
  defineChatTool,
  type ChatToolDefinition,
  type ContentStore,
  type HostInfo,
  type Post,
  type ContentTypes,
} from '../../sdk/index.js';
import { canRead, contentText, excerptText, isoDate, linkOf } from './post-view.js';

const MAX_CHARS = 100_000;

/** A post id from `?p=12`, or the slug from the last path segment (or the text itself). */
function parseReference(ref: string): { id: number } | { slug: string } {
  const trimmed = ref.trim();
  if (/^\d+$/.test(trimmed)) return { id: Number(trimmed) };
  let url: URL | null = null;
  try {
    url = new URL(trimmed);
  } catch {
    url = null;
  }
  if (url) {
    const p = url.searchParams.get('p') ?? url.searchParams.get('page_id');
    if (p && /^\d+$/.test(p)) return { id: Number(p) };
    const segments = url.pathname.split('/').filter(Boolean);
    return { slug: decodeURIComponent(segments.at(-1) ?? '') };
  }
  return {
    slug:
      trimmed
        .replace(/^\/+|\/+$/g, '')
        .split('/')
        .at(-1) ?? '',
  };
}

export function cmsPostReaderTool(content: ContentStore, contentTypes: ContentTypes, hostInfo: HostInfo): ChatToolDefinition {
  return defineChatTool({
    name: 'cms_post_reader',
    description: `Read one post of this site by post_id, or by url (its link, e.g. https://site/?p=12 or https://site/2026/my-post, or its slug). Returns title, content as plain text (at most max_chars, default 20000), excerpt, status, date and its terms per taxonomy.`,
    parameters: {
      type: 'object',
      properties: {
        post_id: { type: 'integer', minimum: 1 },
        url: { type: 'string', minLength: 1, maxLength: 2000 },
        post_type: { type: 'string', minLength: 1, maxLength: 64 },
        max_chars: { type: 'integer', minimum: 100, maximum: MAX_CHARS, default: 20_000 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      // Checked here, not with a top-level anyOf: some providers refuse those in tool schemas.
      if (args.post_id === undefined && args.url === undefined) throw new Error('cms_post_reader needs post_id or url');
      const types = contentTypes.postTypes();
      const wanted = args.post_type === undefined ? types : types.filter((t) => t.name === args.post_type);
      if (!wanted.length) throw new Error(`Unknown post type '${String(args.post_type)}' (known: ${types.map((t) => t.name).join(', ')})`);
      const ref = args.post_id !== undefined ? { id: args.post_id } : parseReference(String(args.url));
      let post: Post | null = null;
      if ('id' in ref) {
        post = await content.getPost(ref.id);
        if (post && !wanted.some((t) => t.name === post!.post_type)) post = null;
      } else if (ref.slug) {
        for (const type of wanted) {
          const found = await content.getPostBySlug(type.name, ref.slug);
          if (!found) continue;
          // Of several types with the slug, the one the caller may read; else the first.
          post ??= found;
          if (canRead(type, found, ctx.user)) {
            post = found;
            break;
          }
        }
      }
      const what = 'id' in ref ? `post ${ref.id}` : `post with the slug '${ref.slug}'`;
      if (!post) throw new Error(`There is no ${what} on this site`);
      const type = types.find((t) => t.name === post!.post_type)!;
      if (!canRead(type, post, ctx.user)) {
        // The same answer for a draft and for nothing: a reader cannot probe for unpublished posts.
        throw new Error(
          `There is no ${what} on this site that ${ctx.user ? `user ${ctx.user.login}` : 'this caller'} may read (a post that is not published is for its author and editors)`,
        );
      }
      const maxChars = args.max_chars ?? 20_000;
      const text = contentText(post);
      const taxonomies: Record<string, Array<{ id: number; name: string; slug: string }>> = {};
      for (const taxonomy of contentTypes.taxonomies()) {
        const ids = post.terms[taxonomy.name] ?? [];
        if (!ids.length) continue;
        const terms = (await content.findTerms(taxonomy.name, { include: ids, per_page: 100 })).items;
        taxonomies[taxonomy.name] = terms.map((t) => ({ id: t.term_id, name: t.name, slug: t.slug }));
      }
      return {
        id: post.post_id,
        type: post.post_type,
        title: post.title,
        slug: post.slug,
        link: linkOf(hostInfo.publicUrl(), post),
        status: post.status,
        date: isoDate(post.date),
        modified: isoDate(post.updated_at),
        excerpt: excerptText(post, 600),
        content: text.length > maxChars ? text.slice(0, maxChars) : text,
        truncated: text.length > maxChars,
        taxonomies,
      };
    },
  });
}
