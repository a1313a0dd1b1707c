/**
 * Documentation posts: their API view (the `project` object, the sync meta) and the writes
 * the routes, the batch import and the repository sync share. Each write of a post is one
 * store write, so a crash leaves every post either as it was or as it became.
 */
import { createHash } from 'node:crypto';
import type { ContentStore, Post, PostStatus, Term } from '../../sdk/index.js';
import { ALL_STATUSES, POST_META, POST_TYPE, TAXONOMY } from './model.js';
import type { CreationCheck, Projects } from './projects.js';
import { docsyncError } from './errors.js';

export interface TermRef {
  id: number;
  slug: string;
  name: string;
}

export interface DocView {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  status: string;
  link: string;
  project: {
    assigned_term: TermRef | null;
    project: TermRef | null;
    category: TermRef | null;
    project_type: string;
    hierarchy_path: string;
  };
  meta: { sync_source_file: string; sync_hash: string; sync_timestamp: string };
  content?: string;
}

export interface SyncedDocInput {
  project_term_id: number;
  source_file: string;
  title: string;
  content: string;
  excerpt?: string;
  subpath?: string[];
  filesize: number;
  timestamp: string;
  force?: boolean;
  /** From a repository sync: the blob SHA, kept so the file is not fetched again. */
  blob_sha?: string;
}

/** Who pushes a document (POST /sync/doc, /sync/batch); a repository sync has nobody. */
export interface SyncedDocWriter {
  /** Stored as a created post's author, so its writer may push it again (WordPress's own posts). */
  author_id: number | null;
  /** Throws when the writer may not write over `existing` (null: a new, published post). */
  check(existing: Post | null): void;
  /** Throws when the writer may not create the term `segment` of the subpath. */
  mayCreate?: CreationCheck;
}

export type SyncAction = 'created' | 'updated' | 'unchanged';

export interface SyncedDocResult {
  post_id: number;
  action: SyncAction;
  term_id: number;
  term_path: string;
}

const ref = (term: Term | undefined | null): TermRef | null => (term ? { id: term.term_id, slug: term.slug, name: term.name } : null);
export const contentHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

export class DocsService {
  constructor(
    private readonly content: ContentStore,
    private readonly projects: Projects,
    private readonly publicUrl: () => string,
  ) {}

  link(postId: number): string {
    return `${this.publicUrl()}/?p=${postId}`;
  }

  view(post: Post, terms: Map<number, Term>, withContent: boolean): DocView {
    const assigned = (post.terms[TAXONOMY] ?? []).map((id) => terms.get(id)).find((t): t is Term => t !== undefined) ?? null;
    const chain = assigned ? this.projects.ancestry(assigned, terms) : [];
    const project = chain.find((t) => this.projects.typeOf(t, terms) === 'project') ?? null;
    const top = chain.at(-1);
    const category = top && this.projects.typeOf(top, terms) === 'category' ? top : null;
    const view: DocView = {
      id: post.post_id,
      title: post.title,
      slug: post.slug,
      excerpt: post.excerpt,
      status: post.status,
      link: this.link(post.post_id),
      project: {
        assigned_term: ref(assigned),
        project: ref(project),
        category: ref(category),
        project_type: project ? 'project' : assigned ? this.projects.typeOf(assigned, terms) : '',
        hierarchy_path: [...chain]
          .reverse()
          .map((t) => t.slug)
          .join('/'),
      },
      meta: {
        sync_source_file: str(post.meta[POST_META.sourceFile]),
        sync_hash: str(post.meta[POST_META.hash]),
        sync_timestamp: str(post.meta[POST_META.timestamp]),
      },
    };
    if (withContent) view.content = post.content;
    return view;
  }

  async getDoc(id: number): Promise<Post | null> {
    const post = await this.content.getPost(id);
    return post && post.post_type === POST_TYPE ? post : null;
  }

  /** The synced post of a source file under a project term, whatever its status. */
  async findSynced(projectTermId: number, sourceFile: string): Promise<Post | null> {
    const { items } = await this.content.findPosts({
      post_type: POST_TYPE,
      status: [...ALL_STATUSES],
      meta: { [POST_META.project]: projectTermId, [POST_META.sourceFile]: sourceFile },
      per_page: 1,
      orderby: 'post_id',
      order: 'asc',
    });
    return items[0] ?? null;
  }

  /** Every post synced under a project term, by source file (read in pages). */
  async syncedPosts(projectTermId: number): Promise<Map<string, Post>> {
    const out = new Map<string, Post>();
    for (let offset = 0; ; offset += 100) {
      const { items, total } = await this.content.findPosts({
        post_type: POST_TYPE,
        status: [...ALL_STATUSES],
        meta: { [POST_META.project]: projectTermId },
        per_page: 100,
        offset,
        orderby: 'post_id',
        order: 'asc',
      });
      for (const post of items) out.set(str(post.meta[POST_META.sourceFile]), post);
      if (offset + 100 >= total || items.length === 0) return out;
    }
  }

  /** The leaf term of `subpath` below the project term, created when missing. */
  async leafTerm(
    project: Term,
    subpath: string[],
    cache?: Map<string, { leaf: Term; path: string }>,
    mayCreate?: CreationCheck,
  ): Promise<{ leaf: Term; path: string }> {
    const key = subpath.join('\u0000');
    const known = cache?.get(key);
    if (known) return known;
    let leaf = project;
    const slugs = [project.slug];
    for (const segment of subpath) {
      leaf = (await this.projects.ensureChild(leaf, segment, 'section', mayCreate)).term;
      slugs.push(leaf.slug);
    }
    const found = { leaf, path: slugs.join('/') };
    cache?.set(key, found);
    return found;
  }

  /**
   * Creates or updates the post of one source file. `sync_hash` is the hash of the title,
   * excerpt and content as sent, so an unchanged file is `unchanged` unless forced.
   *

   * `known`: what a repository sync already read (the project, the post of the file or null,
   * the folder terms it made), so a sync of many files does not look each up again.
   */
  async upsertSynced(
    input: SyncedDocInput,
    known?: { project: Term; post: Post | null; leaves: Map<string, { leaf: Term; path: string }> },
    writer?: SyncedDocWriter,
  ): Promise<SyncedDocResult> {
    const term = known?.project ?? (await this.projects.get(input.project_term_id));
    if (!term)
      throw docsyncError('not_found', {
        message: `No project term with id ${input.project_term_id}`,
        data: { term_id: input.project_term_id },
      });
    const existing = known ? known.post : await this.findSynced(term.term_id, input.source_file);
    // Before any term is made: a refused writer leaves nothing behind.
    writer?.check(existing);
    const { leaf, path } = await this.leafTerm(term, input.subpath ?? [], known?.leaves, writer?.mayCreate);
    const hash = contentHash(`${input.title}\u0000${input.excerpt ?? ''}\u0000${input.content}`);
    const meta: Record<string, unknown> = {
      [POST_META.sourceFile]: input.source_file,
      [POST_META.hash]: hash,
      [POST_META.timestamp]: input.timestamp,
      [POST_META.filesize]: String(input.filesize),
      [POST_META.project]: term.term_id,
      content_format: 'markdown',
      // The blob SHA marks a post the repository sync owns (and may trash when its file goes);
      // a document pushed with /sync/doc has none, so a later sync leaves it alone.
      ...(input.blob_sha
        ? { [POST_META.blobSha]: input.blob_sha }
        : existing?.meta[POST_META.blobSha] !== undefined
          ? { [POST_META.blobSha]: null }
          : {}),
    };
    const placed = (existing?.terms[TAXONOMY] ?? []).length === 1 && existing!.terms[TAXONOMY]![0] === leaf.term_id;
    if (existing && !input.force && existing.meta[POST_META.hash] === hash && existing.status !== 'trash' && placed) {
      if (input.blob_sha && existing.meta[POST_META.blobSha] !== input.blob_sha)
        await this.content.updatePost(existing.post_id, { meta: { [POST_META.blobSha]: input.blob_sha } });
      return { post_id: existing.post_id, action: 'unchanged', term_id: leaf.term_id, term_path: path };
    }
    const fields = {
      title: input.title,
      content: input.content,
      excerpt: input.excerpt ?? '',
      meta,
      terms: { [TAXONOMY]: [leaf.term_id] },
    };
    if (existing) {
      // A file that came back after being removed is published again.
      const status: PostStatus | undefined = existing.status === 'trash' ? 'publish' : undefined;
      await this.content.updatePost(existing.post_id, {
        ...fields,
        ...(status ? { status, meta: { ...meta, _wp_trash_meta_status: null } } : {}),
      });
      return { post_id: existing.post_id, action: 'updated', term_id: leaf.term_id, term_path: path };
    }
    const created = await this.content.createPost({
      post_type: POST_TYPE,
      status: 'publish',
      ...fields,
      ...(writer ? { author_id: writer.author_id } : {}),
    });
    return { post_id: created.post_id, action: 'created', term_id: leaf.term_id, term_path: path };
  }

  /** Moves a post to the trash, remembering its status (as wp/v2 does). */
  async trash(post: Post): Promise<Post> {
    return this.content.updatePost(post.post_id, { status: 'trash', meta: { _wp_trash_meta_status: post.status } });
  }
}
