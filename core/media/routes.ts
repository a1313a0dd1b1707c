/**
 * wp/v2/media (WordPress's media endpoints) and the bytes at `/flowhost-media/{id}/{filename}`.
 * An attachment is as visible as the post it is attached to (attachment-access.ts).
 */
import { canDeletePost, canEditPost, readsEverything } from '../content/post-caps.js';
import type { Post, PostQuery } from '../content/model.js';
import type { Principal } from '../kernel/principal.js';
import type { HostInfo } from '../kernel/plugin.js';
import { errorBody } from '../kernel/response-schemas.js';
import { pagingHeaders } from '../content/wp-paging.js';
import { json, stream, type RouteDefinition, type SurfaceDefinition } from '../kernel/routes.js';
import type { JsonSchema } from '../kernel/json-schema.js';
import { readUpload, type UploadTypes } from '../kernel/upload.js';
import { ATTACHMENT, attachmentSchema, mediaMeta, servedInline, toAttachment } from './attachment.js';
import { AttachmentAccess } from './attachment-access.js';
import type { MediaLibrary } from './library.js';
import { apiError } from '../errors/catalogue.js';

const TEXT_MAX = 10_000;
/** The most attachments a filtered list reads to answer one page (see readableAttachments). */
const LIST_SCAN = 10_000;
const TITLE_MAX = 1000;
const PER_PAGE_MAX = 100;
const MEDIA_TYPES = ['image', 'video', 'audio', 'application', 'text'] as const;

const invalidId = () => apiError('rest_post_invalid_id', { status: 404 });
/** WordPress's rest_authorization_required_code(): 401 for strangers, 403 for users. */
const forbidden = (user: Principal | null) => apiError('rest_forbidden', { user });
/** A per-attachment refusal, as WordPress words it, 401 or 403. */
const refusals: Record<number, JsonSchema> = {
  401: errorBody('rest_forbidden', 'rest_cannot_edit', 'rest_cannot_delete'),
  403: errorBody('rest_forbidden', 'rest_cannot_edit', 'rest_cannot_delete'),
};

/** The errors every route can give before its handler runs (authentication, validation). */
// 401, 403 and 429 (and the validators' 400s) are the dispatcher's, added to every route.
const common: Record<number, JsonSchema> = {
  400: errorBody(
    'rest_invalid_param',
    'rest_post_invalid_id',
    'rest_post_invalid_page_number',
    'rest_upload_no_data',
    'rest_upload_invalid',
    'rest_upload_no_content_disposition',
    'rest_upload_invalid_disposition',
    'rest_upload_sideload_error',
  ),
};

const idParams: JsonSchema = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } };

const editable = {
  title: { type: 'string', maxLength: TITLE_MAX },
  alt_text: { type: 'string', maxLength: TITLE_MAX },
  caption: { type: 'string', maxLength: TEXT_MAX },
  description: { type: 'string', maxLength: TEXT_MAX },
  post: { type: ['integer', 'null'], minimum: 1 },
} satisfies Record<string, JsonSchema>;

interface Fields {
  title?: string;
  alt_text?: string;
  caption?: string;
  description?: string;
  post?: number | null;
}

/** A multipart form's text fields, held to the same rules as the query. */
function formFields(fields: Record<string, string>): Fields {
  const out: Fields = {};
  for (const name of ['title', 'alt_text', 'caption', 'description'] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    const max = name === 'title' || name === 'alt_text' ? TITLE_MAX : TEXT_MAX;
    if (value.length > max)
      throw apiError('rest_invalid_param', {
        message: `Invalid parameter(s): ${name} must not be longer than ${max} characters`,
        data: { params: { [name]: `longer than ${max}` } },
      });
    out[name] = value;
  }
  if (fields.post !== undefined && fields.post !== '') {
    const id = Number(fields.post);
    if (!Number.isSafeInteger(id) || id < 0)
      throw apiError('rest_invalid_param', {
        message: 'Invalid parameter(s): post must be a post id',
        data: { params: { post: 'not a post id' } },
      });
    out.post = id === 0 ? null : id;
  }
  return out;
}

/** Read at each upload, so a settings change applies at once. */
export interface UploadLimits {
  maxBytes: () => number;
  allowedTypes: () => UploadTypes;
}

export function mediaSurfaces(library: MediaLibrary, info: HostInfo, limits: UploadLimits): SurfaceDefinition[] {
  const site = () => info.publicUrl();
  const self = (id: number) => `${site()}${info.apiPrefix}/wp/v2/media/${id}`;

  const access = new AttachmentAccess(library.content);

  /** The attachment with this id, if the caller may read it (401/403 as WordPress otherwise). */
  const readable = async (id: number, user: Principal | null): Promise<Post> => {
    const post = await library.get(id);
    if (!post) throw invalidId();
    if (!(await access.canRead(post, user))) throw forbidden(user);
    return post;
  };

  // WordPress: attaching media to a post needs the right to edit that post.
  const checkParent = async (parent: number | null | undefined, user: Principal | null) => {
    if (parent === undefined || parent === null) return;
    const post = await library.content.getPost(parent);
    if (!post || post.status === 'trash')
      throw apiError('rest_post_invalid_id', {
        message: `The parent post ${parent} does not exist.`,
        status: 400,
        data: { params: { post: 'no such post' } },
      });
    if (!canEditPost(post, user))
      throw apiError('rest_cannot_edit', { message: 'Sorry, you are not allowed to upload media to this post.', user });
  };

  /**
   * A page of attachments the caller may read, and their total. Those who read every post
   * get the store's page; others' pages leave out attachments of posts they may not read
   * (WordPress drops them item by item): with one parent asked for, that parent decides;
   * otherwise the matches are read whole (at most LIST_SCAN) and filtered.
   */
  const readableAttachments = async (query: PostQuery, user: Principal | null): Promise<{ items: Post[]; total: number }> => {
    if (readsEverything(user) || query.parent_id === null) return library.content.findPosts(query);
    if (query.parent_id !== undefined) {
      return (await access.canReadParent(query.parent_id, user)) ? library.content.findPosts(query) : { items: [], total: 0 };
    }
    const cache = new Map<number, boolean>();
    const all: Post[] = [];
    for (let offset = 0; offset < LIST_SCAN; offset += 100) {
      const chunk = await library.content.findPosts({ ...query, per_page: 100, offset });
      for (const post of chunk.items) if (await access.canRead(post, user, cache)) all.push(post);
      if (chunk.items.length < 100) break;
    }
    const start = query.offset ?? 0;
    return { items: all.slice(start, start + (query.per_page ?? 10)), total: all.length };
  };

  const upload: RouteDefinition = {
    method: 'POST',
    path: '/media',
    permission: { capability: 'upload_files' },
    streamBody: true,
    summary: 'Upload a file (multipart field `file`, or the raw body with Content-Disposition)',
    schema: {
      query: { type: 'object', properties: editable },
      // The same fields as the query, as the form's text fields (formFields reads them).
      upload: { field: 'file', fields: editable },
      responses: { ...common, ...refusals, 201: attachmentSchema, 413: errorBody('rest_upload_too_large') },
    },
    async handle(request) {
      const query = request.query as Fields;
      await checkParent(query.post, request.user);
      const got = await readUpload(request, {
        bucket: library.bucket,
        maxBytes: limits.maxBytes(),
        field: 'file',
        allowedTypes: limits.allowedTypes(),
      });
      let fields: Fields;
      try {
        fields = { ...query, ...formFields(got.fields) };
        if (fields.post !== query.post) await checkParent(fields.post, request.user);
      } catch (error) {
        await library.bucket.delete(got.blob.id).catch(() => undefined);
        throw error;
      }
      const post = await library.create(got.blob, {
        ...(fields.title !== undefined ? { title: fields.title } : {}),
        ...(fields.alt_text !== undefined ? { alt_text: fields.alt_text } : {}),
        ...(fields.caption !== undefined ? { caption: fields.caption } : {}),
        ...(fields.description !== undefined ? { description: fields.description } : {}),
        parent_id: fields.post ?? null,
        // The CLI's local principal is no user (id 0).
        author_id: request.user && request.user.userId > 0 ? request.user.userId : null,
      });
      return json(201, toAttachment(post, site()), { Location: self(post.post_id) });
    },
  };

  const list: RouteDefinition = {
    method: 'GET',
    path: '/media',
    permission: 'public',
    summary: 'The media library, newest first',
    schema: {
      query: {
        type: 'object',
        properties: {
          page: { type: 'integer', minimum: 1, default: 1 },
          per_page: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: 10 },
          search: { type: 'string', maxLength: 200 },
          media_type: { enum: [...MEDIA_TYPES] },
          mime_type: { type: 'string', maxLength: 200 },
          parent: { type: 'integer', minimum: 0 },
        },
      },
      responses: { ...common, 200: { type: 'array', items: attachmentSchema } },
    },
    async handle(request) {
      const q = request.query as {
        page: number;
        per_page: number;
        search?: string;
        media_type?: string;
        mime_type?: string;
        parent?: number;
      };
      const meta: Record<string, string> = {};
      if (q.media_type) meta.media_kind = q.media_type;
      if (q.mime_type) meta.mime_type = q.mime_type.toLowerCase();
      const query: PostQuery = {
        post_type: ATTACHMENT,
        status: 'publish',
        ...(q.search ? { search: q.search } : {}),
        ...(Object.keys(meta).length ? { meta } : {}),
        ...(q.parent !== undefined ? { parent_id: q.parent === 0 ? null : q.parent } : {}),
        per_page: q.per_page,
        offset: Math.min((q.page - 1) * q.per_page, Number.MAX_SAFE_INTEGER),
      };
      const { items, total } = await readableAttachments(query, request.user);
      const pages = Math.ceil(total / q.per_page);
      if (q.page > 1 && q.page > pages) {
        throw apiError('rest_post_invalid_page_number');
      }
      return json(
        200,
        items.map((post) => toAttachment(post, site())),
        pagingHeaders(request, `${site()}${info.apiPrefix}/wp/v2/media`, total, q.per_page, q.page),
      );
    },
  };

  const getOne: RouteDefinition = {
    method: 'GET',
    path: '/media/{id}',
    permission: 'public',
    schema: { params: idParams, responses: { ...common, ...refusals, 200: attachmentSchema, 404: errorBody('rest_post_invalid_id') } },
    async handle(request) {
      const post = await readable((request.params as { id: number }).id, request.user);
      return json(200, toAttachment(post, site()));
    },
  };

  const update: RouteDefinition = {
    method: 'POST',
    path: '/media/{id}',
    permission: { capability: 'edit_posts' },
    summary: 'Edit an attachment (title, alt_text, caption, description, post)',
    schema: {
      params: idParams,
      body: { type: 'object', properties: editable, additionalProperties: false },
      responses: { ...common, ...refusals, 200: attachmentSchema, 404: errorBody('rest_post_invalid_id') },
    },
    async handle(request) {
      const post = await library.get((request.params as { id: number }).id);
      if (!post) throw invalidId();
      // WordPress's edit_post: one's own attachments, or anyone's with edit_others_posts.
      if (!canEditPost(post, request.user)) throw apiError('rest_cannot_edit', { user: request.user });
      const body = request.body as Fields;
      await checkParent(body.post, request.user);
      if (body.post === post.post_id)
        throw apiError('rest_invalid_param', {
          message: 'Invalid parameter(s): an attachment cannot be its own parent',
          data: { params: { post: 'itself' } },
        });
      const updated = await library.update(post, {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.alt_text !== undefined ? { alt_text: body.alt_text } : {}),
        ...(body.caption !== undefined ? { caption: body.caption } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.post !== undefined ? { parent_id: body.post } : {}),
      });
      return json(200, toAttachment(updated, site()));
    },
  };

  const remove: RouteDefinition = {
    method: 'DELETE',
    path: '/media/{id}',
    permission: { capability: 'delete_posts' },
    summary: 'Delete an attachment and its file (WordPress requires force=true: media has no trash)',
    schema: {
      params: idParams,
      query: { type: 'object', properties: { force: { type: 'boolean', default: false } } },
      responses: {
        ...common,
        200: {
          type: 'object',
          required: ['deleted', 'previous'],
          properties: { deleted: { const: true }, previous: attachmentSchema },
          additionalProperties: false,
        },
        ...refusals,
        404: errorBody('rest_post_invalid_id'),
        501: errorBody('rest_trash_not_supported'),
      },
    },
    async handle(request) {
      const post = await library.get((request.params as { id: number }).id);
      if (!post) throw invalidId();
      if (!canDeletePost(post, request.user)) throw apiError('rest_cannot_delete', { user: request.user });
      if ((request.query as { force: boolean }).force !== true) {
        throw apiError('rest_trash_not_supported');
      }
      const previous = toAttachment(post, site());
      await library.remove(post);
      return json(200, { deleted: true, previous });
    },
  };

  const bytes: RouteDefinition = {
    method: 'GET',
    path: '/flowhost-media/{id}/{filename}',
    permission: 'public',
    // An <img> in the editor's preview of a draft sends the session cookie but no nonce:
    // 'page' lets that cookie count (the route changes nothing), so the draft's own editors
    // see its images while strangers are refused.
    credentials: 'page',
    summary: "An attachment's bytes (those of a post the caller may not read are refused)",
    schema: {
      params: {
        type: 'object',
        required: ['id', 'filename'],
        properties: { id: { type: 'integer', minimum: 1 }, filename: { type: 'string', maxLength: 1000 } },
      },
      responses: {
        200: { type: 'string', contentMediaType: '*/*', description: 'The bytes, as stored, with their own Content-Type' },
        400: errorBody('rest_invalid_param'),
        401: errorBody('rest_forbidden'),
        403: errorBody('rest_forbidden'),
        404: errorBody('rest_post_invalid_id'),
      },
    },
    async handle(request) {
      const post = await readable((request.params as { id: number }).id, request.user);
      // Bytes anyone may read may sit in shared caches; the rest only in the reader's own.
      const shared = await access.canRead(post, null);
      const meta = mediaMeta(post);
      const body = await library.bucket.open(meta.blob_id);
      if (!body) throw invalidId();
      const headers: Record<string, string> = {
        'Content-Type': meta.mime_type,
        'Content-Length': String(meta.filesize),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
        'Cache-Control': shared ? 'public, max-age=3600' : 'private, no-store',
      };
      if (meta.sha256) headers.ETag = `"${meta.sha256}"`;
      if (!servedInline(meta.mime_type)) {
        const ascii = meta.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
        headers['Content-Disposition'] = `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(meta.filename)}`;
      }
      return stream(200, body, headers);
    },
  };

  return [
    { id: 'core-media', namespace: 'wp/v2', rest: 'wordpress', routes: [upload, list, getOne, update, remove] },
    { id: 'core-media-files', mount: 'site-root', routes: [bytes] },
  ];
}
