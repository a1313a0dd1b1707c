/**
 * The credentials domain's extension point (issue 54): only core-credentials reads auth
 * providers (the browser authorization and the OAuth 2 refresh), so they are its point,
 * not a kernel kind. A plugin contributes as before, `deps: { authProviders: services.authProviders }`.
 */
import { createExtensionPoint } from '../kernel/extension-point.js';
import type { AuthProviderDefinition } from '../kernel/contributions.js';

/** The browser authorization a family of OAuth handlers shares; keyed by `key`, owned by core-credentials. */
export const authProviders = createExtensionPoint<AuthProviderDefinition>({
  id: 'credentials.authProviders',
  owner: 'core-credentials',
  key: 'key',
  description: 'the browser authorization (OAuth 1.0a or 2.0) of handlers sharing one provider key',
});
