/** What a handler is and which settings it takes, read from its registration and schema. */
import { defineChatTool, type ChatToolDefinition, type HandlerDefinition, type JsonSchema } from '../../../sdk/index.js';
import { requireManager } from './access.js';
import type { ResolvedChatServices } from '../types.js';

/** Bounds, so one answer stays a small part of the model's context. */
const MAX_TEXT = 400;
const MAX_ENUM = 30;
const MAX_FIELDS = 40;
const MAX_HANDLERS = 60;

const clip = (text: unknown) => {
  const s = typeof text === 'string' ? text : '';
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s;
};
/** A default or enum value as JSON, bounded. */
const small = (value: unknown) =>
  typeof value === 'string' ? clip(value) : JSON.stringify(value ?? null).length > MAX_TEXT ? '(long value)' : value;

function fieldsOf(schema: JsonSchema | undefined) {
  const properties = ((schema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const required = new Set(((schema as { required?: string[] } | undefined)?.required ?? []) as string[]);
  const entries = Object.entries(properties);
  const fields = entries.slice(0, MAX_FIELDS).map(([name, p]) => ({
    name,
    type: Array.isArray(p.type) ? p.type.join('|') : ((p.type as string | undefined) ?? (Array.isArray(p.enum) ? 'enum' : 'any')),
    ...(p.title ? { label: clip(p.title) } : {}),
    ...(p.description ? { description: clip(p.description) } : {}),
    required: required.has(name),
    ...(p.default !== undefined ? { default: small(p.default) } : {}),
    ...(Array.isArray(p.enum) ? { enum: p.enum.slice(0, MAX_ENUM).map(small) } : {}),
    ...(typeof p.minimum === 'number' ? { minimum: p.minimum } : {}),
    ...(typeof p.maximum === 'number' ? { maximum: p.maximum } : {}),
    ...(typeof p.maxLength === 'number' ? { max_length: p.maxLength } : {}),
  }));
  return {
    fields,
    ...(entries.length > MAX_FIELDS ? { fields_left_out: entries.length - MAX_FIELDS } : {}),
    accepts_other_fields: (schema as { additionalProperties?: unknown } | undefined)?.additionalProperties !== false,
  };
}

export function handlerDocumentationTool({ credentials, flows, catalogue }: ResolvedChatServices): ChatToolDefinition {
  const stepTypesOf = (handler: HandlerDefinition<object>) =>
    catalogue
      .stepTypes()
      .filter((t) => t.handlerType === handler.type)
      .map((t) => t.type);
  return defineChatTool({
    name: 'handler_documentation',
    description:
      'Describe handlers: label, step type, description, settings fields (type, required, default, allowed values, limits) and what credentials they need (and whether they are connected). handler_slug: one handler, with its current handler defaults; omit for all, optionally only those for step_type (fetch, publish, update).',
    parameters: {
      type: 'object',
      properties: {
        handler_slug: { type: 'string', minLength: 1, maxLength: 100 },
        step_type: { type: 'string', minLength: 1, maxLength: 64 },
      },
      additionalProperties: false,
    },
    async run(args, ctx) {
      requireManager(ctx, 'handler_documentation');
      const slug = args.handler_slug;
      const stepType = args.step_type;
      let handlers = catalogue.handlers();
      if (slug !== undefined) {
        handlers = handlers.filter((h) => h.slug === slug);
        if (!handlers.length)
          throw new Error(
            `No handler '${slug}' is registered (known: ${catalogue
              .handlers()
              .map((h) => h.slug)
              .join(', ')})`,
          );
      }
      if (stepType !== undefined) {
        const type = catalogue.stepTypes().find((t) => t.type === stepType);
        if (!type)
          throw new Error(
            `Unknown step type '${stepType}' (known: ${catalogue
              .stepTypes()
              .map((t) => t.type)
              .join(', ')})`,
          );
        handlers = handlers.filter((h) => h.type === type.handlerType);
      }
      const shown = handlers.slice(0, MAX_HANDLERS);
      const docs = await Promise.all(
        shown.map(async (h) => {
          const auth = h.auth
            ? { type: h.auth.type, fields: [...h.auth.fields], connected: (await credentials.connection(h)).authenticated }
            : null;
          return {
            slug: h.slug,
            label: clip(h.label),
            step_types: stepTypesOf(h),
            description: clip(h.description),
            requires_auth: Boolean(h.auth),
            ...(auth ? { auth } : {}),
            ...(h.textLimit ? { text_limit: h.textLimit } : {}),
            settings: fieldsOf(h.settings),
          };
        }),
      );
      if (slug !== undefined) return { handler: docs[0], handler_defaults: (await flows.getHandlerDefaults(slug))[slug] ?? {} };
      return {
        handlers: docs,
        total: handlers.length,
        ...(handlers.length > MAX_HANDLERS ? { left_out: handlers.length - MAX_HANDLERS } : {}),
      };
    },
  });
}
