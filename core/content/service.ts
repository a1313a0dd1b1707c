/**
 * The core content store on the DocumentStore port: posts with a type, status, unique
 * slug, content, meta and taxonomy terms. Handlers reach it as `ctx.content`, plugins as
 * `host.content`; nothing else writes these collections.
 */
import { randomBytes } from 'node:crypto';
import { ApiError, conflict, notFound } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import { DuplicateKeyError, type Collection, type DocumentStore, type Update } from '../store/port.js';
import type { ContentStore, NewPost, Post, PostPatch, PostQuery, Term } from './model.js';
import { DEFAULT_PER_PAGE, postFilter, postSort } from './post-query.js';
import { POSTS, POST_SLUG_INDEX, TERMS, TERM_SLUG_INDEX, toPost, toTerm, type PostRecord, type TermRecord } from './records.js';
import { escapeRegExp, nextFreeSlug, slugFamilyPattern, slugify } from './slug.js';
import { checkNewPost, checkPatch, checkQuery, checkTaxonomy, checkTermName, checkTermParent } from './validate.js';

/**
 * Another writer took the slug between our look-up and our write: look again. Under a
 * burst of same-titled posts each round settles at least one writer; a post still
 * losing on the last round takes a random suffix, which no other writer will want.
 */
const SLUG_ATTEMPTS = 10;

export class ContentService implements ContentStore {
  private readonly posts: Collection<PostRecord>;
  private readonly terms: Collection<TermRecord>;

  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.posts = store.collection<PostRecord>(POSTS);
    this.terms = store.collection<TermRecord>(TERMS);
  }

  async init(): Promise<void> {
    await this.posts.createIndex({ fields: { post_id: 1 }, unique: true, name: 'posts_post_id' });
    await this.posts.createIndex({ fields: { post_type: 1, slug: 1 }, unique: true, name: POST_SLUG_INDEX });
    await this.posts.createIndex({ fields: { post_type: 1, status: 1, created_at: -1 }, name: 'posts_type_status_created' });
    await this.terms.createIndex({ fields: { term_id: 1 }, unique: true, name: 'terms_term_id' });
    await this.terms.createIndex({ fields: { taxonomy: 1, slug: 1 }, unique: true, name: TERM_SLUG_INDEX });
  }

  async createPost(input: NewPost): Promise<Post> {
    const post = checkNewPost(input);
    await this.checkTermIds(post.terms);
    if (post.parent_id !== null) await this.checkParent(post.parent_id, null);
    const postId = await this.store.nextId('posts');
    const base = slugify(post.slug ?? post.title) || `${post.post_type}-${postId}`;
    const now = this.clock.now();
    const { slug: _given, ...fields } = post;
    for (let attempt = 1; ; attempt++) {
      const slug = attempt < SLUG_ATTEMPTS ? await this.freeSlug(post.post_type, base, null) : `${base}-${randomBytes(4).toString('hex')}`;
      const record: PostRecord = {
        ...fields,
        post_id: postId,
        slug,
        created_at: now,
        updated_at: now,
        published_at: post.status === 'publish' ? now : null,
      };
      try {
        return toPost(await this.posts.insertOne(record));
      } catch (error) {
        if (!(error instanceof DuplicateKeyError) || attempt >= SLUG_ATTEMPTS) throw slugConflict(error, slug);
      }
    }
  }

  /**
   * A patch replaces the fields it names, except: `meta` merges key by key (a key set to
   * null is removed), and `terms` replaces only the taxonomies it names, so plugins that
   * keep their own meta or taxonomy on a shared post do not erase each other's.
   */
  async updatePost(postId: number, patch: PostPatch): Promise<Post> {
    const current = await this.requirePost(postId);
    const changes = checkPatch(patch);
    if (changes.terms) await this.checkTermIds(changes.terms);
    if (changes.parent_id !== undefined && changes.parent_id !== null) await this.checkParent(changes.parent_id, postId);

    const set: Record<string, unknown> = { updated_at: this.clock.now() };
    const unset: Record<string, ''> = {};
    for (const field of ['status', 'title', 'content', 'excerpt', 'author_id', 'parent_id'] as const) {
      if (changes[field] !== undefined) set[field] = changes[field];
    }
    // The first publication is remembered; unpublishing and republishing keeps that date.
    if (changes.status === 'publish' && current.published_at === null) set.published_at = set.updated_at;
    for (const [key, value] of Object.entries(changes.meta ?? {})) {
      if (value === null) unset[`meta.${key}`] = '';
      else set[`meta.${key}`] = value;
    }
    for (const [taxonomy, ids] of Object.entries(changes.terms ?? {})) set[`terms.${taxonomy}`] = ids;

    const wantedSlug = changes.slug !== undefined ? slugify(changes.slug) : '';
    for (let attempt = 1; ; attempt++) {
      if (wantedSlug && wantedSlug !== current.slug) set.slug = await this.freeSlug(current.post_type, wantedSlug, postId);
      const update: Update = Object.keys(unset).length ? { $set: set, $unset: unset } : { $set: set };
      try {
        const updated = await this.posts.findOneAndUpdate({ post_id: postId }, update);
        if (!updated) throw postNotFound(postId);
        return toPost(updated);
      } catch (error) {
        if (!(error instanceof DuplicateKeyError) || attempt >= SLUG_ATTEMPTS) throw slugConflict(error, String(set.slug));
      }
    }
  }

  async getPost(postId: number): Promise<Post | null> {
    if (!Number.isSafeInteger(postId)) return null;
    const doc = await this.posts.findOne({ post_id: postId });
    return doc ? toPost(doc) : null;
  }

  async getPostBySlug(postType: string, slug: string): Promise<Post | null> {
    if (typeof postType !== 'string' || typeof slug !== 'string') return null;
    const doc = await this.posts.findOne({ post_type: postType, slug });
    return doc ? toPost(doc) : null;
  }

  async findPosts(query: PostQuery): Promise<{ items: Post[]; total: number }> {
    checkQuery(query);
    let termId: number | undefined;
    if (query.term) {
      const term = await this.getTerm(query.term.taxonomy, query.term.term_id ?? query.term.slug ?? '');
      if (!term) return { items: [], total: 0 };
      termId = term.term_id;
    }
    const filter = postFilter(query, termId);
    const [docs, total] = await Promise.all([
      this.posts.find(filter, { sort: postSort(query), skip: query.offset ?? 0, limit: query.per_page ?? DEFAULT_PER_PAGE }),
      this.posts.count(filter),
    ]);
    return { items: docs.map(toPost), total };
  }

  async deletePost(postId: number): Promise<boolean> {
    if (!Number.isSafeInteger(postId)) return false;
    const deleted = (await this.posts.deleteOne({ post_id: postId })) > 0;
    // Children are detached after the parent is gone: a crash in between leaves a dangling
    // parent_id, which readers already treat as "no parent".
    if (deleted) await this.posts.updateMany({ parent_id: postId }, { $set: { parent_id: null } });
    return deleted;
  }

  async ensureTerm(taxonomy: string, name: string, options: { slug?: string; parent_id?: number | null; description?: string } = {}): Promise<Term> {
    checkTaxonomy(taxonomy);
    const termName = checkTermName(name);
    const parentId = checkTermParent(options.parent_id);
    if (options.description !== undefined && typeof options.description !== 'string') {
      throw new ApiError('invalid_term', 'description must be a string', 400, { field: 'description' });
    }
    const slug = slugify(options.slug ?? termName);
    const existing = await this.findTerm(taxonomy, termName, slug);
    if (existing) return existing;

    if (parentId !== null && !(await this.terms.findOne({ taxonomy, term_id: parentId }))) {
      throw new ApiError('invalid_term', `No ${taxonomy} term ${parentId} to be the parent`, 400, { field: 'parent_id' });
    }
    const termId = await this.store.nextId('terms');
    const record: TermRecord = {
      term_id: termId,
      taxonomy,
      name: termName,
      // A name with nothing ASCII in it still gets a usable slug; it is found by name later.
      slug: slug || `term-${termId}`,
      parent_id: parentId,
      description: options.description ?? '',
      meta: {},
    };
    try {
      return toTerm(await this.terms.insertOne(record));
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Someone created the same term at the same moment: theirs is ours.
      const raced = await this.findTerm(taxonomy, termName, slug);
      if (raced) return raced;
      throw error;
    }
  }

  async getTerm(taxonomy: string, idOrSlug: number | string): Promise<Term | null> {
    checkTaxonomy(taxonomy);
    const doc = typeof idOrSlug === 'number'
      ? await this.terms.findOne({ taxonomy, term_id: idOrSlug })
      : await this.terms.findOne({ taxonomy, slug: idOrSlug });
    return doc ? toTerm(doc) : null;
  }

  async listTerms(taxonomy: string, options: { parent_id?: number | null } = {}): Promise<Term[]> {
    checkTaxonomy(taxonomy);
    const filter = options.parent_id === undefined ? { taxonomy } : { taxonomy, parent_id: options.parent_id };
    const docs = await this.terms.find(filter, { sort: { name: 1, term_id: 1 } });
    return docs.map(toTerm);
  }

  /** Same name (ignoring case) first, then the same slug. */
  private async findTerm(taxonomy: string, name: string, slug: string): Promise<Term | null> {
    const byName = await this.terms.findOne({ taxonomy, name: { $regex: `^${escapeRegExp(name)}$`, $options: 'i' } }, { sort: { term_id: 1 } });
    if (byName) return toTerm(byName);
    const bySlug = slug ? await this.terms.findOne({ taxonomy, slug }) : null;
    return bySlug ? toTerm(bySlug) : null;
  }

  private async requirePost(postId: number): Promise<Post> {
    const post = await this.getPost(postId);
    if (!post) throw postNotFound(postId);
    return post;
  }

  /** The first free slug of `base`'s family in the post type, ignoring the post being renamed. */
  private async freeSlug(postType: string, base: string, exceptPostId: number | null): Promise<string> {
    const filter = { post_type: postType, slug: { $regex: slugFamilyPattern(base) }, ...(exceptPostId === null ? {} : { post_id: { $ne: exceptPostId } }) };
    const taken = await this.posts.find(filter, { projection: { slug: 1 } });
    return nextFreeSlug(base, taken.map((doc) => doc.slug));
  }

  private async checkTermIds(terms: Record<string, number[]>): Promise<void> {
    for (const [taxonomy, ids] of Object.entries(terms)) {
      if (ids.length === 0) continue;
      const found = await this.terms.count({ taxonomy, term_id: { $in: ids } });
      if (found !== ids.length) {
        throw new ApiError('invalid_post', `Some ${taxonomy} term ids do not exist: ${ids.join(', ')}`, 400, { field: 'terms' });
      }
    }
  }

  private async checkParent(parentId: number, postId: number | null): Promise<void> {
    if (parentId === postId) throw new ApiError('invalid_post', 'A post cannot be its own parent', 400, { field: 'parent_id' });
    if (!(await this.posts.findOne({ post_id: parentId }, { projection: { post_id: 1 } }))) {
      throw new ApiError('invalid_post', `No post ${parentId} to be the parent`, 400, { field: 'parent_id' });
    }
  }
}

function postNotFound(postId: number): ApiError {
  return notFound('post_not_found', `No post with id ${postId}`, { post_id: postId });
}

/** Errors other than a lasting slug collision pass through unchanged. */
function slugConflict(error: unknown, slug: string): unknown {
  if (!(error instanceof DuplicateKeyError)) return error;
  return conflict('post_slug_conflict', `The slug '${slug}' stayed taken after ${SLUG_ATTEMPTS} attempts`, { slug });
}
