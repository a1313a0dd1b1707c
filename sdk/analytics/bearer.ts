/** The access token for a tool configured with a service account; a refusal is an analytics_error naming no secret. */
import type { ToolCatalogueEntry } from './catalogue.js';
import { remoteFailure } from './errors.js';
import { TokenExchangeError, type ServiceAccountKey } from './service-account.js';
import type { ToolEnv } from './tool-plugin.js';

export async function serviceAccountToken(entry: ToolCatalogueEntry, env: ToolEnv, scope: string): Promise<string> {
  const key = JSON.parse(env.config.service_account!) as ServiceAccountKey;
  try {
    return await env.tokens.accessToken(key, scope, env.fetch);
  } catch (error) {
    if (error instanceof TokenExchangeError) throw remoteFailure(entry, error.message, error.remoteStatus);
    throw remoteFailure(
      entry,
      `The service account's token endpoint could not be reached: ${(error as Error).message?.replace(/https?:\/\/[^\s"']+/g, '[url]').slice(0, 200)}`,
      null,
    );
  }
}
