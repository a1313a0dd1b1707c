/**
 * The chat tools this plugin ships. One file per tool; each acts through the SDK services
 * as the acting user and never does more than that user may.
 */
import type { ChatToolDefinition, Registries } from '../../../sdk/index.js';
import type { ResolvedChatServices } from '../types.js';
import { createPipelineTool } from './create-pipeline.js';
import { createFlowTool } from './create-flow.js';
import { runFlowTool } from './run-flow.js';
import { addPipelineStepTool } from './add-pipeline-step.js';
import { configurePipelineStepTool } from './configure-pipeline-step.js';
import { configureFlowStepTool } from './configure-flow-step.js';
import { updateFlowTool } from './update-flow.js';
import { copyFlowTool } from './copy-flow.js';
import { executeWorkflowTool } from './execute-workflow.js';
import { getHandlerDefaultsTool } from './get-handler-defaults.js';
import { setHandlerDefaultsTool } from './set-handler-defaults.js';
import { handlerDocumentationTool } from './handler-documentation.js';
import { validateCredentialsTool } from './validate-credentials.js';

export function chatTools(services: ResolvedChatServices, registries: Registries): ChatToolDefinition[] {
  return [
    createPipelineTool(services),
    createFlowTool(services),
    runFlowTool(services),
    addPipelineStepTool(services, registries),
    configurePipelineStepTool(services),
    configureFlowStepTool(services),
    updateFlowTool(services),
    copyFlowTool(services),
    executeWorkflowTool(services),
    getHandlerDefaultsTool(services),
    setHandlerDefaultsTool(services),
    handlerDocumentationTool(services),
    validateCredentialsTool(services, registries),
  ];
}
