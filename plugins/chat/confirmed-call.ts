/** A held tool call the user confirmed by its id (POST /chat/continue with confirm_tool_call_id). */
import type { CallContext } from '../../sdk/index.js';
import { chatError } from './errors.js';
import { runTool, type ToolOutcome } from './loop.js';
import type { ServiceDeps } from './service.js';
import type { DisplayMessage, SessionRecord, ToolCallRecord } from './types.js';

/**
 * Runs the call the session holds, because the user (not the model) confirmed it by its
 * id: with the arguments the model gave when it asked, as the user was shown them. The
 * model hears the outcome as a user message (its own call was already answered "not run
 * yet"); the conversation shows it as a tool result confirmed by the user.
 */
export async function runConfirmed(
  deps: ServiceDeps,
  session: SessionRecord,
  callId: string,
  ctx: CallContext,
): Promise<{ call: ToolCallRecord; added: DisplayMessage[] }> {
  const held = session.pending_confirmation;
  if (!held || held.id !== callId) {
    throw chatError('nothing_to_confirm', {
      message: held
        ? `Chat session ${session.session_id} holds call ${held.id}, not ${callId}`
        : `Chat session ${session.session_id} holds no call waiting for confirmation`,
      data: { session_id: session.session_id, pending: held?.id ?? null },
    });
  }
  session.pending_confirmation = null;
  const name = held.function.name;
  const args = JSON.parse(held.function.arguments) as Record<string, unknown>;
  const tool = (await deps.tools(ctx)).find((t) => t.name === name);
  const outcome: ToolOutcome = !deps.destructiveEnabled(name)
    ? { error: `Not run: ${name} is no longer enabled for chat on this site (plugins.chat.destructive_tools)` }
    : await runTool(tool, name, args, ctx);
  const output = 'result' in outcome ? { success: true, result: outcome.result } : { success: false, error: outcome.error };
  const now = deps.clock.now().toISOString();
  session.messages.push({
    role: 'user',
    content: `I confirm call ${held.id} (${name} ${held.function.arguments}). It was run; its outcome: ${JSON.stringify(output)}`,
  });
  const added: DisplayMessage[] = [
    { role: 'user', content: `Confirmed: ${name}`, metadata: { type: 'confirmation', timestamp: now } },
    {
      role: 'tool',
      content: JSON.stringify(output),
      metadata: {
        type: 'tool_result',
        timestamp: now,
        tool_name: name,
        parameters: args,
        success: 'result' in outcome,
        confirmed_by_user: true,
      },
    },
  ];
  session.conversation.push(...added);
  session.completed = false;
  return { call: { id: held.id, type: 'function', function: held.function, turn: held.turn, confirmed: true, ...outcome }, added };
}
