/** Names and stored shapes the docsync plugin shares between its files. */
export const POST_TYPE = 'documentation';
export const TAXONOMY = 'project';

/** Term meta keys (letters, digits and `_`, the content store's rule). */
export const META = {
  type: 'project_type',
  repository: 'project_repository',
  listing: 'project_listing_url',
  treeSha: 'sync_tree_sha',
  lastSync: 'sync_last_run',
} as const;

/** Post meta keys: the three the spec shows, and what the sync needs to stay incremental. */
export const POST_META = {
  sourceFile: 'sync_source_file',
  hash: 'sync_hash',
  timestamp: 'sync_timestamp',
  filesize: 'sync_filesize',
  /** The project term the post was synced under: a source path is unique within it. */
  project: 'sync_project',
  /** The git blob SHA last written, so an unchanged file is never fetched again. */
  blobSha: 'sync_blob_sha',
} as const;

export type ProjectType = 'category' | 'project' | 'section';

export interface DocsyncSettings {
  /** The source-hosting API's base URL (GitHub's by default; tests point it at a fake). */
  github_base_url: string;
  /** A token from the config; one saved with PUT /sync/token takes precedence. */
  github_token: string;
  /** How long POST /sync/all and /sync/term wait for their job before answering with its id. */
  sync_wait_seconds: number;
  /** Markdown files larger than this are skipped (reported in `errors`). */
  max_file_bytes: number;
  /** At most this many markdown files per repository. */
  max_files: number;
  /** Blob requests in flight at once per repository. */
  fetch_concurrency: number;
}

export const ALL_STATUSES = ['publish', 'draft', 'pending', 'private', 'trash'] as const;
