/**
 * The core content domain: one store of posts and hierarchical taxonomy terms that
 * handlers (cms, cms-local, cms-update), docs sync and the events calendar all share.
 * Plugins reach it as `host.content` / `ctx.content` through this interface only.
 */
export type PostStatus = 'publish' | 'draft' | 'pending' | 'private' | 'trash';

export interface Post {
  post_id: number;
  post_type: string;
  status: PostStatus;
  title: string;
  /** Unique per post_type; derived from the title when not given. */
  slug: string;
  /** HTML or markdown, as written. */
  content: string;
  excerpt: string;
  meta: Record<string, unknown>;
  /** taxonomy → term ids. */
  terms: Record<string, number[]>;
  author_id: number | null;
  parent_id: number | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
}

export interface NewPost {
  post_type?: string;
  status?: PostStatus;
  title: string;
  slug?: string;
  content?: string;
  excerpt?: string;
  meta?: Record<string, unknown>;
  terms?: Record<string, number[]>;
  author_id?: number | null;
  parent_id?: number | null;
}

export type PostPatch = Partial<Omit<NewPost, 'post_type'>>;

export interface Term {
  term_id: number;
  taxonomy: string;
  name: string;
  slug: string;
  parent_id: number | null;
  description: string;
  meta: Record<string, unknown>;
}

export interface PostQuery {
  post_type?: string;
  status?: PostStatus | PostStatus[];
  /** Case-insensitive substring of title or content (literal, not a pattern). */
  search?: string;
  /** Posts carrying this term (by id or slug) of the taxonomy. */
  term?: { taxonomy: string; term_id?: number; slug?: string };
  /** Exact matches on meta fields. */
  meta?: Record<string, string | number | boolean>;
  /** Children of this post; null: posts without a parent. */
  parent_id?: number | null;
  orderby?: 'created_at' | 'post_id' | 'title' | 'published_at';
  order?: 'asc' | 'desc';
  per_page?: number;
  offset?: number;
}

export interface ContentStore {
  createPost(input: NewPost): Promise<Post>;
  updatePost(postId: number, patch: PostPatch): Promise<Post>;
  getPost(postId: number): Promise<Post | null>;
  getPostBySlug(postType: string, slug: string): Promise<Post | null>;
  findPosts(query: PostQuery): Promise<{ items: Post[]; total: number }>;
  deletePost(postId: number): Promise<boolean>;
  /** The term with this name (or slug) in the taxonomy, created when missing. */
  ensureTerm(taxonomy: string, name: string, options?: { slug?: string; parent_id?: number | null; description?: string }): Promise<Term>;
  getTerm(taxonomy: string, idOrSlug: number | string): Promise<Term | null>;
  listTerms(taxonomy: string, options?: { parent_id?: number | null }): Promise<Term[]>;
}
