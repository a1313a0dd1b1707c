/**
 * What a plugin may know of handler credentials: their status, whether a handler is
 * connected, and where the browser authorization starts. Handlers get their own
 * credentials through `ctx.credentials`; saving, sealing and connecting are the core's own.
 */
import { createServiceRef } from '../kernel/service-ref.js';
import type { HandlerDefinition } from '../kernel/contributions.js';

export interface CredentialsApi {
  /** GET /auth/{slug}/status's answer (masked fields, `oauth_url` for OAuth handlers). */
  status(slug: string): Promise<Record<string, unknown>>;
  /** `/{auth_prefix}/{slug}/` on the site root, where the browser authorization starts. */
  authorizationUrl(slug: string): string;
  connection(handler: HandlerDefinition<object>): Promise<{ authenticated: boolean; account_details?: { username: string; id: string } }>;
}

/** `deps: { credentials: services.credentials }`: provided by the core domain plugin. */
export const credentialsService = createServiceRef<CredentialsApi, 'root'>({ id: 'credentials', scope: 'root' });
