/**
 * The flows domain's own extension points as its services read them (issue 54): the
 * handlers, step types and intervals plugins added, live after boot. The catalogue is what
 * core-workflows offers everyone else (`services.handlerCatalogue`).
 */
import type { ExtensionPointContributions } from '../kernel/extension-point.js';
import type { HandlerDefinition, IntervalDefinition, StepTypeDefinition } from '../kernel/contributions.js';
import type { HandlerCatalogue } from '../../sdk/contract/handler-catalogue.js';

export interface WorkflowParts {
  handlers: ExtensionPointContributions<HandlerDefinition<object>>;
  stepTypes: ExtensionPointContributions<StepTypeDefinition>;
  intervals: ExtensionPointContributions<IntervalDefinition>;
}

/** The reading other domains and plugins get: never the points themselves. */
export function handlerCatalogue(parts: Pick<WorkflowParts, 'handlers' | 'stepTypes'>): HandlerCatalogue {
  return {
    handlers: () => parts.handlers.list(),
    handler: (slug) => parts.handlers.get(slug),
    stepTypes: () => parts.stepTypes.list(),
    stepType: (type) => parts.stepTypes.get(type),
    handlerOwner: (slug) => parts.handlers.ownerOf(slug),
  };
}
