import type { HandlerDefinition, JsonSchema } from '../../sdk/index.js';

export interface HandlerConnection {
  authenticated: boolean;
  account_details?: { username: string; id: string };
  /** Where the browser authorization of an OAuth handler starts. */
  callbackUrl: string;
}

/** A handler as the spec's "Handler definition" describes it (conditional fields only when they apply). */
export function handlerView(
  handler: HandlerDefinition<object>,
  owner: string | undefined,
  connection: HandlerConnection,
): Record<string, unknown> {
  const view: Record<string, unknown> = {
    type: handler.type,
    class: handler.class ?? `${owner ?? 'unknown'}/${handler.slug}`,
    label: handler.label,
    description: handler.description,
    requires_auth: Boolean(handler.auth),
  };
  // Not in the spec's field list (its handler table has a "Text limit" column): only for a handler with one.
  if (handler.textLimit !== undefined) view.text_limit = handler.textLimit;
  if (handler.auth) {
    view.auth_type = handler.auth.type;
    view.auth_fields = [...handler.auth.fields];
    if (handler.auth.type === 'oauth1' || handler.auth.type === 'oauth2') view.callback_url = connection.callbackUrl;
    view.is_authenticated = connection.authenticated;
    if (connection.authenticated) view.account_details = connection.account_details ?? {};
  }
  return view;
}

/**
 * The admin client's per-field settings view of a handler's JSON Schema. `current_value`:
 * the handler default a new flow step starts from (masked where secret), else the schema's.
 */
export function settingsView(
  schema: JsonSchema | undefined,
  handlerDefaults: Record<string, unknown> = {},
): Record<string, Record<string, unknown>> {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [field, property] of Object.entries(properties)) {
    out[field] = {
      type: property.type ?? 'string',
      label: property.title ?? field,
      description: property.description ?? '',
      default: property.default ?? null,
      options: Array.isArray(property.enum) ? property.enum : [],
      current_value: field in handlerDefaults ? handlerDefaults[field] : (property.default ?? null),
    };
  }
  return out;
}
