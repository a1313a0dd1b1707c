/** GET /flowhost-media/{id}/{filename}: an attachment's bytes, as readable as its post. */
import { stream, type RouteDefinition } from '../../kernel/routes.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { mediaMeta, servedInline } from '../attachment.js';
import type { MediaContext } from './context.js';
import { invalidId } from './shared.js';
import { defineRoute } from '../../../sdk/define.js';

export function bytesRoute(ctx: MediaContext): RouteDefinition {
  const { library, access } = ctx;
  return defineRoute({
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
      const post = await ctx.readable(request.params.id, request.user);
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
  });
}
