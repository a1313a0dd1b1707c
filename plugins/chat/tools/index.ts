/**
 * The chat tools this plugin ships. One file per tool; each acts through the SDK services
 * as the acting user and never does more than that user may.
 */
import type { ChatToolDefinition, Registries } from '../../../sdk/index.js';
import type { ResolvedChatServices } from '../types.js';
import { createPipelineTool } from './create-pipeline.js';
import { createFlowTool } from './create-flow.js';
import { runFlowTool } from './run-flow.js';

export function chatTools(services: ResolvedChatServices, registries: Registries): ChatToolDefinition[] {
  return [
    createPipelineTool(services, registries),
    createFlowTool(services),
    runFlowTool(services),
  ];
}
