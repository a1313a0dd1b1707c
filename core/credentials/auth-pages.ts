import { page, reply, type RouteReply, type SurfaceDefinition } from '../kernel/routes.js';
import type { BrowserFlow } from './browser-flow.js';
import type { CredentialsService } from './service.js';
import { DEFAULT_AUTH_PREFIX } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { authPagesResponses } from './responses.js';
import { defineRoute } from '../../sdk/define.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script>: `</script>` and friends cannot close it. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028|\u2029/g, '');

/** The popup's last screen: tells the admin page that opened it, then closes. */
function resultPage(slug: string, ok: boolean, message: string): RouteReply {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Flowhost authorization</title></head><body>
<p>${escapeHtml(message)}</p>
<script>try { if (window.opener) window.opener.postMessage(${scriptJson({ type: 'flowhost-auth', handler_slug: slug, success: ok, message })}, window.location.origin); } catch (e) {} setTimeout(function () { window.close(); }, 1500);</script>
</body></html>`;
  // 200 either way: the page was delivered; the outcome is in it and in the status.
  return page(200, html);
}

const queryField = { type: 'string', maxLength: 2048 } as const;

/**
 * `/{auth_prefix}/{handler_slug}/` on the site root (spec: Auth): the browser authorization
 * of OAuth handlers, opened in a popup by an administrator whose session cookie counts
 * here without a nonce (a navigation cannot send one; the flow's single-use state,
 * bound to that user, is what protects the callback).
 */
export function authPagesSurface(
  flow: BrowserFlow,
  credentials: CredentialsService,
  authPrefix: string = DEFAULT_AUTH_PREFIX,
): SurfaceDefinition {
  return withResponses(
    {
      id: 'auth-pages',
      mount: 'site-root',
      routes: [
        defineRoute({
          method: 'GET',
          path: `/${authPrefix}/{handler_slug}`,
          permission: { capability: 'manage_options' },
          credentials: 'page',
          summary: 'Browser authorization of an OAuth handler: redirects to the provider, then handles its callback',
          schema: {
            params: {
              type: 'object',
              required: ['handler_slug'],
              properties: { handler_slug: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$', maxLength: 100 } },
            },
            query: {
              type: 'object',
              properties: {
                oauth_token: queryField,
                oauth_verifier: queryField,
                denied: queryField,
                code: queryField,
                state: queryField,
                error: queryField,
              },
            },
          },
          async handle(request) {
            const slug = String(request.params.handler_slug);
            const result = await flow.step(slug, request.query, request.user!.userId, credentials.authorizationUrl(slug));
            if (result.kind === 'redirect') return reply(302, { success: true, location: result.location }, { Location: result.location });
            return resultPage(slug, result.ok, result.message);
          },
        }),
      ],
    },
    authPagesResponses(`/${authPrefix}/{handler_slug}`),
  );
}
