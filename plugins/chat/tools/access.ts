/**
 * What every chat tool shares: the acting user as a services principal, the
 * manage_options gate, and the flow-step id as the flows routes know it.
 */
import type { ActingUser, CallContext, Principal } from '../../../sdk/index.js';

/**
 * The acting user as the services' `by` (their change log names who did it). `client`:
 * who called the tool, the chat assistant unless the MCP server says it was an MCP agent.
 */
export function principalOf(user: ActingUser, client: 'chat' | 'mcp' = 'chat'): Principal {
  return {
    userId: user.userId,
    login: user.login,
    role: 'acting',
    capabilities: new Set(user.capabilities),
    via: 'local',
    // Revisions of what a tool changes say whether the chat assistant or an MCP agent made it.
    client,
    can: (c) => user.can(c),
  };
}

/** The caller as a principal, or an error naming the tool and the user when they lack manage_options. */
export function requireManager(ctx: CallContext, tool: string): Principal {
  if (!ctx.user?.can('manage_options'))
    throw new Error(
      `${tool} needs the manage_options capability, which ${ctx.user ? `user ${ctx.user.login}` : 'this caller'} does not have`,
    );
  return principalOf(ctx.user, ctx.client ?? 'chat');
}

/** A run a tool starts: its job's `source` (and `trigger.kind`) names the client that called. */
export const runSourceOf = (ctx: CallContext): 'chat' | 'mcp' => ctx.client ?? 'chat';

/** The step's flow-step id as the flows routes know it. */
export const flowStepId = (pipelineStepId: string, flowId: number) => `${pipelineStepId}_${flowId}`;
