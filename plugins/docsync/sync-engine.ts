/**
 * One repository into one project term. Incremental: the tree's SHA is kept on the term
 * (unchanged tree, nothing fetched beyond it) and each post keeps its file's blob SHA
 * (an unchanged file is never fetched). Resumable: a post is written whole with its blob
 * SHA, so a sync cut short and run again fetches only what it had not written yet; the
 * tree SHA is stored last.
 */
import { posix } from 'node:path';
import type { ContentStore, Post, Term } from '../../sdk/index.js';
import { contentHash, type DocsService } from './docs-service.js';
import { SourceError, parseRepoUrl, type RepoRef, type RepoTree, type SourceClient, type TreeFile } from './github.js';
import { isMarkdownPath, type LinkContext, parseMarkdown, rewriteLinks } from './markdown.js';
import { META, POST_META, TAXONOMY } from './model.js';

export interface SyncError {
  code: string;
  message: string;
  term_id: number;
  owner?: string;
  repo?: string;
  sso_url?: string;
  rate_limit_reset?: string;
  upstream_status?: number;
  file?: string;
}

export interface ProjectSyncResult {
  term_id: number;
  repository: string;
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  blobs_fetched: number;
  errors: SyncError[];
}

export type SyncProgress = (event: { files_done: number; files_total: number; repository: string }) => Promise<void> | void;

export interface SyncLimits {
  maxFileBytes: number;
  maxFiles: number;
  concurrency: number;
}

export class SyncEngine {
  constructor(
    private readonly content: ContentStore,
    private readonly docs: DocsService,
    private readonly limits: SyncLimits,
    private readonly now: () => Date,
  ) {}

  async syncProject(client: SourceClient, term: Term, force: boolean, progress: SyncProgress): Promise<ProjectSyncResult> {
    const address = typeof term.meta[META.repository] === 'string' ? (term.meta[META.repository] as string) : '';
    const result: ProjectSyncResult = {
      term_id: term.term_id,
      repository: address,
      added: [],
      updated: [],
      removed: [],
      unchanged: 0,
      blobs_fetched: 0,
      errors: [],
    };
    const ref = parseRepoUrl(address);
    if (!ref) {
      result.errors.push({
        code: 'docsync_invalid_repo_url',
        message: `Project '${term.slug}' has no usable repository address`,
        term_id: term.term_id,
      });
      return result;
    }
    result.repository = `${ref.owner}/${ref.repo}`;
    try {
      const repo = await client.repository(ref);
      const tree = await client.tree(ref, repo.default_branch);
      const files = this.filesToSync(tree, term, ref, result);
      await progress({ files_done: 0, files_total: files.length, repository: result.repository });
      if (!force && term.meta[META.treeSha] === tree.sha && !tree.truncated) {
        result.unchanged = files.length;
        await progress({ files_done: files.length, files_total: files.length, repository: result.repository });
        return result;
      }

      const existing = await this.docs.syncedPosts(term.term_id);
      const links = new Map<string, number>();
      for (const [path, post] of existing) if (post.status !== 'trash') links.set(path, post.post_id);
      const postLink = (path: string) => (links.has(path) ? this.docs.link(links.get(path)!) : null);
      const linkCtx = (path: string) => ({ path, htmlUrl: repo.html_url, branch: repo.default_branch, postLink });
      const pendingLinks: Array<{ postId: number; path: string }> = [];
      const leaves = new Map<string, { leaf: Term; path: string }>();
      let done = 0;

      const one = async (file: TreeFile) => {
        const post = existing.get(file.path);
        if (!force && post && post.status !== 'trash' && post.meta[POST_META.blobSha] === file.sha) {
          result.unchanged++;
          return;
        }
        const source = await client.blob(ref, file.sha);
        result.blobs_fetched++;
        const parsed = parseMarkdown(source, file.path);
        const rewritten = rewriteLinks(parsed.content, linkCtx(file.path));
        const folders = posix.dirname(file.path) === '.' ? [] : posix.dirname(file.path).split('/');
        // `force` fetched the file again whatever its SHA; whether it changed is still the
        // hash's call, so a file that reads the same is reported unchanged, not updated.
        const written = await this.docs.upsertSynced(
          {
            project_term_id: term.term_id,
            source_file: file.path,
            title: parsed.title,
            content: rewritten.content,
            excerpt: parsed.excerpt,
            subpath: folders,
            filesize: Buffer.byteLength(source),
            timestamp: this.now().toISOString(),
            force: false,
            blob_sha: file.sha,
          },
          { project: term, post: post ?? null, leaves },
        );
        links.set(file.path, written.post_id);
        if (rewritten.unresolved > 0) pendingLinks.push({ postId: written.post_id, path: file.path });
        if (written.action === 'created') result.added.push(file.path);
        else if (written.action === 'updated') result.updated.push(file.path);
        else result.unchanged++;
      };

      const queue = [...files];
      const failures: unknown[] = [];
      const worker = async () => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          try {
            await one(file);
          } catch (error) {
            // A file the service refuses alone is reported; a repository-wide refusal stops this repository.
            if (error instanceof SourceError && error.kind !== 'not_found') {
              failures.push(error);
              queue.length = 0;
              return;
            }
            result.errors.push({
              code: 'docsync_file_failed',
              message: `${file.path}: ${error instanceof Error ? error.message : String(error)}`,
              term_id: term.term_id,
              file: file.path,
              ...ref,
            });
          }
          done++;
          if (done % 25 === 0 || done === files.length)
            await progress({ files_done: done, files_total: files.length, repository: result.repository });
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, this.limits.concurrency) }, worker));
      if (failures.length) throw failures[0];

      await this.resolveLaterLinks(pendingLinks, linkCtx);
      await this.trashRemovedFiles(existing, files, tree, result);
      // Last: a sync cut short before here runs again in full (its written posts are skipped by blob SHA).
      if (result.errors.every((e) => e.code !== 'docsync_file_failed')) {
        await this.content.updateTerm(TAXONOMY, term.term_id, {
          meta: { [META.treeSha]: tree.sha, [META.lastSync]: this.now().toISOString() },
        });
      }
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      result.errors.push({ code: `docsync_${error.kind}`, message: error.message, term_id: term.term_id, ...ref, ...error.details });
    }
    return result;
  }

  /** The tree's markdown files a sync reads: those too large or over the cap are reported, not read. */
  private filesToSync(tree: RepoTree, term: Term, ref: RepoRef, result: ProjectSyncResult): TreeFile[] {
    if (tree.truncated)
      result.errors.push({
        code: 'docsync_tree_truncated',
        message: `The tree of ${result.repository} is too large to list whole; some files were not seen`,
        term_id: term.term_id,
        ...ref,
      });
    let files = tree.files.filter((f) => isMarkdownPath(f.path));
    for (const big of files.filter((f) => f.size > this.limits.maxFileBytes)) {
      result.errors.push({
        code: 'docsync_file_too_large',
        message: `${big.path} is larger than ${this.limits.maxFileBytes} bytes; skipped`,
        term_id: term.term_id,
        file: big.path,
        ...ref,
      });
    }
    files = files.filter((f) => f.size <= this.limits.maxFileBytes).sort((a, b) => a.path.localeCompare(b.path));
    if (files.length > this.limits.maxFiles) {
      result.errors.push({
        code: 'docsync_too_many_files',
        message: `${result.repository} has ${files.length} markdown files; the first ${this.limits.maxFiles} were synced`,
        term_id: term.term_id,
        ...ref,
      });
      files = files.slice(0, this.limits.maxFiles);
    }
    return files;
  }

  /** Files whose posts appeared later in this sync: their links resolve now. */
  private async resolveLaterLinks(pendingLinks: Array<{ postId: number; path: string }>, linkCtx: (path: string) => LinkContext) {
    for (const { postId, path } of pendingLinks) {
      const post = await this.content.getPost(postId);
      if (!post) continue;
      const again = rewriteLinks(post.content, linkCtx(path));
      // The hash follows the content, so the next sync of the same file finds it unchanged.
      if (again.content !== post.content)
        await this.content.updatePost(postId, {
          content: again.content,
          meta: { [POST_META.hash]: contentHash(`${post.title}\u0000${post.excerpt}\u0000${again.content}`) },
        });
    }
  }

  /** A repository sync's posts whose files left the tree go to the trash (those merely skipped stay). */
  private async trashRemovedFiles(existing: Map<string, Post>, files: TreeFile[], tree: RepoTree, result: ProjectSyncResult) {
    const present = new Set(files.map((f) => f.path));
    const wasSkipped = (path: string) => tree.files.some((f) => f.path === path);
    for (const [path, post] of existing) {
      if (present.has(path) || post.status === 'trash' || (tree.truncated && !wasSkipped(path))) continue;
      // Only what a repository sync wrote goes with its file; a document pushed with /sync/doc stays.
      if (typeof post.meta[POST_META.blobSha] !== 'string' || post.meta[POST_META.blobSha] === '') continue;
      if (wasSkipped(path) && isMarkdownPath(path)) continue; // too large or over the cap: kept as it was
      await this.docs.trash(post);
      result.removed.push(path);
    }
  }
}
