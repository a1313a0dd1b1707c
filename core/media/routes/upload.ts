/** POST wp/v2/media: a file streamed in (multipart or raw body) becomes an attachment. */
import { json, type RouteDefinition } from '../../kernel/routes.js';
import { readUpload } from '../../kernel/upload.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { apiError } from '../../errors/catalogue.js';
import { attachmentSchema, attachmentView } from '../attachment.js';
import { LOCATION_HEADER } from '../../content/wp-paging.js';
import type { MediaContext } from './context.js';
import { common, editable, type Fields, refusals, TEXT_MAX, TITLE_MAX } from './shared.js';
import { defineRoute } from '../../../sdk/define.js';

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

export function uploadRoute(ctx: MediaContext): RouteDefinition {
  const { library, limits } = ctx;
  return defineRoute({
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
      responseHeaders: { 201: LOCATION_HEADER },
    },
    async handle(request) {
      const query = request.query;
      await ctx.checkParent(query.post, request.user);
      const got = await readUpload(request, {
        bucket: library.bucket,
        maxBytes: limits.maxBytes(),
        field: 'file',
        allowedTypes: limits.allowedTypes(),
      });
      let fields: Fields;
      try {
        fields = { ...query, ...formFields(got.fields) };
        if (fields.post !== query.post) await ctx.checkParent(fields.post, request.user);
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
      return json(201, attachmentView(post, ctx.site(), 'edit'), { Location: ctx.self(post.post_id) });
    },
  });
}
