/** Saving a session and running the model loop on it: what POST /chat and /chat/continue both do. */
import type { CallContext, ProviderDefinition, ProviderMessage } from '../../sdk/index.js';
import { trimConversation, trimModelMessages } from './caps.js';
import { chatError } from './errors.js';
import { LoopProviderError, runChatLoop } from './loop.js';
import type { Lease } from './repository.js';
import type { ServiceDeps } from './service.js';
import type { SessionRecord } from './types.js';

export function sessionRunner(deps: ServiceDeps) {
  const { repository, clock } = deps;

  /** Saves the session (trimmed to the caps) while this request holds its lease. */
  const saver = (session: SessionRecord, lease: Lease, log: CallContext['log']) => async () => {
    trimModelMessages(session.messages);
    trimConversation(session.conversation);
    session.updated_at = clock.now();
    session.message_count = session.conversation.length;
    const { _id, lease_owner: _owner, lease_until: _until, ...fields } = session;
    if (!(await repository.save(_id, lease, fields)))
      log.warn({ session_id: _id }, 'chat session lease lost or session deleted mid-request; this turn was not saved');
  };

  const runLoop = async (
    session: SessionRecord,
    lease: Lease,
    ctx: CallContext,
    model: { provider: ProviderDefinition; model: string },
    maxTurns: number,
    selected: number | undefined,
  ) => {
    try {
      return await runChatLoop({
        provider: model.provider,
        model: model.model,
        system: await deps.systemPrompt(ctx, session.agent_type, selected),
        tools: await deps.tools(ctx),
        maxTurns,
        ctx,
        messages: session.messages as unknown as ProviderMessage[],
        conversation: session.conversation,
        now: () => clock.now().toISOString(),
        save: saver(session, lease, ctx.log),
        destructiveEnabled: deps.destructiveEnabled,
      });
    } catch (error) {
      if (error instanceof LoopProviderError) {
        const status = error.code === 'not_configured' ? 400 : 502;
        throw chatError('provider_error', {
          message: error.message,
          status,
          data: { provider: model.provider.slug, model: model.model, provider_code: error.code, session_id: session.session_id },
        });
      }
      throw error;
    }
  };

  return { saver, runLoop };
}
export type SessionRunner = ReturnType<typeof sessionRunner>;
