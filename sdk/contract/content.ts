/**
 * The contract of the content domain: one store of posts and hierarchical taxonomy terms
 * that handlers (cms, cms-local, cms-update), docs sync and the events calendar all share.
 * Plugins reach it as `services.content` / `ctx.content` through `ContentStore` only.
 * This file imports nothing: the kernel's handler context names these types, and the
 * kernel knows no domain.
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
  /**
   * The post's date as WordPress shows it: the date given on create or update, else the
   * first publication, else the creation. (Posts stored before this field fall back the
   * same way when read.)
   */
  date: Date;
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
  /** The post's date (WordPress's post_date); default: now, then the first publication. */
  date?: Date;
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
  /**
   * Posts carrying any of the term ids of each listed taxonomy (AND across entries, OR
   * within one), as wp/v2's `categories=1,2&tags=5` does. An empty id list matches nothing.
   */
  terms?: Array<{ taxonomy: string; term_ids: number[] }>;
  /** Only these post ids. */
  include?: number[];
  /** Not these post ids. */
  exclude?: number[];
  /** Any of these slugs. */
  slug?: string[];
  /** Any of these author ids. */
  author?: number[];
  /** `date` strictly after / before. */
  after?: Date;
  before?: Date;
  /** Exact matches on meta fields. */
  meta?: Record<string, string | number | boolean>;
  /** Children of this post; null: posts without a parent. */
  parent_id?: number | null;
  orderby?: 'created_at' | 'post_id' | 'title' | 'published_at' | 'updated_at' | 'slug' | 'date';
  order?: 'asc' | 'desc';
  per_page?: number;
  offset?: number;
}

export interface NewTerm {
  name: string;
  slug?: string;
  parent_id?: number | null;
  description?: string;
  meta?: Record<string, unknown>;
}

export type TermPatch = Partial<NewTerm>;

/** Terms of one taxonomy; every filter is optional. */
export interface TermQuery {
  /** Case-insensitive substring of name or slug (literal). */
  search?: string;
  parent_id?: number | null;
  include?: number[];
  exclude?: number[];
  slug?: string[];
  /** Only terms at least one published post carries. */
  hide_empty?: boolean;
  orderby?: 'name' | 'term_id' | 'slug' | 'count';
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
  /** A new term; 400 `term_exists` (data.term_id) when one has this name or slug already. */
  createTerm(taxonomy: string, input: NewTerm): Promise<Term>;
  updateTerm(taxonomy: string, termId: number, patch: TermPatch): Promise<Term>;
  /** Removes the term from every post; its children move up to its parent. */
  deleteTerm(taxonomy: string, termId: number): Promise<boolean>;
  /** Terms with `count` (published posts carrying each), filtered, sorted and paged. */
  findTerms(taxonomy: string, query?: TermQuery): Promise<{ items: Array<Term & { count: number }>; total: number }>;
}
