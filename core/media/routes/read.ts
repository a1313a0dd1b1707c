/** GET wp/v2/media/{id}: one attachment, if the caller may read it. */
import { json, type RouteDefinition } from '../../kernel/routes.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { attachmentSchema, toAttachment } from '../attachment.js';
import type { MediaContext } from './context.js';
import { common, idParams, refusals } from './shared.js';
import { defineRoute } from '../../../sdk/define.js';

export function getOneRoute(ctx: MediaContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/media/{id}',
    permission: 'public',
    schema: { params: idParams, responses: { ...common, ...refusals, 200: attachmentSchema, 404: errorBody('rest_post_invalid_id') } },
    async handle(request) {
      const post = await ctx.readable(request.params.id, request.user);
      return json(200, toAttachment(post, ctx.site()));
    },
  });
}
