import { when } from './format.js';
import type { ChatMessage, ChatToolCall } from './model.js';

/**
 * A chat session's conversation as the API keeps it: the user's messages, the assistant's
 * answers and the tool calls it made (by `function.name`), and each tool's outcome. Text is
 * shown as text, never as HTML: a model's answer may quote a fetched page.
 */
export function Conversation({ messages }: { messages: ChatMessage[] }) {
  if (messages.length === 0) return <p class="empty">No messages yet. Ask the assistant to build or run a flow.</p>;
  return (
    <ol class="chat-log" aria-label="Conversation">
      {messages.map((message, index) => (
        <li key={index} class={`chat-msg chat-${message.role}`}>
          <MessageBody message={message} />
        </li>
      ))}
    </ol>
  );
}

function MessageBody({ message }: { message: ChatMessage }) {
  const at = message.metadata?.timestamp;
  const stamp = at ? (
    <time class="muted" dateTime={at}>
      {when(at)}
    </time>
  ) : null;
  if (message.role === 'tool') {
    const ok = message.metadata?.success !== false;
    return (
      <details>
        <summary>
          Result of <code>{message.metadata?.tool_name ?? 'a tool'}</code>:{' '}
          <span class={ok ? 'ok' : 'error-text'}>{ok ? 'ok' : 'error'}</span> {stamp}
        </summary>
        <pre>{pretty(message.content)}</pre>
      </details>
    );
  }
  return (
    <>
      <div class="chat-who">
        <strong>{message.role === 'user' ? 'You' : 'Assistant'}</strong> {stamp}
      </div>
      {message.content ? <div class="chat-text">{message.content}</div> : null}
      {message.tool_calls?.length ? (
        <ul class="plain tool-calls" aria-label="Tool calls">
          {message.tool_calls.map((call) => (
            <ToolCall key={call.id} call={call} />
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function ToolCall({ call }: { call: ChatToolCall }) {
  return (
    <li class="tool-call">
      <details>
        <summary>
          Called <code class="tool-name">{call.function.name}</code>
          {call.error ? <span class="error-text"> — {call.error}</span> : null}
        </summary>
        <pre>{pretty(call.function.arguments)}</pre>
      </details>
    </li>
  );
}

/** JSON text indented for reading; anything else as it came. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
