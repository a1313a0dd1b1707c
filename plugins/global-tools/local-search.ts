/**
 * local_search: this site's posts of every registered type the caller may read whose
 * title or content contains the text: published ones, and for a user with edit_posts the
 * drafts, pending and private ones they may read (WordPress's read_post: an author their
 * own, an editor everyone's), as wp/v2 lists them for that user.
 */
import {
  defineChatTool,
  findReadablePosts,
  type ChatToolDefinition,
  type ContentStore,
  type HostInfo,
  type Post,
  type PostStatus,
  type ContentTypes,
} from '../../sdk/index.js';
import { excerptText, isoDate, linkOf, readableTypes } from './post-view.js';

const EDITOR_STATUSES: PostStatus[] = ['publish', 'draft', 'pending', 'private'];

export function localSearchTool(content: ContentStore, contentTypes: ContentTypes, hostInfo: HostInfo): ChatToolDefinition {
  return defineChatTool({
    name: 'local_search',
    description:
      "Search this site's own posts (every post type) by text in title or content. Returns the newest matches first: id, type, title, link, excerpt, date, status. Read one whole with cms_post_reader.",
    parameters: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 200 },
        post_type: { type: 'string', minLength: 1, maxLength: 64 },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 10 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      const query = String(args.query);
      const limit = args.limit ?? 10;
      let types = readableTypes(contentTypes, ctx.user);
      if (args.post_type !== undefined) {
        const known = contentTypes.postTypes().map((t) => t.name);
        if (!known.includes(String(args.post_type)))
          throw new Error(`Unknown post type '${String(args.post_type)}' (known: ${known.join(', ')})`);
        types = types.filter((t) => t.name === args.post_type);
        if (!types.length)
          throw new Error(`Posts of type '${String(args.post_type)}' are not public; reading them needs the edit_posts capability`);
      }
      const status = ctx.user?.can('edit_posts') ? EDITOR_STATUSES : (['publish'] as PostStatus[]);
      const found: Post[] = [];
      let total = 0;
      for (const type of types) {
        const page = await findReadablePosts(
          content,
          { post_type: type.name, status, search: query, orderby: 'date', order: 'desc', per_page: limit, offset: 0 },
          ctx.user,
        );
        found.push(...page.items);
        total += page.total;
      }
      const publicUrl = hostInfo.publicUrl();
      const results = found
        .sort((a, b) => new Date(b.date).getTime() - new Date(a.date).getTime() || b.post_id - a.post_id)
        .slice(0, limit)
        .map((post) => ({
          id: post.post_id,
          type: post.post_type,
          title: post.title,
          link: linkOf(publicUrl, post),
          excerpt: excerptText(post),
          date: isoDate(post.date),
          status: post.status,
        }));
      return { query, total, results };
    },
  });
}
