import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, call } from './api.js';
import { Conversation, ToolCall } from './chat-messages.js';
import { asFailure, ConfirmButton, ErrorNote, Page, useAction, useLoad } from './components.js';
import { when } from './format.js';
import type { ChatAnswer, ChatMessage, ChatSession, ChatSessionSummary, ChatToolCall } from './model.js';
import { href, navigate } from './router.js';

/** How many one-turn continues one click may run before it asks the user again. */
const MAX_CONTINUES = 20;

interface Outcome {
  completed: boolean;
  maxTurns: boolean;
  pending: ChatToolCall | null;
}
const DONE: Outcome = { completed: true, maxTurns: false, pending: null };

/** The chat assistant: a session's conversation (#/chat/{id}) or a new one (#/chat), beside the user's sessions. */
export function Chat({ sessionId }: { sessionId?: string }) {
  const sessions = useLoad(
    () => call<{ data: { sessions: ChatSessionSummary[]; total: number } }>('GET', '/chat/sessions', { query: { limit: 50 } }),
    [],
  );
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [outcome, setOutcome] = useState<Outcome>(DONE);
  const [text, setText] = useState('');
  const [sending, setSending] = useState('');
  const action = useAction();
  // The session whose conversation an answer already gave: opening it needs no second read.
  const known = useRef<string | undefined>(undefined);

  const [loadError, setLoadError] = useState<ApiFailure>();
  // Set when a failed request opens its saved session, so its error stays in view there.
  const keepError = useRef(false);

  useEffect(() => {
    if (!keepError.current) action.clear();
    keepError.current = false;
    setLoadError(undefined);
    if (!sessionId) {
      setMessages([]);
      setOutcome(DONE);
      return undefined;
    }
    if (known.current === sessionId) return undefined;
    known.current = undefined;
    setMessages([]);
    let current = true;
    call<{ data: ChatSession }>('GET', `/chat/${encodeURIComponent(sessionId)}`).then(
      (res) => {
        if (!current) return;
        setMessages(res.data.conversation);
        setOutcome({ completed: finished(res.data.conversation), maxTurns: false, pending: null });
      },
      (failure) => current && setLoadError(asFailure(failure)),
    );
    return () => {
      current = false;
    };
  }, [sessionId]);

  const accept = (answer: ChatAnswer) => {
    setMessages(answer.conversation);
    setOutcome({
      completed: answer.data.completed,
      maxTurns: answer.data.max_turns_reached,
      pending: answer.data.pending_confirmation ?? null,
    });
    if (answer.session_id !== sessionId) {
      known.current = answer.session_id;
      navigate(`/chat/${answer.session_id}`);
    }
  };
  /** A failure that saved the session first (a provider error) still opens it, so Continue can retry. */
  const openFailed = (failure: unknown) => {
    const saved = failure instanceof ApiFailure ? failure.data.session_id : undefined;
    if (typeof saved === 'string' && saved !== sessionId) {
      keepError.current = true;
      navigate(`/chat/${saved}`);
    }
  };

  const send = (event: Event) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    setSending(message);
    void action
      .run(async () => {
        try {
          accept(await post('/chat', sessionId ? { message, session_id: sessionId } : { message }));
          setText('');
        } catch (failure) {
          openFailed(failure);
          throw failure;
        }
      })
      .finally(() => {
        setSending('');
        void sessions.reload();
      });
  };

  /** One model call per continue; repeated while the model is still working, up to the turn limit. */
  const proceed = (confirm?: string) =>
    void action
      .run(async () => {
        let body: Record<string, string> = confirm ? { session_id: sessionId!, confirm_tool_call_id: confirm } : { session_id: sessionId! };
        for (let i = 0; i < MAX_CONTINUES; i++) {
          const answer = await post('/chat/continue', body);
          accept(answer);
          if (answer.data.completed || answer.data.max_turns_reached || answer.data.pending_confirmation) return;
          body = { session_id: sessionId! };
        }
      })
      .finally(() => void sessions.reload());

  const remove = (id: string) =>
    void action.run(async () => {
      await call('DELETE', `/chat/${encodeURIComponent(id)}`);
      if (id === sessionId) navigate('/chat');
      await sessions.reload();
    });

  return (
    <Page
      title="Chat"
      actions={
        sessionId ? (
          <a class="button" href={href('/chat')}>
            New chat
          </a>
        ) : null
      }
    >
      <div class="chat">
        <div class="chat-panel">
          <Conversation messages={sending ? [...messages, { role: 'user', content: sending }] : messages} />
          {action.busy && sending ? (
            <p class="muted" role="status">
              The assistant is working…
            </p>
          ) : null}
          <ErrorNote error={loadError ?? action.error} />
          {outcome.pending ? (
            // biome-ignore lint/a11y/useSemanticElements: a card holding a question and two buttons, not a form fieldset
            <div class="card" role="group" aria-label="Waiting for your confirmation">
              <p>The assistant wants to run a tool that deletes what cannot be restored:</p>
              <ul class="plain">
                <ToolCall call={outcome.pending} />
              </ul>
              <button type="button" class="danger" disabled={action.busy} onClick={() => proceed(outcome.pending!.id)}>
                Run {outcome.pending.function.name}
              </button>
            </div>
          ) : sessionId && !outcome.completed && !action.busy ? (
            <p class="card">
              {outcome.maxTurns
                ? 'The assistant stopped at the turn limit without a final answer. '
                : 'The assistant has not answered yet. '}
              <button type="button" onClick={() => proceed()}>
                Continue
              </button>
            </p>
          ) : null}
          <form class="chat-form" aria-label="Ask the assistant" onSubmit={send}>
            <label for="chat-message">Message</label>
            <textarea
              id="chat-message"
              name="message"
              rows={3}
              maxLength={32000}
              value={text}
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send(e);
              }}
            />
            <button type="submit" class="primary" disabled={action.busy || !text.trim()}>
              Send
            </button>
          </form>
        </div>
        <SessionList sessions={sessions} sessionId={sessionId} busy={action.busy} onRemove={remove} />
      </div>
    </Page>
  );
}

/** The user's sessions beside the conversation, each with a link and a delete button. */
function SessionList({
  sessions,
  sessionId,
  busy,
  onRemove,
}: {
  sessions: ReturnType<typeof useLoad<{ data: { sessions: ChatSessionSummary[]; total: number } }>>;
  sessionId: string | undefined;
  busy: boolean;
  onRemove: (id: string) => void;
}) {
  return (
    <aside class="chat-sessions" aria-label="Your chat sessions">
      <h2>Sessions</h2>
      <ErrorNote error={sessions.error} />
      {sessions.data && sessions.data.data.sessions.length === 0 ? <p class="empty">No sessions yet.</p> : null}
      <ul class="plain">
        {(sessions.data?.data.sessions ?? []).map((s) => (
          <li key={s.session_id}>
            <a href={href(`/chat/${s.session_id}`)} aria-current={s.session_id === sessionId ? 'page' : undefined}>
              {s.title || s.first_message || s.session_id}
            </a>
            <div class="muted">
              {when(s.updated_at)} · {s.message_count} messages
            </div>
            <ConfirmButton label="Delete" confirmLabel="Delete this session?" busy={busy} onConfirm={() => onRemove(s.session_id)} />
          </li>
        ))}
      </ul>
    </aside>
  );
}

/** The session ended on the assistant's final answer (not on a tool call, a result or the user's message). */
function finished(messages: ChatMessage[]): boolean {
  const last = messages[messages.length - 1];
  return !last || (last.role === 'assistant' && !last.tool_calls?.length);
}

/**
 * POST with a fresh X-Request-ID: when the answer is lost on the way (a network error), the
 * same request is sent once more with the same id, and the server replays the first answer
 * instead of running the model and its tools twice.
 */
async function post(path: string, body: Record<string, unknown>): Promise<ChatAnswer> {
  const headers = { 'X-Request-ID': requestId() };
  try {
    return await call<ChatAnswer>('POST', path, { body, headers });
  } catch (failure) {
    if (failure instanceof ApiFailure && failure.status === 0) return call<ChatAnswer>('POST', path, { body, headers });
    throw failure;
  }
}

/** 128 random bits as hex; getRandomValues works on plain http too (randomUUID needs a secure context). */
function requestId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
