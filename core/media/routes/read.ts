/** GET wp/v2/media/{id}: one attachment, if the caller may read it, in the context asked for. */
import { canEditPost } from '../../content/post-caps.js';
import { apiError } from '../../errors/catalogue.js';
import { json, type RouteDefinition } from '../../kernel/routes.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { attachmentSchema, attachmentView } from '../attachment.js';
import type { MediaContext } from './context.js';
import { common, contextQuery, forbidden, idParams, invalidId, readRefusals } from './shared.js';
import { defineRoute } from '../../../sdk/define.js';

export function getOneRoute(ctx: MediaContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/media/{id}',
    permission: 'public',
    schema: {
      params: idParams,
      query: contextQuery,
      responses: { ...common, ...readRefusals, 200: attachmentSchema, 404: errorBody('rest_post_invalid_id') },
    },
    async handle(request) {
      // As WordPress: the attachment must exist (404), then `context=edit` needs the right
      // to edit it, then the caller must be able to read it.
      const post = await ctx.library.get(request.params.id);
      if (!post) throw invalidId();
      const context = request.query.context;
      if (context === 'edit' && !canEditPost(post, request.user)) throw apiError('rest_forbidden_context', { user: request.user });
      if (!(await ctx.access.canRead(post, request.user))) throw forbidden(request.user);
      return json(200, attachmentView(post, ctx.site(), context));
    },
  });
}
