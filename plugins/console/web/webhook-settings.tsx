import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton } from './components.js';
import { when } from './format.js';
import type { WebhookStatus } from './model.js';
import { bearerCommand, hmacCommand, triggerUrl } from './webhook-curl.js';
import type { Fresh } from './webhook-panel.js';

/** What an action made: a token or secret to show once, the API's warnings, a word for the user. */
export type Outcome = { fresh?: Fresh; answer?: { warnings?: string[] }; said?: string };
type Secret = { id: string; value: string };

/** An enabled trigger: where to send, how (a command), what was just made, and its upkeep. */
export function WebhookSettings({
  flowId,
  status,
  fresh,
  busy,
  run,
  onHide,
}: {
  flowId: number;
  status: WebhookStatus;
  fresh: Fresh | undefined;
  busy: boolean;
  run: (work: () => Promise<Outcome>) => void;
  onHide: () => void;
}) {
  const url = triggerUrl(flowId);
  const bearer = status.mode === 'bearer';
  const command = bearer ? bearerCommand(url, fresh?.value) : hmacCommand(url, status.template, fresh?.value);
  const base = `/flows/${flowId}/webhook`;
  const newSecret = (res: { data: { secret: Secret }; warnings?: string[] }): Outcome => ({
    fresh: { kind: 'secret', value: res.data.secret.value, id: res.data.secret.id },
    answer: res,
    said: 'Secret rotated.',
  });
  return (
    <>
      <p>
        On: {bearer ? 'bearer token' : status.mode}
        {status.preset ? ` (preset ${status.preset})` : ''}
        {bearer && status.token ? (
          <>
            {' '}
            <code>{status.token}</code>
          </>
        ) : null}
      </p>
      <p class="copyable">
        <span>Trigger URL</span> <code>{url}</code> <CopyButton text={url} label="Copy URL" />
      </p>
      {fresh ? (
        <section class="once" aria-label="Shown once">
          <p>
            <strong>{fresh.kind === 'token' ? 'New token' : `New secret ${fresh.id ?? ''}`}</strong>, shown this once: copy it now. The
            console does not keep it; after a reload only its last 4 characters are shown.
          </p>
          <code class="secret-value">{fresh.value}</code>{' '}
          <CopyButton text={fresh.value} label={fresh.kind === 'token' ? 'Copy token' : 'Copy secret'} />{' '}
          <button type="button" onClick={onHide}>
            Hide
          </button>
        </section>
      ) : null}
      <h3>Trigger it</h3>
      {command.signing ? <p class="muted">Signature: {command.signing}</p> : null}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the command for the copy button and for tests finding it */}
      <pre class="command" aria-label="Trigger command">
        {command.script}
      </pre>
      <CopyButton text={command.script} label="Copy command" />
      {bearer ? (
        <p class="actions">
          <ConfirmButton
            label="Regenerate token"
            confirmLabel="The current token stops working at once."
            busy={busy}
            onConfirm={() =>
              run(async () => ({
                fresh: { kind: 'token', value: (await call<{ data: { token: string } }>('POST', `${base}/regenerate`)).data.token },
                said: 'Token regenerated.',
              }))
            }
          />
        </p>
      ) : (
        <Secrets
          status={status}
          busy={busy}
          onRotate={() =>
            run(async () =>
              newSecret(await call<{ data: { secret: Secret }; warnings?: string[] }>('POST', `${base}/secrets`, { body: {} })),
            )
          }
          onForget={(id) =>
            run(async () => {
              await call('DELETE', `${base}/secrets/${encodeURIComponent(id)}`);
              if (fresh?.id === id) onHide();
              return { said: 'Secret forgotten.' };
            })
          }
        />
      )}
      <RateLimit
        status={status}
        busy={busy}
        onSave={(limit) =>
          run(async () => {
            await call('PUT', `${base}/rate-limit`, { body: limit });
            return { said: 'Rate limit saved.' };
          })
        }
      />
    </>
  );
}

function Secrets({
  status,
  busy,
  onRotate,
  onForget,
}: {
  status: WebhookStatus;
  busy: boolean;
  onRotate: () => void;
  onForget: (id: string) => void;
}) {
  const secrets = status.secrets ?? [];
  return (
    <>
      <h3>Secrets</h3>
      {secrets.length === 0 ? <p class="empty">No active secret: every request is refused. Rotate to make one.</p> : null}
      <ul class="plain secrets">
        {secrets.map((s) => (
          <li key={s.id}>
            <code>{s.value}</code>{' '}
            <span class="muted">
              {s.id}, {s.expires_at ? `valid until ${when(s.expires_at)}` : 'no expiry'}
            </span>{' '}
            <ConfirmButton
              label="Forget"
              confirmLabel={`Forget secret ${s.id}? Senders signing with it are refused at once.`}
              busy={busy}
              onConfirm={() => onForget(s.id)}
            />
          </li>
        ))}
      </ul>
      <p>
        <button type="button" disabled={busy} onClick={onRotate}>
          Rotate secret
        </button>{' '}
        <span class="muted">A new secret; the current ones keep working for 7 days, while senders switch over.</span>
      </p>
    </>
  );
}

function RateLimit({
  status,
  busy,
  onSave,
}: {
  status: WebhookStatus;
  busy: boolean;
  onSave: (limit: { max: number; window_seconds: number }) => void;
}) {
  const [max, setMax] = useState(String(status.rate_limit?.max ?? 60));
  const [windowSeconds, setWindowSeconds] = useState(String(status.rate_limit?.window_seconds ?? 60));
  const submit = (event: Event) => {
    event.preventDefault();
    onSave({ max: Number(max), window_seconds: Number(windowSeconds) });
  };
  return (
    <form class="inline" onSubmit={submit} aria-label="Rate limit">
      <label>
        Requests at most
        <input
          name="rate_max"
          type="number"
          min={1}
          max={100000}
          required
          value={max}
          onInput={(e) => setMax((e.target as HTMLInputElement).value)}
        />
      </label>
      <label>
        Window (seconds)
        <input
          name="rate_window"
          type="number"
          min={1}
          max={86400}
          required
          value={windowSeconds}
          onInput={(e) => setWindowSeconds((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" disabled={busy}>
        Save rate limit
      </button>
      <span class="muted">Past it, senders get 429 with Retry-After.</span>
    </form>
  );
}

/** Copies to the clipboard where the browser allows it (a secure context); says so when it cannot. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = () => {
    const failed = () => setSaid('Copy is not available here: select the text and copy it.');
    if (!navigator.clipboard) return failed();
    navigator.clipboard.writeText(text).then(() => setSaid('Copied.'), failed);
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span class="muted" aria-live="polite">
        {said ? ` ${said}` : ''}
      </span>
    </>
  );
}
