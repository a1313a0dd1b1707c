/** DELETE wp/v2/media/{id}: an attachment and its file go at once (media has no trash). */
import { canDeletePost } from '../../content/post-caps.js';
import { json, type RouteDefinition } from '../../kernel/routes.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { apiError } from '../../errors/catalogue.js';
import { attachmentSchema, attachmentView } from '../attachment.js';
import type { MediaContext } from './context.js';
import { common, idParams, invalidId, refusals } from './shared.js';
import { defineRoute } from '../../../sdk/define.js';

export function removeRoute(ctx: MediaContext): RouteDefinition {
  const { library } = ctx;
  return defineRoute({
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
      const post = await library.get(request.params.id);
      if (!post) throw invalidId();
      if (!canDeletePost(post, request.user)) throw apiError('rest_cannot_delete', { user: request.user });
      if (request.query.force !== true) {
        throw apiError('rest_trash_not_supported');
      }
      const previous = attachmentView(post, ctx.site(), 'edit');
      await library.remove(post);
      return json(200, { deleted: true, previous });
    },
  });
}
