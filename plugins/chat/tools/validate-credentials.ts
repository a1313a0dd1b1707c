/**
 * Whether a handler's credentials are configured and its account connected, or whether an
 * AI provider's key works. Never answers a secret, masked or not.
 */
import { defineChatTool, type CallContext, type ChatToolDefinition, type Registries } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import type { ResolvedChatServices } from '../types.js';

/** A provider's refusal may quote part of the key ("Incorrect API key provided: sk-…abcd"): such tokens go. */
const redact = (message: string, secret: string | null) => {
  let out = secret ? message.split(secret).join('[redacted]') : message;
  out = out.replace(/\S*[*•]{3,}\S*/g, '[redacted]').replace(/\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{20,}\b/g, '[redacted]');
  return out.length > 500 ? `${out.slice(0, 499)}…` : out;
};

export function validateCredentialsTool(
  { credentials, settings, catalogue }: ResolvedChatServices,
  registries: Registries,
): ChatToolDefinition {
  const handlerCheck = async (slug: string) => {
    const handler = catalogue.handlers().find((h) => h.slug === slug);
    if (!handler)
      throw new Error(
        `No handler '${slug}' is registered (known: ${catalogue
          .handlers()
          .map((h) => h.slug)
          .join(', ')})`,
      );
    if (!handler.auth) return { valid: true, handler_slug: slug, requires_auth: false, message: `Handler '${slug}' needs no credentials.` };
    const status = (await credentials.status(slug)) as {
      authenticated: boolean;
      config_status?: Record<string, string>;
      error?: boolean;
      error_message?: string;
      account_details?: { username?: string };
    };
    const fields = Object.fromEntries(handler.auth.fields.map((f) => [f, Boolean(status.config_status?.[f])]));
    const missing = Object.entries(fields)
      .filter(([, set]) => !set)
      .map(([f]) => f);
    const oauth = handler.auth.type === 'oauth1' || handler.auth.type === 'oauth2';
    let message: string;
    if (status.authenticated)
      message = `Handler '${slug}' is connected${status.account_details?.username ? ` as ${status.account_details.username}` : ''}.`;
    else if (missing.length)
      message = `Handler '${slug}' is not configured: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set (PUT /auth/${slug}).`;
    else if (status.error)
      message = `Handler '${slug}' is configured but its authorization failed: ${redact(status.error_message ?? 'unknown error', null)}`;
    else
      message = oauth
        ? `Handler '${slug}' is configured but no account is connected yet: the browser authorization has to be completed.`
        : `Handler '${slug}' is configured but not connected.`;
    return {
      valid: status.authenticated,
      handler_slug: slug,
      requires_auth: true,
      auth_type: handler.auth.type,
      configured: missing.length === 0,
      connected: status.authenticated,
      fields_set: fields,
      ...(status.authenticated && status.account_details?.username ? { account: status.account_details.username } : {}),
      message,
    };
  };

  const providerCheck = async (slug: string, ctx: CallContext) => {
    const provider = registries.providers().find((p) => p.slug === slug);
    if (!provider)
      throw new Error(
        `No AI provider '${slug}' is registered (known: ${registries
          .providers()
          .map((p) => p.slug)
          .join(', ')})`,
      );
    if (!(await provider.configured(ctx)))
      return {
        valid: false,
        provider: slug,
        configured: false,
        message: `${provider.label} has no API key (PUT /settings ai_provider_keys.${slug}).`,
      };
    if (!provider.test)
      return {
        valid: true,
        provider: slug,
        configured: true,
        tested: false,
        message: `${provider.label} has a key; it offers no test call, so the key was not tried.`,
      };
    const result = await provider.test(ctx);
    const key = await settings.providerKey(slug).catch(() => null);
    return {
      valid: result.ok,
      provider: slug,
      configured: true,
      tested: true,
      ...(result.ok ? {} : { code: result.code }),
      message: redact(result.message, key),
    };
  };

  return defineChatTool({
    name: 'validate_credentials',
    description:
      "Check credentials without showing them. handler_slug: whether the handler's credentials are saved and its account connected (valid: it can run). provider: whether an AI provider's API key works (one cheap call to the provider). Give exactly one. Returns {valid, message, ...}.",
    parameters: {
      type: 'object',
      properties: {
        handler_slug: { type: 'string', minLength: 1, maxLength: 100 },
        provider: { type: 'string', minLength: 1, maxLength: 64 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      requireManager(ctx, 'validate_credentials');
      const handler = args.handler_slug;
      const provider = args.provider;
      if ((handler === undefined) === (provider === undefined)) throw new Error('Give exactly one of handler_slug or provider');
      return handler !== undefined ? handlerCheck(handler) : providerCheck(provider!, ctx);
    },
  });
}
