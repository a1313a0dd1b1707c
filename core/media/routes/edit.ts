/** POST wp/v2/media/{id}: edit an attachment's text fields or the post it is attached to. */
import { canEditPost } from '../../content/post-caps.js';
import { json, type RouteDefinition } from '../../kernel/routes.js';
import { errorBody } from '../../kernel/response-schemas.js';
import { apiError } from '../../errors/catalogue.js';
import { attachmentSchema, attachmentView } from '../attachment.js';
import type { MediaContext } from './context.js';
import { common, editable, idParams, invalidId, refusals } from './shared.js';
import { defineRoute } from '../../../sdk/define.js';

export function updateRoute(ctx: MediaContext): RouteDefinition {
  const { library } = ctx;
  return defineRoute({
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
      const post = await library.get(request.params.id);
      if (!post) throw invalidId();
      // WordPress's edit_post: one's own attachments, or anyone's with edit_others_posts.
      if (!canEditPost(post, request.user)) throw apiError('rest_cannot_edit', { user: request.user });
      const body = request.body;
      await ctx.checkParent(body.post, request.user);
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
      return json(200, attachmentView(updated, ctx.site(), 'edit'));
    },
  });
}
