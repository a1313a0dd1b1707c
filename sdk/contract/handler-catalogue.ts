/**
 * The workflows domain's handlers and step types (issue 54): core-workflows owns them as
 * the extension points `flows.handlers` and `flows.stepTypes`, not kernel kinds. A plugin
 * adds as before, `deps: { handlers: services.handlers, stepTypes: services.stepTypes }`;
 * a plugin or domain that reads them (the engine, pipelines' checks, credentials, chat's
 * tools, discovery) asks the domain: `deps: { handlerCatalogue: services.handlerCatalogue }`.
 */
import { createExtensionPoint } from '../kernel/extension-point.js';
import { createServiceRef } from '../kernel/service-ref.js';
import type { HandlerDefinition, StepTypeDefinition } from '../kernel/contributions.js';

/** The plugin that owns both points (core/workflows-plugin.ts). */
const owner = 'core-workflows';

/** The function each handler type must have. */
const HANDLER_RUNS = { fetch: 'fetch', publish: 'publish', update: 'update' } as const;

/** Refuses at add time what would otherwise answer 500 at first use. */
function checkHandler(handler: HandlerDefinition<object>): void {
  const run = HANDLER_RUNS[handler.type];
  if (!run) throw new Error(`type must be fetch, publish or update (got ${String(handler.type)})`);
  if (typeof (handler as unknown as Record<string, unknown>)[run] !== 'function')
    throw new Error(`is a ${handler.type} handler without a ${run}() function`);
  const limit = handler.textLimit;
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
    throw new Error(`textLimit must be a positive integer (got ${String(limit)})`);
  if (limit !== undefined && handler.type !== 'publish')
    throw new Error(`textLimit is for publish handlers; this one is a ${handler.type} handler`);
}

/** Fetch, publish and update handlers a flow step names by `slug`. */
export const handlers = createExtensionPoint<HandlerDefinition<object>>({
  id: 'flows.handlers',
  owner,
  key: 'slug',
  description: 'a fetch, publish or update handler a flow step names by slug',
  check: checkHandler,
  schemaOf: (handler) => handler.settings,
});

/** Kinds of pipeline step (`fetch`, `ai`, `publish`, a plugin's own); keyed by `type`. */
export const stepTypes = createExtensionPoint<StepTypeDefinition>({
  id: 'flows.stepTypes',
  owner,
  key: 'type',
  description: 'a kind of pipeline step',
  check(stepType) {
    if (stepType.handlerType === null && typeof stepType.run !== 'function')
      throw new Error('needs no handler, so it must have a run() function');
  },
});

/** What a plugin reads of the registered handlers and step types: once the host booted. */
export interface HandlerCatalogue {
  /** Every handler, in the order added (throws before boot). */
  handlers(): readonly HandlerDefinition<object>[];
  /** The handler with this slug. */
  handler(slug: string): HandlerDefinition<object> | undefined;
  /** Every step type, in the order added (throws before boot). */
  stepTypes(): readonly StepTypeDefinition[];
  /** The step type with this name. */
  stepType(type: string): StepTypeDefinition | undefined;
  /** The plugin that added the handler with this slug. */
  handlerOwner(slug: string): string | undefined;
}

/** `deps: { handlerCatalogue: services.handlerCatalogue }`: provided by core-workflows. */
export const handlerCatalogueService = createServiceRef<HandlerCatalogue, 'root'>({ id: 'handlerCatalogue', scope: 'root' });
