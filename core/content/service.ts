/**
 * The core content store on the DocumentStore port: posts with a type, status, unique
 * slug, content, meta and taxonomy terms. Handlers reach it as `ctx.content`, plugins as
 * `host.content`; nothing else writes these collections.
 */
import { randomBytes } from 'node:crypto';
import type { ApiError } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import { DuplicateKeyError, type Collection, type DocumentStore, type Update } from '../store/port.js';
import type { ContentStore, NewPost, NewTerm, Post, PostPatch, PostQuery, Term, TermPatch, TermQuery } from './model.js';
import { DEFAULT_PER_PAGE, postFilter, postSort } from './post-query.js';
import { POSTS, POST_SLUG_INDEX, TERMS, TERM_SLUG_INDEX, toPost, toTerm, type PostRecord, type TermRecord } from './records.js';
import { escapeRegExp, nextFreeSlug, slugFamilyCondition, slugify } from './slug.js';
import { htmlToPlainText } from '../kernel/post-text.js';
import { checkMetaKey, checkNewPost, checkPatch, checkQuery, checkTaxonomy, checkTermName, checkTermParent } from './validate.js';
import { apiError } from '../errors/catalogue.js';

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
    // The newest change of a type in one index step: readers that keep a type in memory (the
    // events calendar) ask it on every request to know whether their copy is current.
    await this.posts.createIndex({ fields: { post_type: 1, updated_at: -1, post_id: -1 }, name: 'posts_type_updated' });
    await this.terms.createIndex({ fields: { term_id: 1 }, unique: true, name: 'terms_term_id' });
    await this.terms.createIndex({ fields: { taxonomy: 1, slug: 1 }, unique: true, name: TERM_SLUG_INDEX });
    await this.backfillDates();
  }

  /**
   * Posts written before posts had a `date` show one (published_at, else created_at) but
   * date filters and `orderby=date` query the field: store it once, in batches. Each
   * update is for one post and idempotent, so an interrupted boot finishes at the next.
   */
  private async backfillDates(): Promise<void> {
    for (;;) {
      const batch = await this.posts.find(
        { date: { $exists: false } },
        { limit: 500, projection: { post_id: 1, published_at: 1, created_at: 1 } },
      );
      if (batch.length === 0) return;
      for (const doc of batch) {
        await this.posts.updateOne(
          { post_id: doc.post_id, date: { $exists: false } },
          { $set: { date: doc.published_at ?? doc.created_at ?? new Date(0) } },
        );
      }
    }
  }

  async createPost(input: NewPost): Promise<Post> {
    const post = checkNewPost(input);
    await this.checkTermIds(post.terms);
    if (post.parent_id !== null) await this.checkParent(post.parent_id, null);
    const postId = await this.store.nextId('posts');
    // A title is HTML (WordPress's sanitize_title strips its tags and entities): the slug is made from its text.
    const base = slugify(htmlToPlainText(post.slug ?? post.title)) || `${post.post_type}-${postId}`;
    const now = this.clock.now();
    const { slug: _given, date: givenDate, ...fields } = post;
    for (let attempt = 1; ; attempt++) {
      const slug = attempt < SLUG_ATTEMPTS ? await this.freeSlug(post.post_type, base, null) : `${base}-${randomBytes(4).toString('hex')}`;
      const record: PostRecord = {
        ...fields,
        post_id: postId,
        slug,
        created_at: now,
        updated_at: now,
        published_at: post.status === 'publish' ? now : null,
        date: givenDate ?? now,
        date_floating: givenDate === undefined && post.status !== 'publish',
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
    if (changes.date !== undefined) {
      set.date = changes.date;
      set.date_floating = false;
    } else if (changes.status === 'publish' && current.published_at === null && (await this.isDateFloating(postId))) {
      // A draft without a date of its own takes the date it is first published.
      set.date = set.updated_at;
      set.date_floating = false;
    }
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

  async ensureTerm(
    taxonomy: string,
    name: string,
    options: { slug?: string; parent_id?: number | null; description?: string } = {},
  ): Promise<Term> {
    checkTaxonomy(taxonomy);
    const termName = checkTermName(name);
    const parentId = checkTermParent(options.parent_id);
    if (options.description !== undefined && typeof options.description !== 'string') {
      throw apiError('invalid_term', { message: 'description must be a string', data: { field: 'description' } });
    }
    const slug = slugify(htmlToPlainText(options.slug ?? termName));
    const existing = await this.findTerm(taxonomy, termName, slug);
    if (existing) return existing;

    if (parentId !== null && !(await this.terms.findOne({ taxonomy, term_id: parentId }))) {
      throw apiError('invalid_term', { message: `No ${taxonomy} term ${parentId} to be the parent`, data: { field: 'parent_id' } });
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
    const doc =
      typeof idOrSlug === 'number'
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

  async createTerm(taxonomy: string, input: NewTerm): Promise<Term> {
    checkTaxonomy(taxonomy);
    const name = checkTermName(input.name);
    const parentId = checkTermParent(input.parent_id);
    const description = checkTermDescription(input.description);
    const meta = checkTermMeta(input.meta);
    const slug = slugify(htmlToPlainText(input.slug ?? name));
    // As WordPress: a name is unique among its siblings (so docs folders named `guides` may
    // sit under two projects), a slug across the taxonomy. Flat taxonomies have one level.
    const existing = await this.findTerm(taxonomy, name, slug, parentId);
    if (existing) throw termExists(existing);
    if (parentId !== null) await this.requireTerm(taxonomy, parentId, 'parent_id');
    const termId = await this.store.nextId('terms');
    const record: TermRecord = { term_id: termId, taxonomy, name, slug: slug || `term-${termId}`, parent_id: parentId, description, meta };
    try {
      return toTerm(await this.terms.insertOne(record));
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const raced = await this.findTerm(taxonomy, name, slug, parentId);
      throw raced ? termExists(raced) : error;
    }
  }

  async updateTerm(taxonomy: string, termId: number, patch: TermPatch): Promise<Term> {
    checkTaxonomy(taxonomy);
    const current = await this.requireTerm(taxonomy, termId, 'term_id', 404);
    const set: Record<string, unknown> = {};
    if (patch.name !== undefined) set.name = checkTermName(patch.name);
    if (patch.description !== undefined) set.description = checkTermDescription(patch.description);
    if (patch.parent_id !== undefined) {
      const parentId = checkTermParent(patch.parent_id);
      if (parentId !== null) {
        // No cycles: the new parent may not be the term or one of its descendants.
        for (let id: number | null = parentId, hops = 0; id !== null && hops < 1000; hops++) {
          if (id === termId) throw apiError('invalid_term', { message: 'A term cannot be its own ancestor', data: { field: 'parent_id' } });
          id = (await this.requireTerm(taxonomy, id, 'parent_id')).parent_id;
        }
      }
      set.parent_id = parentId;
    }
    if (patch.meta !== undefined) {
      for (const [key, value] of Object.entries(checkTermMeta(patch.meta))) set[`meta.${key}`] = value;
    }
    if (patch.slug !== undefined) {
      const slug = slugify(String(patch.slug));
      if (slug && slug !== current.slug) {
        const clash = await this.terms.findOne({ taxonomy, slug, term_id: { $ne: termId } });
        if (clash) throw termExists(toTerm(clash));
        set.slug = slug;
      }
    }
    if (Object.keys(set).length === 0) return current;
    try {
      const updated = await this.terms.findOneAndUpdate({ taxonomy, term_id: termId }, { $set: set });
      if (!updated) throw termNotFound(taxonomy, termId);
      return toTerm(updated);
    } catch (error) {
      if (error instanceof DuplicateKeyError)
        throw apiError('term_exists', {
          message: `A ${taxonomy} term with the slug '${String(set.slug)}' exists`,
          data: { field: 'slug' },
        });
      throw error;
    }
  }

  async deleteTerm(taxonomy: string, termId: number): Promise<boolean> {
    checkTaxonomy(taxonomy);
    if (!Number.isSafeInteger(termId)) return false;
    const term = await this.terms.findOne({ taxonomy, term_id: termId });
    if (!term) return false;
    // References first, the term last: a crash leaves a term nobody carries, never a
    // post carrying a term that is gone.
    await this.posts.updateMany({ [`terms.${taxonomy}`]: termId }, { $pull: { [`terms.${taxonomy}`]: termId } });
    await this.terms.updateMany({ taxonomy, parent_id: termId }, { $set: { parent_id: term.parent_id ?? null } });
    return (await this.terms.deleteOne({ taxonomy, term_id: termId })) > 0;
  }

  /**
   * Terms are few next to posts: the matching terms are read whole, counted with one
   * query over the published posts that carry any of them, then sorted and sliced here
   * (so `orderby: 'count'` and `hide_empty` page correctly).
   */
  async findTerms(taxonomy: string, query: TermQuery = {}): Promise<{ items: Array<Term & { count: number }>; total: number }> {
    checkTaxonomy(taxonomy);
    const and: Record<string, unknown>[] = [{ taxonomy }];
    if (query.parent_id !== undefined) and.push({ parent_id: query.parent_id });
    if (query.include !== undefined) and.push({ term_id: { $in: [...query.include] } });
    if (query.exclude?.length) and.push({ term_id: { $nin: [...query.exclude] } });
    if (query.slug !== undefined) and.push({ slug: { $in: [...query.slug] } });
    if (query.search) {
      const pattern = { $regex: escapeRegExp(query.search), $options: 'i' };
      and.push({ $or: [{ name: pattern }, { slug: pattern }] });
    }
    const docs = (await this.terms.find(and.length === 1 ? and[0]! : { $and: and })).map(toTerm);
    const counts = await this.termCounts(
      taxonomy,
      docs.map((t) => t.term_id),
    );
    let items = docs.map((t) => ({ ...t, count: counts.get(t.term_id) ?? 0 }));
    if (query.hide_empty) items = items.filter((t) => t.count > 0);
    const key = query.orderby ?? 'name';
    const direction = query.order === 'desc' ? -1 : 1;
    const value = (t: Term & { count: number }) =>
      key === 'name' ? t.name.toLowerCase() : key === 'slug' ? t.slug : key === 'count' ? t.count : t.term_id;
    items.sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      const byKey = x < y ? -1 : x > y ? 1 : 0;
      return (byKey || a.term_id - b.term_id) * direction;
    });
    const offset = query.offset ?? 0;
    return { items: items.slice(offset, offset + (query.per_page ?? DEFAULT_PER_PAGE)), total: items.length };
  }

  /** Published posts carrying each term (terms no published post carries are absent). */
  async termCounts(taxonomy: string, termIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    if (termIds.length === 0) return counts;
    const field = `terms.${taxonomy}`;
    const wanted = new Set(termIds);
    const posts = await this.posts.find({ status: 'publish', [field]: { $in: termIds } }, { projection: { terms: 1 } });
    for (const post of posts) {
      for (const id of new Set(post.terms?.[taxonomy] ?? [])) if (wanted.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  private async requireTerm(taxonomy: string, termId: number, field: string, status = 400): Promise<Term> {
    const doc = Number.isSafeInteger(termId) ? await this.terms.findOne({ taxonomy, term_id: termId }) : null;
    if (!doc) {
      if (status === 404) throw termNotFound(taxonomy, termId);
      throw apiError('invalid_term', { message: `No ${taxonomy} term ${termId}`, data: { field } });
    }
    return toTerm(doc);
  }

  /** Same name (ignoring case; among the children of `parentId` when given) first, then the same slug. */
  private async findTerm(taxonomy: string, name: string, slug: string, parentId?: number | null): Promise<Term | null> {
    const scope = parentId === undefined ? {} : { parent_id: parentId };
    const byName = await this.terms.findOne(
      { taxonomy, ...scope, name: { $regex: `^${escapeRegExp(name)}$`, $options: 'i' } },
      { sort: { term_id: 1 } },
    );
    if (byName) return toTerm(byName);
    const bySlug = slug ? await this.terms.findOne({ taxonomy, slug }) : null;
    return bySlug ? toTerm(bySlug) : null;
  }

  private async isDateFloating(postId: number): Promise<boolean> {
    const doc = await this.posts.findOne({ post_id: postId }, { projection: { date_floating: 1, date: 1 } });
    return doc !== null && (doc.date_floating === true || doc.date === undefined);
  }

  private async requirePost(postId: number): Promise<Post> {
    const post = await this.getPost(postId);
    if (!post) throw postNotFound(postId);
    return post;
  }

  /** The first free slug of `base`'s family in the post type, ignoring the post being renamed. */
  private async freeSlug(postType: string, base: string, exceptPostId: number | null): Promise<string> {
    const filter = {
      post_type: postType,
      slug: slugFamilyCondition(base),
      ...(exceptPostId === null ? {} : { post_id: { $ne: exceptPostId } }),
    };
    const taken = await this.posts.find(filter, { projection: { slug: 1 } });
    return nextFreeSlug(
      base,
      taken.map((doc) => doc.slug),
    );
  }

  private async checkTermIds(terms: Record<string, number[]>): Promise<void> {
    for (const [taxonomy, ids] of Object.entries(terms)) {
      if (ids.length === 0) continue;
      const found = await this.terms.count({ taxonomy, term_id: { $in: ids } });
      if (found !== ids.length) {
        throw apiError('invalid_post', { message: `Some ${taxonomy} term ids do not exist: ${ids.join(', ')}`, data: { field: 'terms' } });
      }
    }
  }

  private async checkParent(parentId: number, postId: number | null): Promise<void> {
    if (parentId === postId) throw apiError('invalid_post', { message: 'A post cannot be its own parent', data: { field: 'parent_id' } });
    if (!(await this.posts.findOne({ post_id: parentId }, { projection: { post_id: 1 } }))) {
      throw apiError('invalid_post', { message: `No post ${parentId} to be the parent`, data: { field: 'parent_id' } });
    }
  }
}

function termExists(term: Term): ApiError {
  return apiError('term_exists', { data: { term_id: term.term_id } });
}

function termNotFound(taxonomy: string, termId: number): ApiError {
  return apiError('term_not_found', { message: `No ${taxonomy} term with id ${termId}`, data: { term_id: termId } });
}

function checkTermDescription(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value !== 'string' || value.length > 10_000)
    throw apiError('invalid_term', { message: 'description must be a string of at most 10000 characters', data: { field: 'description' } });
  return value;
}

function checkTermMeta(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw apiError('invalid_term', { message: 'meta must be an object', data: { field: 'meta' } });
  for (const key of Object.keys(value)) checkMetaKey(key, 'invalid_term');
  return { ...(value as Record<string, unknown>) };
}

function postNotFound(postId: number): ApiError {
  return apiError('post_not_found', { message: `No post with id ${postId}`, data: { post_id: postId } });
}

/** Errors other than a lasting slug collision pass through unchanged. */
function slugConflict(error: unknown, slug: string): unknown {
  if (!(error instanceof DuplicateKeyError)) return error;
  return apiError('post_slug_conflict', { message: `The slug '${slug}' stayed taken after ${SLUG_ATTEMPTS} attempts`, data: { slug } });
}
