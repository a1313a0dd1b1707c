/** Attachments (posts of type `attachment`) as WordPress's REST API shows them. */
import type { Post } from '../content/model.js';
import type { JsonSchema } from '../kernel/json-schema.js';
import { named } from '../kernel/response-schemas.js';

export const ATTACHMENT = 'attachment';

/** What an attachment keeps in its post meta. */
export interface MediaMeta {
  blob_id: string;
  mime_type: string;
  /** The MIME type's top-level type (image, video, audio, text, application...), for filtering. */
  media_kind: string;
  filesize: number;
  filename: string;
  sha256: string;
  alt_text: string;
  width?: number;
  height?: number;
}

export function mediaMeta(post: Post): MediaMeta {
  const m = post.meta as Partial<MediaMeta>;
  return {
    blob_id: String(m.blob_id ?? ''),
    mime_type: String(m.mime_type ?? 'application/octet-stream'),
    media_kind: String(m.media_kind ?? 'application'),
    filesize: Number(m.filesize ?? 0),
    filename: String(m.filename ?? 'file'),
    sha256: String(m.sha256 ?? ''),
    alt_text: String(m.alt_text ?? ''),
    ...(typeof m.width === 'number' && typeof m.height === 'number' ? { width: m.width, height: m.height } : {}),
  };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
/** WordPress shows caption and description as paragraphs. */
const paragraph = (text: string) => (text.trim() ? `<p>${escapeHtml(text.trim()).replace(/\n/g, '<br />\n')}</p>\n` : '');
/** WordPress's `date` format: local time without a zone (the host keeps UTC). */
const wpDate = (date: Date) => date.toISOString().slice(0, 19);

/** Where the bytes are served: `/flowhost-media/{id}/{filename}` on the site root. */
export function mediaPath(postId: number, filename: string): string {
  return `/flowhost-media/${postId}/${encodeURIComponent(filename)}`;
}

export function toAttachment(post: Post, siteUrl: string): Record<string, unknown> {
  const meta = mediaMeta(post);
  const source = `${siteUrl}${mediaPath(post.post_id, meta.filename)}`;
  const details: Record<string, unknown> = { filesize: meta.filesize };
  if (meta.width !== undefined && meta.height !== undefined) Object.assign(details, { width: meta.width, height: meta.height });
  return {
    id: post.post_id,
    date: wpDate(post.created_at),
    date_gmt: wpDate(post.created_at),
    modified: wpDate(post.updated_at),
    modified_gmt: wpDate(post.updated_at),
    slug: post.slug,
    status: 'inherit',
    type: 'attachment',
    link: source,
    title: { rendered: escapeHtml(post.title) },
    author: post.author_id ?? 0,
    alt_text: meta.alt_text,
    caption: { rendered: paragraph(post.excerpt) },
    description: { rendered: paragraph(post.content) },
    media_type: meta.media_kind === 'image' ? 'image' : 'file',
    mime_type: meta.mime_type,
    source_url: source,
    media_details: details,
    post: post.parent_id,
  };
}

/** WordPress's contexts: `view` (the default), `edit` (adds the raw texts), `embed` (a short form). */
export type AttachmentContext = 'view' | 'edit' | 'embed';

/** The fields of an attachment in the embed context (WordPress's `context: ['view', 'edit', 'embed']` ones). */
export const EMBED_FIELDS = [
  'id',
  'date',
  'slug',
  'type',
  'link',
  'title',
  'author',
  'caption',
  'alt_text',
  'media_type',
  'mime_type',
  'media_details',
  'source_url',
] as const;

/** An attachment as a context shows it: edit adds `raw` to title, caption and description. */
export function attachmentView(post: Post, siteUrl: string, context: AttachmentContext): Record<string, unknown> {
  const full = toAttachment(post, siteUrl);
  if (context === 'embed') return Object.fromEntries(EMBED_FIELDS.map((field) => [field, full[field]]));
  if (context === 'edit') {
    const withRaw = (field: string, raw: string) => ({ ...(full[field] as Record<string, unknown>), raw });
    return {
      ...full,
      title: withRaw('title', post.title),
      caption: withRaw('caption', post.excerpt),
      description: withRaw('description', post.content),
    };
  }
  return full;
}

/** `rendered`, and `raw` in the edit context. */
const rendered: JsonSchema = {
  type: 'object',
  required: ['rendered'],
  properties: { rendered: { type: 'string' }, raw: { type: 'string' } },
  additionalProperties: false,
};

/** The attachment object, every field declared; the embed context's fields always there. */
export const attachmentSchema: JsonSchema = named('Attachment', {
  type: 'object',
  required: [...EMBED_FIELDS],
  properties: {
    id: { type: 'integer' },
    date: { type: 'string' },
    date_gmt: { type: 'string' },
    modified: { type: 'string' },
    modified_gmt: { type: 'string' },
    slug: { type: 'string' },
    status: { const: 'inherit' },
    type: { const: 'attachment' },
    link: { type: 'string' },
    title: rendered,
    author: { type: 'integer' },
    alt_text: { type: 'string' },
    caption: rendered,
    description: rendered,
    media_type: { enum: ['image', 'file'] },
    mime_type: { type: 'string' },
    source_url: { type: 'string' },
    media_details: {
      type: 'object',
      required: ['filesize'],
      properties: { filesize: { type: 'integer' }, width: { type: 'integer' }, height: { type: 'integer' } },
      additionalProperties: false,
    },
    post: { type: ['integer', 'null'] },
  },
  additionalProperties: false,
});

/** Shown inline by browsers; anything else is served as a download. */
export function servedInline(mime: string): boolean {
  if (mime === 'image/svg+xml') return false; // scripts
  return /^image\//.test(mime) || ['application/pdf', 'text/plain', 'text/csv', 'text/markdown'].includes(mime);
}
